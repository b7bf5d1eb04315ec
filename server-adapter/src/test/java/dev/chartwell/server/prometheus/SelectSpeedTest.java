package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.EvalSettings;
import dev.chartwell.prometheus.promql.Evaluator;
import dev.chartwell.prometheus.promql.Expr;
import dev.chartwell.prometheus.promql.PromQl;
import dev.chartwell.prometheus.promql.QueryResult;
import dev.chartwell.prometheus.remote.RemoteWrite;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store path of the benchmark: 1,000 series of 24 h of 15 s samples (5,760 each) remote
 * written, then selected by name over the whole day, and the query {@code sum by (job)
 * (rate(x[5m]))} evaluated over it in process. A measurement, run on request only: {@code mvn -pl
 * server-adapter test -Dtest=SelectSpeedTest -Dchartwell.speed=true} (it prints the times).
 */
class SelectSpeedTest {
  static final long T0 = 1_767_225_600_000L;

  @TempDir Path dir;

  @Test
  void selectsOneThousandSeriesOfADay() throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("chartwell.speed"), "-Dchartwell.speed=true runs it");
    int series = Integer.getInteger("chartwell.speed.series", 1000);
    int samples = 5760;
    try (MetricStores stores = new MetricStores(dir)) {
      Tenants tenants = stores.tenants();
      RemoteWriteRoute route =
          new RemoteWriteRoute(tenants, () -> T0, new PromMeters(new SimpleMeterRegistry()));
      long ingestStart = System.nanoTime();
      for (int from = 0; from < samples; from += 240) { // one hour of all series per request
        List<RemoteWrite.TimeSeries> batch = new ArrayList<>();
        for (int s = 0; s < series; s++) {
          long[] t = new long[240];
          double[] v = new double[240];
          for (int i = 0; i < 240; i++) {
            t[i] = T0 + (from + i) * 15_000L;
            v[i] = (from + i) * (s % 7 + 1);
          }
          batch.add(
              new RemoteWrite.TimeSeries(
                  Labels.of("__name__", "x", "job", "j" + s % 10, "instance", "i" + s), t, v));
        }
        route.ingest("w", new RemoteWrite.Request(batch, List.of()));
      }
      long ingestNanos = System.nanoTime() - ingestStart;
      MetricStore store = tenants.reading("w").store();
      List<LabelMatcher> x = List.of(new LabelMatcher(Labels.NAME, LabelMatcher.Type.EQUAL, "x"));
      long best = Long.MAX_VALUE;
      long bestCpu = Long.MAX_VALUE;
      var threads = java.lang.management.ManagementFactory.getThreadMXBean();
      for (int run = 0; run < 5; run++) {
        long start = System.nanoTime();
        long cpu = threads.getCurrentThreadCpuTime();
        List<SeriesData> got = store.select(x, T0 - 300_000, T0 + samples * 15_000L);
        long read = 0;
        for (SeriesData s : got) { // each series is joined when asked for
          read += s.size();
        }
        best = Math.min(best, System.nanoTime() - start);
        bestCpu = Math.min(bestCpu, threads.getCurrentThreadCpuTime() - cpu);
        assertEquals(series, got.size());
        assertEquals((long) series * samples, read);
      }
      Evaluator evaluator = new Evaluator(store, EvalSettings.DEFAULTS);
      Expr query = PromQl.parse("sum by (job) (rate(x[5m]))");
      long queryCpu = Long.MAX_VALUE;
      // the process's CPU: a large range function shares its series with a helper thread
      var process =
          (com.sun.management.OperatingSystemMXBean)
              java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      for (int run = 0; run < 5; run++) {
        long cpu = process.getProcessCpuTime();
        QueryResult r = evaluator.range(query, T0, T0 + samples * 15_000L, 60_000);
        queryCpu = Math.min(queryCpu, process.getProcessCpuTime() - cpu);
        assertEquals(10, ((QueryResult.Matrix) r).series().size());
      }
      System.out.printf(
          Locale.ROOT,
          "SelectSpeedTest: sum by (job) (rate(x[5m])) at 1 m steps over the day, in process:"
              + " process CPU best of 5 %.0f ms%n",
          queryCpu / 1e6);
      System.out.printf(
          Locale.ROOT,
          "SelectSpeedTest: %d series x %d samples: ingest %.1f s (%.0f ns/sample), select best of"
              + " 5 %.0f ms (%.1f ns/sample), CPU %.0f ms (%.1f ns/sample)%n",
          series,
          samples,
          ingestNanos / 1e9,
          ingestNanos / (double) (series * (long) samples),
          best / 1e6,
          best / (double) (series * (long) samples),
          bestCpu / 1e6,
          bestCpu / (double) (series * (long) samples));
    }
  }
}
