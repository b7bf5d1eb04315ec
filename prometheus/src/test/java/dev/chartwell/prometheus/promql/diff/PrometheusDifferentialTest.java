package dev.chartwell.prometheus.promql.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.QueryResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same generated hour of samples pushed to a real Prometheus (remote write) and held by our
 * evaluator; every expression runs through both as range and instant queries, and the answers must
 * agree: same label sets, same timestamps, values equal or within 1e-9 relative. Skips (loudly)
 * when {@code /usr/bin/prometheus} is missing.
 */
public class PrometheusDifferentialTest {
  public static final List<String> EXPRESSIONS =
      List.of(
          // selectors, all four matchers, offset and @
          "dt_temperature",
          "dt_requests_total{code=\"200\"}",
          "dt_requests_total{code!=\"200\", job=\"api\"}",
          "dt_requests_total{instance=~\"i[01]\"}",
          "dt_requests_total{instance!~\"i0|i2\", code=\"500\"}",
          "{__name__=~\"dt_temp.*\"}",
          "dt_temperature offset 5m",
          "dt_temperature @ start()",
          "dt_temperature @ end() offset 2m",
          // counters and gauges over ranges
          "rate(dt_requests_total[5m])",
          "irate(dt_requests_total[5m])",
          "increase(dt_requests_total[10m])",
          "rate(dt_requests_total[5m] offset 10m)",
          "delta(dt_temperature[10m])",
          "idelta(dt_temperature[5m])",
          "deriv(dt_temperature[10m])",
          "resets(dt_requests_total[15m])",
          "changes(dt_temperature[15m])",
          "avg_over_time(dt_temperature[5m])",
          "min_over_time(dt_temperature[5m])",
          "max_over_time(dt_temperature[5m])",
          "sum_over_time(dt_temperature[5m])",
          "count_over_time(dt_temperature[10m])",
          "last_over_time(dt_temperature[5m])",
          "quantile_over_time(0.3, dt_temperature[10m])",
          "stddev_over_time(dt_temperature[10m])",
          "sum_over_time(dt_temperature[5m] @ start())",
          "absent_over_time(dt_temperature{job=\"nope\"}[5m])",
          "absent_over_time(dt_temperature{instance=\"i2\"}[1m])",
          // aggregations
          "sum(dt_requests_total)",
          "sum by (job) (rate(dt_requests_total[5m]))",
          "sum without (instance, code) (rate(dt_requests_total[5m]))",
          "avg by (job) (dt_temperature)",
          "min by (job) (dt_temperature)",
          "max(dt_temperature)",
          "count by (code) (dt_requests_total)",
          "stddev by (job) (dt_temperature)",
          "topk(2, dt_temperature)",
          "bottomk(1, rate(dt_requests_total[5m]))",
          "quantile(0.75, dt_temperature)",
          "count_values(\"v\", round(dt_temperature))",
          "group by (job) (dt_requests_total)",
          // operators and vector matching
          "dt_requests_total * 2",
          "2 - dt_temperature",
          "dt_temperature / 3 + 1",
          "dt_temperature % 7",
          "dt_temperature ^ 2",
          "dt_temperature > 20",
          "dt_temperature <= bool 20",
          "dt_temperature != bool 20",
          "1 + 2 * 3 ^ 2",
          "rate(dt_requests_total[5m]) / ignoring(code) group_left sum without (code) (rate(dt_requests_total[5m]))",
          "dt_temperature * on(job) group_left(team) dt_info",
          "dt_info * on(job) group_right(team) dt_temperature",
          "dt_temperature and on(job) dt_info{team=\"red\"}",
          "dt_temperature or dt_info",
          "dt_requests_total unless on(instance, job) dt_temperature > 20",
          "sum by (job) (dt_temperature) - on(job) max by (job) (dt_temperature)",
          "dt_temperature - dt_temperature offset 5m",
          "-dt_temperature",
          // histograms
          "histogram_quantile(0.9, sum by (le) (rate(dt_latency_seconds_bucket[5m])))",
          "histogram_quantile(0.5, rate(dt_latency_seconds_bucket[10m]))",
          "rate(dt_latency_seconds_sum[5m]) / rate(dt_latency_seconds_count[5m])",
          // functions
          "abs(dt_temperature - 20)",
          "ceil(dt_temperature)",
          "floor(dt_temperature)",
          "round(dt_temperature, 0.5)",
          "clamp_min(dt_temperature, 20)",
          "clamp_max(dt_temperature, 20)",
          "exp(dt_temperature / 10)",
          "ln(dt_temperature)",
          "log2(dt_temperature)",
          "log10(dt_temperature)",
          "sqrt(dt_temperature)",
          "timestamp(dt_temperature)",
          "vector(1)",
          "scalar(sum(dt_temperature))",
          "time()",
          "label_replace(dt_temperature, \"host\", \"$1\", \"instance\", \"i(.*)\")",
          "label_join(dt_temperature, \"both\", \"/\", \"job\", \"instance\")",
          "sort(dt_temperature)",
          "sort_desc(dt_temperature)",
          "absent(dt_temperature{job=\"nope\"})",
          "absent(dt_temperature)",
          "clamp(dt_temperature, 18, 22)",
          "sgn(dt_temperature - 20)",
          "stdvar by (job) (dt_temperature)",
          "stdvar_over_time(dt_temperature[10m])",
          "present_over_time(dt_temperature[5m])",
          "dt_temperature atan2 on(job, instance) (dt_temperature offset 1m)",
          "rate(dt_requests_total[5m] @ end())",
          "increase(dt_requests_total[10m] @ start() offset -5m)");

  private static PrometheusProcess prometheus;
  private static QueryTarget reference;
  private static QueryTarget ours;
  private static long start;

  @BeforeAll
  static void load() throws Exception {
    if (!PrometheusProcess.available()) {
      System.err.println(
          "SKIPPED PrometheusDifferentialTest: no "
              + PrometheusProcess.BINARY
              + " (apt-get install prometheus)");
      return;
    }
    long now = System.currentTimeMillis();
    int scrapes = 58 * 4;
    start = (now - scrapes * HourOfSamples.SCRAPE) / HourOfSamples.SCRAPE * HourOfSamples.SCRAPE;
    List<SeriesData> data = HourOfSamples.generate(42, start, scrapes);
    prometheus = new PrometheusProcess();
    long slice = 5 * 60_000;
    for (long from = start; from < start + scrapes * HourOfSamples.SCRAPE + 1000; from += slice) {
      prometheus.write(HourOfSamples.slice(data, from, from + slice));
    }
    reference = new PrometheusApiTarget(prometheus.base);
    ours = new InProcessTarget(new MemorySeriesSource(data));
  }

  @AfterAll
  static void stop() throws Exception {
    if (prometheus != null) {
      prometheus.close();
    }
  }

  @Test
  void everyExpressionAgreesWithPrometheus() throws Exception {
    Assumptions.assumeTrue(prometheus != null, "prometheus binary missing");
    assertTrue(EXPRESSIONS.size() >= 60);
    long from = start + 15 * 60_000;
    long to = start + 57 * 60_000;
    List<String> failures = new ArrayList<>();
    int comparisons = 0;
    for (String q : EXPRESSIONS) {
      try {
        compare(
            q + " range 60s",
            reference.range(q, from, to, 60_000),
            ours.range(q, from, to, 60_000),
            q);
        compare(
            q + " range 37s",
            reference.range(q, from + 1234, to, 37_000),
            ours.range(q, from + 1234, to, 37_000),
            q);
        for (long t :
            new long[] {
              start + 20 * 60_000 + 7_000, start + 33 * 60_000, start + 45 * 60_000 + 500
            }) {
          compare(q + " at " + t, reference.instant(q, t), ours.instant(q, t), q);
        }
        comparisons += 5;
      } catch (AssertionError | RuntimeException e) {
        failures.add(e.getMessage());
      }
    }
    compare(
        "raw range selector",
        reference.instant("dt_temperature[2m]", to),
        ours.instant("dt_temperature[2m]", to),
        "x");
    System.out.println(
        "PrometheusDifferentialTest: "
            + EXPRESSIONS.size()
            + " expressions, "
            + comparisons
            + " comparisons, "
            + failures.size()
            + " failed");
    assertEquals(List.of(), failures);
  }

  /**
   * Asserts two answers agree: label sets, timestamps, values (1e-9 relative); value order for
   * sort.
   */
  public static void compare(String what, QueryResult expected, QueryResult actual, String q) {
    assertEquals(expected.resultType(), actual.resultType(), what + ": result type");
    if (expected instanceof QueryResult.Scalar e) {
      QueryResult.Scalar a = (QueryResult.Scalar) actual;
      assertEquals(e.timeMs(), a.timeMs(), what);
      close(what, e.value(), a.value());
    } else if (expected instanceof QueryResult.Vector e) {
      List<QueryResult.Sample> ev = new ArrayList<>(e.samples());
      List<QueryResult.Sample> av = new ArrayList<>(((QueryResult.Vector) actual).samples());
      if (q.startsWith("sort")) {
        for (int i = 0; i < Math.min(ev.size(), av.size()); i++) {
          close(what + " order " + i, ev.get(i).value(), av.get(i).value());
        }
      }
      ev.sort(Comparator.comparing(QueryResult.Sample::labels));
      av.sort(Comparator.comparing(QueryResult.Sample::labels));
      assertEquals(
          ev.stream().map(QueryResult.Sample::labels).toList(),
          av.stream().map(QueryResult.Sample::labels).toList(),
          what + ": label sets");
      for (int i = 0; i < ev.size(); i++) {
        assertEquals(ev.get(i).timeMs(), av.get(i).timeMs(), what);
        close(what + " " + ev.get(i).labels(), ev.get(i).value(), av.get(i).value());
      }
    } else if (expected instanceof QueryResult.Matrix e) {
      Map<Labels, SeriesData> em = byLabels(e.series());
      Map<Labels, SeriesData> am = byLabels(((QueryResult.Matrix) actual).series());
      assertEquals(em.keySet(), am.keySet(), what + ": label sets");
      for (Labels l : em.keySet()) {
        SeriesData es = em.get(l);
        SeriesData as = am.get(l);
        assertEquals(
            java.util.Arrays.toString(es.timestamps()),
            java.util.Arrays.toString(as.timestamps()),
            what + " " + l + ": timestamps");
        for (int i = 0; i < es.size(); i++) {
          close(what + " " + l + " @" + es.timestamps()[i], es.values()[i], as.values()[i]);
        }
      }
    } else {
      assertEquals(expected, actual, what);
    }
  }

  private static Map<Labels, SeriesData> byLabels(List<SeriesData> series) {
    Map<Labels, SeriesData> m = new TreeMap<>();
    series.forEach(s -> m.put(s.labels(), s));
    return m;
  }

  private static void close(String what, double expected, double actual) {
    if (Double.isNaN(expected) && Double.isNaN(actual)) {
      return;
    }
    if (expected == actual) {
      return;
    }
    double tolerance = 1e-9 * Math.max(Math.abs(expected), Math.abs(actual));
    assertTrue(
        Math.abs(expected - actual) <= tolerance,
        what + ": expected " + expected + " but was " + actual);
  }
}
