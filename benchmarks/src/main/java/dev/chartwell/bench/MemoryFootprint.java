package dev.chartwell.bench;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.source.Event;
import dev.chartwell.engine.source.Source;
import dev.chartwell.engine.source.SourceKind;
import dev.chartwell.engine.source.SourceSpec;
import dev.chartwell.engine.source.SourceStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Bytes per event of a typical log event (time, four low-cardinality strings, a status code, a
 * double), by column, after sealing. Run: {@code java -cp benchmarks/target/chartwell-bench.jar
 * dev.chartwell.bench.MemoryFootprint [rows]}.
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
   * @param args optional row count (default 2,000,000)
   */
  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    try (Engine engine = Engine.builder().build()) {
      Source source =
          engine.createSource(
              new SourceSpec(null, "typical", SourceKind.LOG, "Timestamp", null, null, List.of()));
      SplittableRandom random = new SplittableRandom(42);
      long start = 1_700_000_000_000L;
      long span = 24L * 3600 * 1000;
      List<Event> batch = new ArrayList<>(10_000);
      for (int i = 0; i < rows; i++) {
        long ts =
            start + (span * i) / rows + (random.nextInt(100) == 0 ? -random.nextInt(5000) : 0);
        batch.add(
            new Event(
                ts,
                Map.of(
                    "ServiceName", SERVICES[skewed(random, SERVICES.length)],
                    "SeverityText", LEVELS[skewed(random, LEVELS.length)],
                    "http.method", METHODS[skewed(random, METHODS.length)],
                    "region", REGIONS[random.nextInt(REGIONS.length)],
                    "status", STATUS[skewed(random, STATUS.length)],
                    "Duration", Math.exp(random.nextDouble() * 8))));
        if (batch.size() == 10_000) {
          source.appendBatch(batch);
          batch.clear();
        }
      }
      source.appendBatch(batch);
      source.seal();
      SourceStats stats = source.stats();
      System.out.printf(Locale.ROOT, "rows %,d in %d segments%n", stats.rows(), stats.segments());
      System.out.printf(
          Locale.ROOT, "%-14s %8.2f bytes/event%n", "Timestamp", per(stats.timestampBytes(), rows));
      for (SourceStats.ColumnBytes c : stats.columns()) {
        System.out.printf(Locale.ROOT, "%-14s %8.2f bytes/event%n", c.name(), per(c.bytes(), rows));
      }
      System.out.printf(
          Locale.ROOT, "%-14s %8.2f bytes/event%n", "total", per(stats.bytes(), rows));
    }
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
