package dev.chartwell.bench.http;

import dev.chartwell.bench.BenchLogs;
import dev.chartwell.bench.BenchMain;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code sidebyside}: one run that generates the {@code bench-logs} NDJSON file, loads it into a
 * local ClickHouse ({@code INSERT ... FORMAT JSONEachRow} over HTTP) and into a Chartwell server
 * (the bench {@code load} path over concurrent connections) at equal parallelism, once for each
 * setting of {@code --parallel} (1 and 2 by default: that many concurrent {@code INSERT}s and that
 * many connections, each on fresh servers), prints events/s, bytes per event on disk and the
 * server's CPU per event of both, then runs Q1–Q6 on both (the servers of the last setting),
 * interleaved, checks that the answers agree and prints the median latencies and their ratios.
 * Without ClickHouse installed it says so and measures Chartwell alone.
 */
public final class SideBySide {
  /** The data file's name when the run generates it in its work folder. */
  private static final String GENERATED = "bench-logs.ndjson";

  /** Measured rounds of queries unless {@code --runs} says otherwise. */
  static final int RUNS = 11;

  /** Warm-up rounds of queries unless {@code --warmup} says otherwise. */
  static final int WARMUP = 10;

  private final Flags flags;
  private final PrintStream out;
  private final SideLoads sides;
  private final Http http = new Http();

  private SideBySide(Flags flags, PrintStream out) {
    this.flags = flags;
    this.out = out;
    this.sides = new SideLoads(flags, out);
  }

  /**
   * @param flags the command's flags (see benchmarks/README.md)
   * @param out where the report goes
   * @return whether every answer agreed (the command exits 1 otherwise)
   */
  public static boolean run(Map<String, String> flags, PrintStream out) throws Exception {
    return new SideBySide(new Flags(flags), out).run();
  }

  private boolean run() throws Exception {
    int rows = flags.integer("rows", 1_000_000);
    long seed = Long.parseLong(flags.get("seed", "42"));
    boolean ownWork = !flags.has("work");
    Path work =
        ownWork
            ? Files.createTempDirectory("chartwell-sidebyside")
            : Files.createDirectories(Path.of(flags.get("work", "")));
    boolean keep = Boolean.parseBoolean(flags.get("keep", "false"));
    out.printf(
        Locale.ROOT,
        "side by side, %s: %d cores, load average %s, work folder %s%n",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        loadAverage(),
        work);
    try {
      Path file = dataFile(work, rows, seed);
      long events = lines(file);
      Optional<List<String>> command = ClickHouse.find(flags.get("clickhouse", null));
      if (command.isEmpty()) {
        out.println(
            "ClickHouse: SKIPPED, "
                + (flags.has("clickhouse")
                    ? "--clickhouse " + flags.get("clickhouse", "") + " is not an executable file"
                    : "no clickhouse-server (or clickhouse) binary in PATH, /usr/sbin or /usr/bin;"
                        + " install Debian's clickhouse-server package or give --clickhouse PATH")
                + ". Only Chartwell is measured.");
      }
      List<Integer> settings = parallelism();
      List<SideLoads.Loaded[]> loads = new ArrayList<>();
      boolean agreed = true;
      for (int k = 0; k < settings.size(); k++) {
        int parallel = settings.get(k);
        deleteTree(work.resolve("clickhouse")); // each setting loads fresh servers
        deleteTree(work.resolve("chartwell"));
        out.printf(
            Locale.ROOT,
            "%n-- %d concurrent INSERT(s) into ClickHouse, %d connection(s) into Chartwell --%n",
            parallel,
            parallel);
        try (ClickHouse ch =
                command.isPresent()
                    ? ClickHouse.start(
                        command.get(), Files.createDirectories(work.resolve("clickhouse")), http)
                    : null;
            ChartwellProcess cw =
                ChartwellProcess.start(
                    Path.of(flags.get("server-jar", "server-adapter/target/chartwell-server.jar")),
                    Arrays.asList(
                        flags
                            .get("server-jvm", "-Xms4g -Xmx4g -XX:+UseParallelGC")
                            .trim()
                            .split("\\s+")),
                    Files.createDirectories(work.resolve("chartwell")),
                    http)) {
          cw.awaitWarmUp(java.time.Duration.ofMinutes(10)); // not beside either measured load
          SideLoads.Loaded chLoad =
              ch == null ? null : sides.loadClickHouse(ch, file, events, parallel);
          cw.setUp(flags.get("implicit-column", "Body"));
          SideLoads.Loaded cwLoad = sides.loadChartwell(cw, file, events, parallel);
          sides.printLoads(chLoad, cwLoad);
          loads.add(new SideLoads.Loaded[] {chLoad, cwLoad});
          if (k < settings.size() - 1) {
            continue; // queries run once, on the servers of the last setting
          }
          sides.printParallelism(settings, loads);
          if (flags.integer("runs", RUNS) == 0) {
            out.println("queries: none (--runs 0)");
            return true;
          }
          String via =
              ch != null && Boolean.parseBoolean(flags.get("through-source", "true"))
                  ? cw.clickHouseSource(ch.url(), "bench-clickhouse")
                  : null;
          agreed = queries(ch, cw, via);
          if (command.isPresent() && flags.integer("shards", 1) == 2) {
            agreed &= new TwoShards(flags, out).run(command.get(), work, file, events, cw);
          }
        }
      }
      return agreed;
    } finally {
      out.printf(Locale.ROOT, "load average at the end: %s%n", loadAverage());
      if (!keep) { // a folder the user gave stays; only what the run put there goes
        for (Path p :
            ownWork
                ? List.of(work)
                : List.of(
                    work.resolve("clickhouse"),
                    work.resolve("chartwell"),
                    work.resolve(GENERATED))) {
          deleteTree(p);
        }
      }
    }
  }

  private Path dataFile(Path work, int rows, long seed) throws IOException {
    if (flags.has("file") && Files.isRegularFile(Path.of(flags.get("file", "")))) {
      Path file = Path.of(flags.get("file", ""));
      out.printf(Locale.ROOT, "data: %s (given, %,.1f MB)%n", file, Files.size(file) / 1e6);
      return file;
    }
    Path file = flags.has("file") ? Path.of(flags.get("file", "")) : work.resolve(GENERATED);
    long start = System.nanoTime();
    BenchMain.writeNdjson(rows, seed, file);
    out.printf(
        Locale.ROOT,
        "data: %,d bench-logs events (seed %d), %,.1f MB of NDJSON, generated in %.1f s%n",
        rows,
        seed,
        Files.size(file) / 1e6,
        (System.nanoTime() - start) / 1e9);
    return file;
  }

  /** Events in an NDJSON file: its lines (a last line without a newline counts). */
  private static long lines(Path file) throws IOException {
    long lines = 0;
    byte last = '\n';
    byte[] buf = new byte[1 << 20];
    try (java.io.InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            lines++;
          }
        }
        last = buf[n - 1];
      }
    }
    return last == '\n' ? lines : lines + 1;
  }

  /**
   * The settings of {@code --parallel} (a comma-separated list, {@code 1,2} by default; {@code
   * --connections N} alone means only {@code N}): each loads ClickHouse with that many concurrent
   * {@code INSERT}s and Chartwell over that many connections.
   */
  private List<Integer> parallelism() {
    String given =
        flags.get("parallel", flags.has("connections") ? flags.get("connections", "2") : "1,2");
    List<Integer> out = new ArrayList<>();
    for (String part : given.split(",")) {
      int n;
      try {
        n = Integer.parseInt(part.trim());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1) {
        throw new IllegalArgumentException(
            "--parallel takes positive counts separated by commas (like 1,2), not '" + given + "'");
      }
      out.add(n);
    }
    return out;
  }

  /**
   * Q1–Q6 interleaved; returns whether every answer agreed. With {@code via} (a Chartwell source on
   * the ClickHouse table), each query also runs through it: Chartwell's chart API compiled to
   * ClickHouse SQL, beside the same query on ClickHouse directly.
   */
  private boolean queries(ClickHouse ch, ChartwellProcess cw, String via) throws Exception {
    int runs = flags.integer("runs", RUNS);
    int warmup = flags.integer("warmup", WARMUP);
    double tolerance = Double.parseDouble(flags.get("tolerance", "1e-9"));
    List<BenchQueries.Query> qs = BenchQueries.all(cw.sourceId(), ClickHouse.TABLE, BenchLogs.END);
    List<Timings[]> cwTimes = new ArrayList<>(); // client, engine, read, write, server
    List<Timings> chTimes = new ArrayList<>();
    List<Timings[]> viaTimes = new ArrayList<>(); // client, ClickHouse step of Server-Timing
    List<String> viaVerdicts = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    Timings cwNothing = new Timings(); // GET /health
    Timings chNothing = new Timings(); // SELECT 1
    for (int i = 0; i < qs.size(); i++) {
      cwTimes.add(
          new Timings[] {
            new Timings(), new Timings(), new Timings(), new Timings(), new Timings()
          });
      chTimes.add(new Timings());
      viaTimes.add(new Timings[] {new Timings(), new Timings()});
      viaVerdicts.add("not run");
      verdicts.add(ch == null ? "not compared" : null);
    }
    out.printf(
        Locale.ROOT,
        "queries: %d warm-up rounds, then %d measured; each round runs Q1..Q6%s%n",
        warmup,
        runs,
        ch == null ? "" : " on both, in turns (who goes first alternates)");
    try (PlainHttp cwClient = new PlainHttp(URI.create(cw.url()));
        PlainHttp chClient = ch == null ? null : new PlainHttp(URI.create(ch.url()))) {
      for (int round = 0; round < warmup + runs; round++) {
        for (int i = 0; i < qs.size(); i++) {
          BenchQueries.Query q = qs.get(i);
          boolean chFirst = round % 2 == 1;
          byte[] chAnswer = null;
          double chMs = 0;
          if (ch != null && chFirst) {
            long t = System.nanoTime();
            chAnswer = ClickHouse.select(chClient, q.sql());
            chMs = (System.nanoTime() - t) / 1e6;
          }
          ChartCall c = ChartCall.send(cwClient, cw.token(), q.chartBody());
          ChartCall v =
              via == null
                  ? null
                  : ChartCall.send(cwClient, cw.token(), q.chartBody().replace(cw.sourceId(), via));
          if (ch != null && !chFirst) {
            long t = System.nanoTime();
            chAnswer = ClickHouse.select(chClient, q.sql());
            chMs = (System.nanoTime() - t) / 1e6;
          }
          if (round == 0 && ch != null) {
            verdicts.set(i, verdict(q, c.body(), chAnswer, tolerance));
            if (v != null) {
              viaVerdicts.set(i, verdict(q, v.body(), chAnswer, tolerance));
            }
          }
          if (round >= warmup) {
            Timings[] t = cwTimes.get(i);
            t[0].add(c.clientMs());
            t[1].add(c.engineMs());
            t[2].add(c.readMs());
            t[3].add(c.writeMs());
            t[4].add(c.serverMs());
            chTimes.get(i).add(ch == null ? Double.NaN : chMs);
            if (v != null) {
              viaTimes.get(i)[0].add(v.clientMs());
              viaTimes.get(i)[1].add(v.engineMs());
            }
          }
        }
      }
      // A request that does nothing, each right after the other server's query, as every query
      // above came after the other's work: the machine's round trip to a server left idle.
      for (int round = 0; round < runs && ch != null; round++) {
        for (BenchQueries.Query q : qs) {
          ClickHouse.select(chClient, q.sql());
          cwNothing.add(nothing(cwClient, false));
          ChartCall.send(cwClient, cw.token(), q.chartBody());
          chNothing.add(nothing(chClient, true));
        }
      }
    }
    out.println();
    out.println(
        "query  Chartwell  (engine   read  write  server)   ClickHouse   ClickHouse/Chartwell"
            + "   answers");
    boolean agreed = true;
    for (int i = 0; i < qs.size(); i++) {
      Timings[] t = cwTimes.get(i);
      double chMedian = chTimes.get(i).median();
      out.printf(
          Locale.ROOT,
          "%-5s %8.2f ms (%7.2f %6.2f %6.2f %7.2f) %9s %18s     %s%n",
          qs.get(i).name(),
          t[0].median(),
          t[1].median(),
          t[2].median(),
          t[3].median(),
          t[4].median(),
          ch == null ? "-" : String.format(Locale.ROOT, "%.2f ms", chMedian),
          ch == null ? "-" : String.format(Locale.ROOT, "%.1fx", chMedian / t[0].median()),
          verdicts.get(i).lines().findFirst().orElse(""));
      agreed &= verdicts.get(i).startsWith("agree") || ch == null;
    }
    out.println(
        "(medians of "
            + runs
            + " runs, milliseconds, as each client saw them over HTTP; engine, read (the request"
            + " body), write (the JSON answer) and server are Chartwell's Server-Timing)");
    out.printf(
        Locale.ROOT,
        "a request that does nothing, right after the other server's query (as each query above"
            + " came): Chartwell GET /health %s, ClickHouse SELECT 1 %s (medians of %d; this round"
            + " trip is part of every time above)%n",
        ch == null ? "-" : String.format(Locale.ROOT, "%.2f ms", cwNothing.median()),
        ch == null ? "-" : String.format(Locale.ROOT, "%.2f ms", chNothing.median()),
        runs * qs.size());
    if (via != null) {
      out.println();
      out.println(
          "query  through a Chartwell source on ClickHouse  (its ClickHouse step)   ClickHouse"
              + " directly   through/directly   answers (vs ClickHouse directly)");
      for (int i = 0; i < qs.size(); i++) {
        Timings[] t = viaTimes.get(i);
        double direct = chTimes.get(i).median();
        out.printf(
            Locale.ROOT,
            "%-5s %12.2f ms %24.2f ms %14.2f ms %14.2fx   %s%n",
            qs.get(i).name(),
            t[0].median(),
            t[1].median(),
            direct,
            t[0].median() / direct,
            viaVerdicts.get(i).lines().findFirst().orElse(""));
        agreed &= viaVerdicts.get(i).startsWith("agree");
      }
    }
    for (int i = 0; i < qs.size(); i++) {
      if (via != null && !viaVerdicts.get(i).startsWith("agree")) {
        out.println(qs.get(i).name() + " through the source differs:");
        viaVerdicts.get(i).lines().skip(1).forEach(l -> out.println("  " + l));
      }
      if (!verdicts.get(i).startsWith("agree") && ch != null) {
        out.println(qs.get(i).name() + " differs:");
        verdicts.get(i).lines().skip(1).forEach(l -> out.println("  " + l));
      }
    }
    return agreed;
  }

  /**
   * Times a request that does nothing: {@code GET /health} on Chartwell, {@code SELECT 1} on
   * ClickHouse.
   *
   * @return the client's milliseconds
   */
  private static double nothing(PlainHttp client, boolean clickHouse) throws IOException {
    long t = System.nanoTime();
    if (clickHouse) {
      ClickHouse.select(client, "SELECT 1");
    } else {
      PlainHttp.Answer a = client.get("/health");
      if (a.status() != 200) {
        throw new IllegalStateException("GET /health answered " + a.status() + " " + a.text());
      }
    }
    return (System.nanoTime() - t) / 1e6;
  }

  /**
   * @return {@code agree (N rows)}, or {@code DIFFERENT} followed by the differences, one a line
   */
  static String verdict(
      BenchQueries.Query q, byte[] chartwellJson, byte[] clickhouseTsv, double tolerance)
      throws IOException {
    Answer cw = Answer.fromChartwell(Http.JSON.readTree(chartwellJson), q.series().size());
    Answer ch =
        Answer.fromClickHouse(
            new String(clickhouseTsv, java.nio.charset.StandardCharsets.UTF_8),
            q.groups(),
            q.series().size());
    List<String> diffs = Answer.differences(cw, ch, q.series(), tolerance, 5);
    return diffs.isEmpty()
        ? "agree (" + cw.rows() + " rows)"
        : "DIFFERENT (Chartwell "
            + cw.rows()
            + " rows, ClickHouse "
            + ch.rows()
            + ")\n"
            + String.join("\n", diffs);
  }

  private static String loadAverage() {
    try {
      String[] p = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return p[0] + " " + p[1] + " " + p[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
