package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The load half of {@link SideBySide}: the same NDJSON file loaded into ClickHouse (concurrent
 * {@code INSERT}s) and into Chartwell (connections), each measured from its first request until the
 * server settled, and the tables that print them side by side.
 */
final class SideLoads {
  private final Flags flags;
  private final PrintStream out;

  SideLoads(Flags flags, PrintStream out) {
    this.flags = flags;
    this.out = out;
  }

  /**
   * What a load measured; {@code cpu}: the processor time from its first request until the server
   * had settled (ClickHouse's merges, Chartwell's sealing).
   */
  record Loaded(
      String system,
      long events,
      double seconds,
      long bytesOnDisk,
      CpuUse.Seconds cpu,
      String how) {
    double eventsPerSecond() {
      return events / seconds;
    }

    double bytesPerEvent() {
      return bytesOnDisk / (double) events;
    }

    /** Microseconds of the server's processor time per event, or NaN. */
    double serverMicrosPerEvent() {
      return cpu.server().orElse(Double.NaN) * 1e6 / events;
    }
  }

  /** The loads of every setting side by side: events/s and the server's CPU per event. */
  void printParallelism(List<Integer> settings, List<Loaded[]> loads) {
    out.println(
        "parallel   ClickHouse events/s  CPU µs/event   Chartwell events/s  CPU µs/event"
            + "   Chartwell/ClickHouse: events/s  CPU/event");
    for (int i = 0; i < settings.size(); i++) {
      Loaded ch = loads.get(i)[0];
      Loaded cw = loads.get(i)[1];
      out.printf(
          Locale.ROOT,
          "%8d %20s %13s %20s %13s %25s %10s%n",
          settings.get(i),
          ch == null ? "-" : String.format(Locale.ROOT, "%,.0f", ch.eventsPerSecond()),
          ch == null ? "-" : String.format(Locale.ROOT, "%.2f", ch.serverMicrosPerEvent()),
          String.format(Locale.ROOT, "%,.0f", cw.eventsPerSecond()),
          String.format(Locale.ROOT, "%.2f", cw.serverMicrosPerEvent()),
          ch == null
              ? "-"
              : String.format(Locale.ROOT, "%.2fx", cw.eventsPerSecond() / ch.eventsPerSecond()),
          ch == null
              ? "-"
              : String.format(
                  Locale.ROOT, "%.2fx", cw.serverMicrosPerEvent() / ch.serverMicrosPerEvent()));
    }
    out.println(
        "(CPU: the server process's user and system time from /proc, from the first request until"
            + " its merges or sealing settled)");
    out.println();
  }

  Loaded loadClickHouse(ClickHouse ch, Path file, long events, int inserts) throws Exception {
    out.printf(
        Locale.ROOT,
        "ClickHouse %s: loading with %d concurrent INSERT ... FORMAT JSONEachRow ...%n",
        ch.version(),
        inserts);
    ch.createTable();
    CpuUse cpu = CpuUse.start(ch.pid());
    double seconds = ch.load(file, inserts);
    long settle = System.nanoTime();
    while (!ch.query("SELECT count() FROM system.merges FORMAT TabSeparated").trim().equals("0")) {
      Thread.sleep(500); // background merges would take CPU from Chartwell's load
    }
    CpuUse.Seconds used = cpu.since();
    long[] parts = ch.parts();
    if (parts[0] != events) {
      throw new IllegalStateException("ClickHouse holds " + parts[0] + " rows, not " + events);
    }
    out.printf(
        Locale.ROOT,
        "ClickHouse: %,d events in %.1f s; merges settled %.1f s later into %d active parts%n",
        events,
        seconds,
        (System.nanoTime() - settle) / 1e9,
        parts[1]);
    return new Loaded(
        "ClickHouse",
        events,
        seconds,
        parts[2],
        used,
        "JSONEachRow, " + inserts + " concurrent INSERT(s); active parts");
  }

  Loaded loadChartwell(ChartwellProcess cw, Path file, long events, int connections)
      throws Exception {
    int warmRows = flags.integer("warm-rows", 0);
    if (warmRows > 0) {
      Path warm = firstLines(file, warmRows, Files.createTempFile("chartwell-warm-up", ".ndjson"));
      String warmSource = cw.warmUpSource(flags.get("implicit-column", "Body"));
      out.printf(
          Locale.ROOT,
          "Chartwell: warming up on the first %,d events, into another source (not measured)%n",
          warmRows);
      try {
        new Loader(connections, flags.integer("request-mb", Loader.DEFAULT_REQUEST_MB) << 20L)
            .load(
                cw.url() + "/api/v2/sources/" + warmSource + "/events",
                cw.token(),
                warm,
                out,
                true);
        cw.awaitSealed(warmSource);
      } finally {
        Files.delete(warm);
      }
    }
    out.printf(
        Locale.ROOT, "Chartwell at %s: loading over %d connections ...%n", cw.url(), connections);
    CpuUse cpu = CpuUse.start(cw.pid());
    Loader.Result r =
        new Loader(connections, flags.integer("request-mb", Loader.DEFAULT_REQUEST_MB) << 20L)
            .load(
                cw.url() + "/api/v2/sources/" + cw.sourceId() + "/events",
                cw.token(),
                file,
                out,
                false);
    long settle = System.nanoTime();
    JsonNode st = cw.awaitSealed();
    CpuUse.Seconds used = cpu.since();
    if (st.path("rows").asLong() != events) {
      throw new IllegalStateException(
          "Chartwell holds " + st.path("rows") + " events, not " + events);
    }
    long onDisk = cw.filesOnDisk();
    long log = st.path("logBytes").asLong();
    out.printf(
        Locale.ROOT,
        "Chartwell: %,d events in %.1f s; sealing done %.1f s later: %d segment files (%.1f bytes"
            + " per event), %,d events not yet in one; the write-ahead log holds %,d bytes; %,d bytes"
            + " on disk by the server's count, %,d counting the files%n",
        r.events(),
        r.seconds(),
        (System.nanoTime() - settle) / 1e9,
        st.path("segments").asInt(),
        (st.path("diskBytes").asLong() - log) / (double) events,
        st.path("headRows").asLong(),
        log,
        st.path("diskBytes").asLong(),
        onDisk);
    return new Loaded(
        "Chartwell",
        r.events(),
        r.seconds(),
        onDisk,
        used,
        String.format(
            Locale.ROOT,
            "NDJSON, %d connections, fsync request; all files (segment files alone: %.1f)",
            connections,
            (onDisk - log) / (double) events));
  }

  void printLoads(Loaded ch, Loaded cw) {
    out.println();
    out.println(
        "load         events/s   bytes/event on disk   CPU s: server harness machine   server"
            + " CPU µs/event   how");
    for (Loaded l : ch == null ? List.of(cw) : List.of(ch, cw)) {
      out.printf(
          Locale.ROOT,
          "%-10s %10s %12.1f          %14s %8s %8s %15s       %s%n",
          l.system(),
          String.format(Locale.ROOT, "%,.0f", l.eventsPerSecond()),
          l.bytesPerEvent(),
          cpuSeconds(l.cpu().server()),
          cpuSeconds(l.cpu().harness()),
          cpuSeconds(l.cpu().machine()),
          Double.isNaN(l.serverMicrosPerEvent())
              ? "-"
              : String.format(Locale.ROOT, "%.2f", l.serverMicrosPerEvent()),
          l.how());
    }
    if (ch != null) {
      out.printf(
          Locale.ROOT,
          "Chartwell/ClickHouse: %.2fx the events/s, %.2fx the bytes per event, %.2fx the server's"
              + " CPU per event%n",
          cw.eventsPerSecond() / ch.eventsPerSecond(),
          cw.bytesPerEvent() / ch.bytesPerEvent(),
          cw.serverMicrosPerEvent() / ch.serverMicrosPerEvent());
    }
    out.println();
  }

  private static String cpuSeconds(java.util.OptionalDouble seconds) {
    return seconds.isPresent() ? String.format(Locale.ROOT, "%.1f", seconds.getAsDouble()) : "-";
  }

  /** Copies the first lines of an NDJSON file (all of them when it has fewer) to another. */
  private static Path firstLines(Path file, int lines, Path to) throws IOException {
    try (java.io.BufferedReader in = Files.newBufferedReader(file);
        java.io.BufferedWriter w = Files.newBufferedWriter(to)) {
      String line;
      for (int i = 0; i < lines && (line = in.readLine()) != null; i++) {
        w.write(line);
        w.write('\n');
      }
    }
    return to;
  }
}
