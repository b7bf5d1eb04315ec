package dev.chartwell.bench;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.QueryOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code scale}: the {@code bench-logs} data set at a size of one's choosing (the stretch
 * is a billion events) in a data directory, measured end to end: how fast the generator alone makes
 * events, how fast they load through the Java API (generated on the appending thread, sealed in the
 * background, logged with {@code fsync request}), the bytes on disk, and Q1, Q4 and Q5 (the queries
 * that read indexes rather than every row): the first run and the median of later ones, each answer
 * checked against counts kept while generating. A directory that already holds the data set is
 * opened instead of loaded, which times a restart; its first query then verifies the checksum of
 * every file it reads, whole (files written by the running engine were verified as they were
 * written), and is given an hour instead of the engine's 30 s limit.
 */
final class ScaleRun {
  private ScaleRun() {}

  /** {@code scale --rows N --dir D [--rounds R]}. */
  static void run(Map<String, String> flags, PrintStream out) {
    int rows = Integer.parseInt(flags.getOrDefault("rows", "1000000000"));
    Path dir = Path.of(BenchMain.required(flags, "dir"));
    int rounds = Integer.parseInt(flags.getOrDefault("rounds", "21"));

    int sample = Math.min(rows, 5_000_000);
    long t0 = System.nanoTime();
    BenchLogs gen = new BenchLogs(sample, 42);
    long sink = 0;
    while (gen.hasNext()) {
      sink += gen.next().fields().size();
    }
    double genSeconds = (System.nanoTime() - t0) / 1e9;
    out.printf(
        Locale.ROOT,
        "generation alone: %,d events in %.1f s, %,.0f events/s on one thread%n",
        sample,
        genSeconds,
        sample / genSeconds);

    boolean there = BenchData.holds(dir, rows);
    t0 = System.nanoTime();
    BenchData.Loaded loaded = BenchData.onDisk(dir, rows, FsyncPolicy.REQUEST);
    double loadSeconds = (System.nanoTime() - t0) / 1e9;
    if (there) {
      out.printf(Locale.ROOT, "opened: %,d events in %.1f s (a restart)%n", rows, loadSeconds);
    } else {
      out.printf(
          Locale.ROOT,
          "load: %,d events in %.0f s, %,.0f events/s (generated on the appending thread)%n",
          rows,
          loadSeconds,
          rows / loadSeconds);
    }
    long bytes;
    try {
      bytes = DiskUse.bytesUnder(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.printf(
        Locale.ROOT,
        "disk: %,d bytes in %s, %.2f bytes per event%n",
        bytes,
        dir,
        bytes / (double) rows);

    try (var engine = loaded.engine()) {
      List<ChartQuery> queries = QueryBenchmark.queries();
      BenchData.Counts counts = loaded.counts();
      long[] expected = {counts.errors(), counts.svc3Failures(), counts.timeouts()};
      int[] which = {0, 3, 4};
      for (int k = 0; k < which.length; k++) {
        ChartQuery q = queries.get(which[k]);
        double[] ms = new double[rounds + 1];
        for (int r = 0; r <= rounds; r++) {
          long s = System.nanoTime();
          // The first query may have to verify files read from disk whole (those of a restart):
          // it is given an hour, not the engine's default limit.
          ChartResult result =
              engine.query(q, QueryOptions.DEFAULT.withTimeout(Duration.ofHours(1)));
          ms[r] = (System.nanoTime() - s) / 1e6;
          long total = QueryBenchmark.total(result, 0);
          if (total != expected[k]) {
            throw new IllegalStateException(
                "Q" + (which[k] + 1) + ": expected " + expected[k] + " but got " + total);
          }
        }
        double first = ms[0];
        double[] later = Arrays.copyOfRange(ms, 1, ms.length);
        Arrays.sort(later);
        out.printf(
            Locale.ROOT,
            "Q%d: first %.2f ms, median of %d after it %.2f ms (answer %,d checked)%n",
            which[k] + 1,
            first,
            rounds,
            later[rounds / 2],
            expected[k]);
      }
    }
    if (sink < 0) {
      out.println(sink); // keeps the generated events alive
    }
  }
}
