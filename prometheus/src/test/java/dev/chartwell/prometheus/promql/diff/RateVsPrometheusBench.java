package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.QueryResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Not part of the test suite (the name matches no surefire include): {@code sum by (job)
 * (rate(x[5m]))} over 1,000 counters × 24 h of 15 s samples at 1 m steps, our evaluator in process
 * against Debian's Prometheus loaded through remote write, side by side. Run with
 *
 * <pre>
 * mvn -B -pl prometheus -am test -Dtest=RateVsPrometheusBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
class RateVsPrometheusBench {
  static final String QUERY = "sum by (job) (rate(x[5m]))";
  static final int SERIES = 1000;
  public static final long SCRAPE = 15_000;
  static final int RUNS = 9;

  static List<SeriesData> data(long start, int scrapes) {
    Random r = new Random(7);
    List<SeriesData> out = new ArrayList<>();
    for (int s = 0; s < SERIES; s++) {
      long[] ts = new long[scrapes];
      double[] v = new double[scrapes];
      double c = 0;
      long phase = r.nextInt((int) SCRAPE);
      for (int k = 0; k < scrapes; k++) {
        ts[k] = start + k * SCRAPE + phase;
        c = r.nextInt(2000) == 0 ? 0 : c + r.nextInt(100);
        v[k] = c;
      }
      out.add(
          new SeriesData(
              Labels.of("__name__", "x", "job", "j" + s % 10, "instance", "i" + s), ts, v));
    }
    return out;
  }

  static double medianMs(List<Long> nanos) {
    long[] a = nanos.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(a);
    return a[a.length / 2] / 1e6;
  }

  static double bestMs(List<Long> nanos) {
    return nanos.stream().mapToLong(Long::longValue).min().getAsLong() / 1e6;
  }

  @Test
  void sideBySide() throws Exception {
    long now = System.currentTimeMillis() / 60_000 * 60_000;
    int scrapes = (int) (24 * 3600_000L / SCRAPE);
    long start = now - scrapes * SCRAPE;
    List<SeriesData> data = data(start, scrapes);
    long qStart = start + 10 * 60_000;
    long qEnd = now - 60_000;
    InProcessTarget ours = new InProcessTarget(new MemorySeriesSource(data));
    for (int i = 0; i < 10; i++) {
      ours.range(QUERY, qStart, qEnd, 60_000); // warm-up
    }
    List<Long> ourTimes = new ArrayList<>();
    QueryResult ourResult = null;
    for (int i = 0; i < RUNS; i++) {
      long t0 = System.nanoTime();
      ourResult = ours.range(QUERY, qStart, qEnd, 60_000);
      ourTimes.add(System.nanoTime() - t0);
    }
    System.out.printf(
        "BENCH ours in-process: median %.1f ms, best %.1f ms of %d runs (%d series x %d samples,"
            + " %d steps)%n",
        medianMs(ourTimes), bestMs(ourTimes), RUNS, SERIES, scrapes, (qEnd - qStart) / 60_000 + 1);
    Assumptions.assumeTrue(PrometheusProcess.available(), "no prometheus binary: ours only");
    try (PrometheusProcess prometheus = new PrometheusProcess()) {
      long t0 = System.nanoTime();
      long slice = 10 * 60_000;
      for (long from = start; from <= now; from += slice) {
        prometheus.write(HourOfSamples.slice(data, from, from + slice));
      }
      System.out.printf(
          "BENCH remote write of %d samples: %.1f s%n",
          (long) SERIES * scrapes, (System.nanoTime() - t0) / 1e9);
      PrometheusApiTarget theirs = new PrometheusApiTarget(prometheus.base);
      QueryResult theirResult = null;
      for (int i = 0; i < 5; i++) {
        theirResult = theirs.range(QUERY, qStart, qEnd, 60_000); // warm-up
      }
      List<Long> theirTimes = new ArrayList<>();
      for (int i = 0; i < RUNS; i++) {
        long t1 = System.nanoTime();
        theirs.range(QUERY, qStart, qEnd, 60_000);
        theirTimes.add(System.nanoTime() - t1);
      }
      double o = medianMs(ourTimes);
      double p = medianMs(theirTimes);
      System.out.printf(
          "BENCH prometheus 2.42 (HTTP, JSON): median %.1f ms, best %.1f ms; ours median %.1f ms,"
              + " best %.1f ms; ratio of medians %.1fx, of bests %.1fx%n",
          p, bestMs(theirTimes), o, bestMs(ourTimes), p / o, bestMs(theirTimes) / bestMs(ourTimes));
      System.out.println(
          "BENCH same series: "
              + (((QueryResult.Matrix) theirResult).series().size()
                  == ((QueryResult.Matrix) ourResult).series().size()));
    }
  }
}
