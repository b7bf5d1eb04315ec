package dev.chartwell.bench;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How long a restart takes with the {@code bench-logs} data set on disk: opening the data directory
 * (manifests read, segment files mapped, logs replayed), the first answer of Q1 over the last hour
 * and over all 24 hours (which verifies every segment file it reads first), and the background
 * verification of every file. Run: {@code java -cp benchmarks/target/chartwell-bench.jar
 * dev.chartwell.bench.RestartTime ROWS DIR [UNSEALED]} (loads DIR first unless it holds the data
 * set). With UNSEALED, that many more events are appended before the restart and left in the head
 * (not sealed), so the restart replays them from the write-ahead log; they are dropped again
 * afterwards, so that DIR still holds just the data set.
 */
public final class RestartTime {
  private RestartTime() {}

  /**
   * @param args rows and the data directory
   */
  public static void main(String[] args) throws Exception {
    int rows = Integer.parseInt(args[0]);
    Path dir = Path.of(args[1]);
    int unsealed = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    try (Engine loaded = BenchData.onDisk(dir, rows, FsyncPolicy.REQUEST).engine()) {
      if (unsealed > 0) {
        loaded.createSource(
            new dev.chartwell.engine.SourceSpec(
                "unsealed",
                "unsealed",
                dev.chartwell.engine.SourceKind.LOG,
                "Timestamp",
                "Body",
                "Body",
                List.of()));
        dev.chartwell.engine.Source head = loaded.source("unsealed").orElseThrow();
        BenchLogs gen = new BenchLogs(unsealed, 7);
        List<dev.chartwell.engine.Event> batch = new java.util.ArrayList<>();
        while (gen.hasNext()) {
          batch.add(gen.next());
          if (batch.size() == 10_000 || !gen.hasNext()) {
            head.appendBatch(batch);
            batch.clear();
          }
        }
      }
    }
    CountDownLatch verified = new CountDownLatch(1);
    long t0 = System.nanoTime();
    Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .reporter(
                line -> {
                  System.out.println("engine: " + line);
                  if (line.startsWith("verified the segment files found at start")) {
                    verified.countDown();
                  }
                })
            .build();
    long opened = System.nanoTime();
    long lastHour = count(engine, BenchLogs.END - 3_600_000L, BenchLogs.END);
    long firstAnswer = System.nanoTime();
    long all = count(engine, BenchLogs.END - BenchLogs.SPAN, BenchLogs.END);
    long fullAnswer = System.nanoTime();
    verified.await(10, TimeUnit.MINUTES);
    long done = System.nanoTime();
    System.gc();
    java.lang.management.MemoryUsage heap =
        java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    int segments = (int) engine.source(BenchData.SOURCE).orElseThrow().stats().segments();
    System.out.printf(
        Locale.ROOT,
        "heap in use after a full collection: %,d MB with %,d segment files mapped (%,d MB of"
            + " files; the heap's maximum is %,d MB)%n",
        heap.getUsed() >> 20,
        segments,
        engine.diskBytes() >> 20,
        heap.getMax() >> 20);
    System.out.printf(
        Locale.ROOT,
        "%,d events: opened in %.2f s; first answer (Q1, last hour, %,d errors) at %.2f s;"
            + " Q1 over 24 h (%,d errors) at %.2f s; every file verified at %.2f s%n",
        rows,
        (opened - t0) / 1e9,
        lastHour,
        (firstAnswer - t0) / 1e9,
        all,
        (fullAnswer - t0) / 1e9,
        (done - t0) / 1e9);
    engine.dropSource("unsealed");
    engine.close();
  }

  private static long count(Engine engine, long start, long end) {
    ChartResult r =
        engine.query(
            new ChartQuery(
                start,
                end,
                Granularity.named("1m").orElseThrow(),
                List.of(Series.of(BenchData.SOURCE, AggFn.COUNT, null, "SeverityText:error")),
                null));
    long sum = 0;
    for (ChartResult.Row row : r.rows()) {
      sum += row.values().get(0).longValue();
    }
    return sum;
  }
}
