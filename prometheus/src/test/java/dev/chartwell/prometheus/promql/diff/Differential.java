package dev.chartwell.prometheus.promql.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.QueryResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The differential comparison: the expressions, the times and steps they run at over a {@link
 * HourOfSamples} span, and the rule two answers must meet (same result type, label sets and
 * timestamps; values equal or within 1e-9 relative). The reference (a real Prometheus) answers each
 * query once; every other target must agree with it.
 */
public final class Differential {
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
          "increase(dt_requests_total[10m] @ start() offset -5m)",
          // NaN and infinities as values; a counter's staleness marker
          "dt_special",
          "dt_special > 0",
          "max_over_time(dt_special[2m])",
          "sum_over_time(dt_special[1m])",
          "count_over_time(dt_requests_total{job=\"db\", instance=\"i2\"}[1m])");

  private Differential() {}

  /** What a run found for one target. */
  public record Outcome(int comparisons, List<String> failures) {}

  /**
   * Runs every expression through the reference and the targets as two range queries (60 s steps,
   * and 37 s steps from an odd millisecond) and three instant queries, then a raw range selector.
   *
   * @param reference the real Prometheus
   * @param targets the targets held to it, by name
   * @param start the first sample time of the {@link HourOfSamples} span (58 minutes long)
   * @return each target's outcome, by name
   */
  public static Map<String, Outcome> run(
      QueryTarget reference, Map<String, QueryTarget> targets, long start) {
    long from = start + 15 * 60_000;
    long to = start + 57 * 60_000;
    Map<String, List<String>> failures = new LinkedHashMap<>();
    targets.keySet().forEach(name -> failures.put(name, new ArrayList<>()));
    int comparisons = 0;
    List<Query> queries = new ArrayList<>();
    for (String q : EXPRESSIONS) {
      queries.add(new Query(q, q + " range 60s", t -> t.range(q, from, to, 60_000)));
      queries.add(new Query(q, q + " range 37s", t -> t.range(q, from + 1234, to, 37_000)));
      for (long at :
          new long[] {
            start + 20 * 60_000 + 7_000, start + 33 * 60_000, start + 45 * 60_000 + 500
          }) {
        queries.add(new Query(q, q + " at " + at, t -> t.instant(q, at)));
      }
    }
    queries.add(new Query("x", "raw range selector", t -> t.instant("dt_temperature[2m]", to)));
    for (Query query : queries) {
      QueryResult expected;
      try {
        expected = query.run.ask(reference);
      } catch (Exception e) {
        throw new IllegalStateException("the reference failed " + query.what, e);
      }
      comparisons++;
      for (var t : targets.entrySet()) {
        try {
          compare(query.what, expected, query.run.ask(t.getValue()), query.expression);
        } catch (AssertionError | Exception e) {
          failures.get(t.getKey()).add(e.getMessage());
        }
      }
    }
    Map<String, Outcome> out = new LinkedHashMap<>();
    for (var e : failures.entrySet()) {
      out.put(e.getKey(), new Outcome(comparisons, e.getValue()));
    }
    return out;
  }

  private interface Ask {
    QueryResult ask(QueryTarget target) throws Exception;
  }

  private record Query(String expression, String what, Ask run) {}

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
