package dev.chartwell.bench;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.SourceStats;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Bytes per event by column, after sealing, of one of two data sets: {@code typical} (time, four
 * low-cardinality strings, a status code, a double) or {@code bench-logs} ({@link BenchLogs}, with
 * its unique trace ids and templated bodies), in memory or ({@code disk}) in segment files, where
 * it also counts every file of the data directory. Run: {@code java -cp
 * benchmarks/target/chartwell-bench.jar dev.chartwell.bench.MemoryFootprint [typical|bench-logs]
 * [rows] [memory|disk]}.
 */
public final class MemoryFootprint {
  private static final String[] SERVICES = {
    "api", "web", "auth", "billing", "search", "cart", "checkout", "email", "queue", "cron"
  };
  private static final String[] LEVELS = {"debug", "info", "warn", "error"};
  private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  private static final String[] REGIONS = {"eu-west-1", "us-east-1", "ap-south-1"};
  private static final long[] STATUS = {200, 201, 204, 301, 400, 404, 500, 503};

  private MemoryFootprint() {}

  /**
   * @param args optional data set ({@code typical}, the default, or {@code bench-logs}) and row
   *     count (default 2,000,000)
   */
  public static void main(String[] args) throws java.io.IOException {
    String dataSet = args.length > 0 ? args[0] : "typical";
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
    boolean disk = args.length > 2 && args[2].equals("disk");
    java.nio.file.Path dir = disk ? java.nio.file.Files.createTempDirectory("footprint") : null;
    Iterator<Event> events =
        switch (dataSet) {
          case "typical" -> typical(rows);
          case "bench-logs" -> benchLogs(rows);
          default ->
              throw new IllegalArgumentException(
                  "unknown data set '" + dataSet + "' (typical or bench-logs)");
        };
    Engine.Builder builder = Engine.builder().reporter(line -> {});
    if (disk) {
      builder.dataDirectory(dir);
    }
    try (Engine engine = builder.build()) {
      // bench-logs as the query benchmarks hold it: Body is the implicit column, with its token
      // index; the typical event has no text to index.
      Source source =
          engine.createSource(
              dataSet.equals("bench-logs")
                  ? BenchData.spec()
                  : new SourceSpec(
                      null, dataSet, SourceKind.LOG, "Timestamp", null, null, List.of()));
      List<Event> batch = new ArrayList<>(10_000);
      while (events.hasNext()) {
        batch.add(events.next());
        if (batch.size() == 10_000) {
          source.appendBatch(batch);
          batch.clear();
        }
      }
      source.appendBatch(batch);
      source.seal();
      SourceStats stats = source.stats();
      System.out.printf(
          Locale.ROOT, "%s: %,d rows in %d segments%n", dataSet, stats.rows(), stats.segments());
      System.out.printf(
          Locale.ROOT, "%-26s %8.2f bytes/event%n", "Timestamp", per(stats.timestampBytes(), rows));
      for (SourceStats.ColumnBytes c : stats.columns()) {
        System.out.printf(Locale.ROOT, "%-26s %8.2f bytes/event%n", c.name(), per(c.bytes(), rows));
      }
      if (stats.tokenIndexBytes() > 0) {
        System.out.printf(
            Locale.ROOT,
            "%-26s %8.2f bytes/event%n",
            "token index (Body)",
            per(stats.tokenIndexBytes(), rows));
      }
      System.out.printf(
          Locale.ROOT, "%-26s %8.2f bytes/event%n", "total", per(stats.bytes(), rows));
      if (disk) {
        printFiles(dir, rows);
      }
    } finally {
      if (disk) {
        BenchData.deleteTree(dir);
      }
    }
  }

  /** Every file of a data directory by kind, in bytes per event. */
  private static void printFiles(java.nio.file.Path dir, int rows) throws java.io.IOException {
    java.util.Map<String, Long> byKind = new java.util.TreeMap<>();
    try (var walk = java.nio.file.Files.walk(dir)) {
      for (java.nio.file.Path p : walk.filter(java.nio.file.Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        String kind =
            name.endsWith(".seg")
                ? "segment files"
                : name.endsWith(".log")
                    ? "write-ahead log"
                    : name.startsWith("manifest-") ? "manifests" : "other";
        byKind.merge(kind, java.nio.file.Files.size(p), Long::sum);
      }
    }
    long total = 0;
    for (var e : byKind.entrySet()) {
      System.out.printf(
          Locale.ROOT, "on disk: %-17s %8.2f bytes/event%n", e.getKey(), per(e.getValue(), rows));
      total += e.getValue();
    }
    System.out.printf(Locale.ROOT, "on disk: %-17s %8.2f bytes/event%n", "total", per(total, rows));
  }

  private static Iterator<Event> typical(int rows) {
    SplittableRandom random = new SplittableRandom(42);
    long start = 1_700_000_000_000L;
    long span = 24L * 3600 * 1000;
    return new Iterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < rows;
      }

      @Override
      public Event next() {
        long ts =
            start + (span * i++) / rows + (random.nextInt(100) == 0 ? -random.nextInt(5000) : 0);
        return new Event(
            ts,
            Map.of(
                "ServiceName", SERVICES[skewed(random, SERVICES.length)],
                "SeverityText", LEVELS[skewed(random, LEVELS.length)],
                "http.method", METHODS[skewed(random, METHODS.length)],
                "region", REGIONS[random.nextInt(REGIONS.length)],
                "status", STATUS[skewed(random, STATUS.length)],
                "Duration", Math.exp(random.nextDouble() * 8)));
      }
    };
  }

  private static Iterator<Event> benchLogs(int rows) {
    BenchLogs gen = new BenchLogs(rows, 42);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return gen.hasNext();
      }

      @Override
      public Event next() {
        return gen.next();
      }
    };
  }

  /** Lower indexes are more frequent (roughly geometric). */
  private static int skewed(SplittableRandom random, int n) {
    int i = 0;
    while (i < n - 1 && random.nextInt(3) != 0) {
      i++;
    }
    return i;
  }

  private static double per(long bytes, int rows) {
    return (double) bytes / rows;
  }
}
