package dev.chartwell.prometheus.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import dev.chartwell.prometheus.promql.QueryResult.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The evaluator on small hand-computed cases. */
class EvaluatorTest {
  private static final long M = 60_000;

  /** A series sampled every minute from t=0 with these values. */
  static SeriesData series(Labels labels, double... values) {
    long[] ts = new long[values.length];
    for (int i = 0; i < ts.length; i++) {
      ts[i] = i * M;
    }
    return new SeriesData(labels, ts, values);
  }

  private final Evaluator ev =
      new Evaluator(
          new MemorySeriesSource(
              List.of(
                  series(Labels.of("__name__", "c", "job", "a", "i", "1"), 0, 10, 20, 5, 15, 25),
                  series(Labels.of("__name__", "c", "job", "a", "i", "2"), 1, 2, 3, 4, 5, 6),
                  series(
                      Labels.of("__name__", "c", "job", "b", "i", "1"),
                      100,
                      100,
                      100,
                      100,
                      100,
                      100),
                  series(
                      Labels.of("__name__", "g", "job", "a"), 3, 1, 4, 1, 5, SeriesData.STALE_NAN),
                  series(
                      Labels.of("__name__", "info", "job", "a", "team", "red"), 1, 1, 1, 1, 1, 1),
                  series(
                      Labels.of("__name__", "info", "job", "b", "team", "blue"), 1, 1, 1, 1, 1, 1),
                  series(Labels.of("__name__", "h_bucket", "le", "1"), 0, 10),
                  series(Labels.of("__name__", "h_bucket", "le", "2"), 0, 20),
                  series(Labels.of("__name__", "h_bucket", "le", "+Inf"), 0, 40))),
          EvalSettings.DEFAULTS);

  private Map<Labels, Double> vector(String q, long t) {
    QueryResult r = ev.instant(PromQl.parse(q), t);
    Map<Labels, Double> out = new TreeMap<>();
    for (Sample s : ((QueryResult.Vector) r).samples()) {
      out.put(s.labels(), s.value());
    }
    return out;
  }

  private double one(String q, long t) {
    Map<Labels, Double> v = vector(q, t);
    assertEquals(1, v.size(), () -> q + " -> " + v);
    return v.values().iterator().next();
  }

  @Test
  void instantSelectorUsesLookbackAndStaleness() {
    assertEquals(5.0, one("g", 4 * M + 30_000));
    assertEquals(Map.of(), vector("g", 5 * M), "a staleness marker ends the series");
    assertEquals(4.0, one("g offset 3m", 5 * M));
    assertEquals(3.0, one("g @ 0", 10 * M), "@ pins the time, lookback from there");
    assertEquals(Map.of(), vector("c{i=\"2\"}", 11 * M), "5m after the last sample: gone");
    assertEquals(6.0, one("c{i=\"2\"}", 10 * M), "exactly 5m after: still seen");
  }

  @Test
  void rateExtrapolatesAsPrometheus() {
    // i=2: samples 1..6 at 0..5m; rate over [5m] at t=5m sees all six, 5 min apart in total.
    // increase = 5, sampled 300 s, durationToStart 0, durationToEnd 0 -> 5 / 300 s.
    assertEquals(5.0 / 300, one("rate(c{i=\"2\"}[5m])", 5 * M), 1e-15);
    // At t=5m30s the window [30s, 5m30s] holds 2..6 (4 intervals, 240 s); to the start 30 s,
    // to the zero point 240*(2/4)=120 s: start 30 s; end 30 s; both under 1.1*60: 300 s.
    assertEquals(4.0 * 300 / 240, one("increase(c{i=\"2\"}[5m])", 5 * M + 30_000), 1e-12);
    // A reset: i=1 0,10,20,5,15,25: increase = 25 + 20 = 45 over 0..5m.
    assertEquals(45.0, one("increase(c{i=\"1\",job=\"a\"}[5m])", 5 * M), 1e-12);
    assertEquals(1.0, one("resets(c{i=\"1\",job=\"a\"}[5m])", 5 * M));
    assertEquals(5.0, one("changes(c{i=\"1\",job=\"a\"}[5m])", 5 * M));
    assertEquals(10.0 / 60, one("irate(c{i=\"1\",job=\"a\"}[5m])", 5 * M), 1e-15);
    // [1ms, 3m+1ms] holds 10, 20, 5: the last step is a reset, so irate is 5 / 60 s.
    assertEquals(5.0 / 60, one("irate(c{i=\"1\",job=\"a\"}[3m])", 3 * M + 1), 1e-15);
    assertEquals(10.0, one("idelta(c{i=\"1\",job=\"a\"}[5m])", 5 * M));
    assertEquals(1.0 / 60, one("deriv(c{i=\"2\"}[5m])", 5 * M), 1e-15);
    assertEquals(5.0, one("delta(c{i=\"2\"}[5m])", 5 * M), 1e-12);
  }

  @Test
  void overTimeFunctions() {
    long t = 4 * M;
    assertEquals(2.8, one("avg_over_time(g[5m])", t), 1e-12);
    assertEquals(1.0, one("min_over_time(g[5m])", t));
    assertEquals(5.0, one("max_over_time(g[5m])", t));
    assertEquals(14.0, one("sum_over_time(g[5m])", t));
    assertEquals(5.0, one("count_over_time(g[5m])", t));
    assertEquals(5.0, one("last_over_time(g[5m])", t));
    assertEquals(3.0, one("quantile_over_time(0.5, g[5m])", t));
    assertEquals(Math.sqrt(2.56), one("stddev_over_time(g[5m])", t), 1e-12);
    assertEquals(5.0, one("count_over_time(g[5m])", 5 * M), "the marker is not a sample");
    assertTrue(
        vector("last_over_time(g[5m])", t).containsKey(Labels.of("__name__", "g", "job", "a")));
    assertEquals(
        Map.of(Labels.of("job", "zz"), 1.0), vector("absent_over_time(g{job=\"zz\"}[5m])", t));
    assertEquals(Map.of(), vector("absent_over_time(g[5m])", t));
  }

  @Test
  void aggregations() {
    long t = 2 * M;
    assertEquals(
        Map.of(Labels.of("job", "a"), 23.0, Labels.of("job", "b"), 100.0),
        vector("sum by (job) (c)", t));
    assertEquals(
        Map.of(Labels.of("i", "1"), 120.0, Labels.of("i", "2"), 3.0),
        vector("sum without (job) (c)", t));
    assertEquals(41.0, one("avg(c)", t));
    assertEquals(3.0, one("min(c)", t));
    assertEquals(100.0, one("max(c)", t));
    assertEquals(3.0, one("count(c)", t));
    assertEquals(1.0, one("group(c)", t));
    assertEquals(20.0, one("quantile(0.5, c)", t));
    assertEquals(Math.sqrt((21 * 21 + 38 * 38 + 59 * 59) / 3.0), one("stddev(c)", t), 1e-9);
    assertEquals(
        Map.of(
            Labels.of("__name__", "c", "job", "b", "i", "1"),
            100.0,
            Labels.of("__name__", "c", "job", "a", "i", "1"),
            20.0),
        vector("topk(2, c)", t));
    assertEquals(
        Map.of(Labels.of("__name__", "c", "job", "a", "i", "2"), 3.0), vector("bottomk(1, c)", t));
    assertEquals(Map.of(Labels.of("v", "1"), 2.0), vector("count_values(\"v\", info)", t));
  }

  @Test
  void binaryOperatorsAndMatching() {
    long t = 2 * M;
    assertEquals(
        Map.of(
            Labels.of("job", "a", "i", "1"),
            40.0,
            Labels.of("job", "a", "i", "2"),
            6.0,
            Labels.of("job", "b", "i", "1"),
            200.0),
        vector("c * 2", t));
    assertEquals(
        Map.of(Labels.of("__name__", "c", "job", "b", "i", "1"), 100.0), vector("c > 50", t));
    assertEquals(3, vector("c > bool 50", t).size());
    assertEquals(
        Map.of(
            Labels.of("job", "a", "i", "1", "team", "red"), 20.0,
            Labels.of("job", "a", "i", "2", "team", "red"), 3.0,
            Labels.of("job", "b", "i", "1", "team", "blue"), 100.0),
        vector("c * on(job) group_left(team) info", t));
    assertEquals(
        Map.of(Labels.of("job", "a"), 23.0),
        vector("sum by (job) (c) * on(job) info{team=\"red\"}", t));
    PromQlException e = assertThrows(PromQlException.class, () -> vector("c * on(job) c", t));
    assertEquals(PromQlException.Kind.EXECUTION, e.kind());
    assertTrue(e.getMessage().contains("many-to-many matching not allowed"), e.getMessage());
    assertEquals(2, vector("c and on(job) info{team=\"red\"}", t).size());
    assertEquals(1, vector("c unless on(job) info{team=\"red\"}", t).size());
    assertEquals(4, vector("c or g", t).size());
    assertEquals(Map.of(Labels.of("job", "a"), 16.0), vector("g ^ 2", t));
  }

  @Test
  void functionsOfInstantVectors() {
    long t = 2 * M;
    assertEquals(Map.of(Labels.of("job", "a"), 4.0), vector("clamp_max(g, 10)", t));
    assertEquals(2.0, one("sqrt(g)", t));
    assertEquals(120.0, one("timestamp(g)", t + 30_000));
    assertEquals(150.0, one("timestamp(g * 1)", t + 30_000));
    assertEquals(Map.of(Labels.EMPTY, 4.0), vector("vector(scalar(g))", t));
    assertEquals(
        Labels.of("__name__", "g", "job", "a", "x", "a-a"),
        vector("label_replace(g, \"x\", \"$1-${1}\", \"job\", \"(.*)\")", t)
            .keySet()
            .iterator()
            .next());
    assertEquals(
        Labels.of("__name__", "g", "job", "a", "x", "a,g"),
        vector("label_join(g, \"x\", \",\", \"job\", \"__name__\")", t).keySet().iterator().next());
    assertThrows(
        PromQlException.class,
        () -> vector("label_replace(c, \"i\", \"x\", \"i\", \".*\")", t),
        "duplicate series after label_replace");
    assertEquals(Map.of(Labels.of("job", "nope"), 1.0), vector("absent(g{job=\"nope\"})", t));
    // rank 20 of 40 falls at the top of the (1, 2] bucket (10 observations, 10..20).
    assertEquals(2.0, one("histogram_quantile(0.5, h_bucket)", M), 1e-12);
    assertEquals(1.5, one("histogram_quantile(0.375, h_bucket)", M), 1e-12);
    QueryResult.Vector sorted = (QueryResult.Vector) ev.instant(PromQl.parse("sort_desc(c)"), t);
    List<Double> values = new ArrayList<>();
    sorted.samples().forEach(s -> values.add(s.value()));
    assertEquals(List.of(100.0, 20.0, 3.0), values);
  }

  @Test
  void rangeQueries() {
    QueryResult.Matrix m = (QueryResult.Matrix) ev.range(PromQl.parse("sum(c)"), 0, 5 * M, M);
    assertEquals(1, m.series().size());
    assertEquals(6, m.series().get(0).size());
    assertEquals(101.0, m.series().get(0).values()[0]);
    QueryResult.Matrix s = (QueryResult.Matrix) ev.range(PromQl.parse("time()"), 0, 2 * M, M);
    assertEquals(Labels.EMPTY, s.series().get(0).labels());
    assertEquals(120.0, s.series().get(0).values()[2]);
    QueryResult.Matrix g = (QueryResult.Matrix) ev.range(PromQl.parse("g"), 0, 10 * M, M);
    assertEquals(5, g.series().get(0).size(), "the staleness marker ends the series at 5m");
  }

  @Test
  void limitsAndCancellation() {
    Evaluator small =
        new Evaluator(
            new MemorySeriesSource(List.of(series(Labels.of("__name__", "x"), 1, 2, 3))),
            new EvalSettings(EvalSettings.DEFAULT_LOOKBACK_MS, 2, () -> false));
    PromQlException e =
        assertThrows(PromQlException.class, () -> small.instant(PromQl.parse("x"), 2 * M));
    assertEquals(PromQlException.Kind.EXECUTION, e.kind());
    Evaluator cancelled =
        new Evaluator(
            new MemorySeriesSource(List.of()),
            new EvalSettings(EvalSettings.DEFAULT_LOOKBACK_MS, 10, () -> true));
    assertEquals(
        PromQlException.Kind.TIMEOUT,
        assertThrows(PromQlException.class, () -> cancelled.instant(PromQl.parse("x"), 0)).kind());
  }

  @Test
  void docsExample() {
    SeriesSource source =
        new MemorySeriesSource(
            List.of(
                series(Labels.of("__name__", "http_requests_total", "job", "api"), 0, 60, 120)));
    long startMs = 2 * M;
    long endMs = 2 * M;
    // As docs/promql.md shows it:
    Expr expr = PromQl.parse("sum by (job) (rate(http_requests_total[5m]))");
    Evaluator evaluator = new Evaluator(source, EvalSettings.DEFAULTS);
    QueryResult result = evaluator.range(expr, startMs, endMs, 60_000);
    SeriesData only = ((QueryResult.Matrix) result).series().get(0);
    assertEquals(Labels.of("job", "api"), only.labels());
    // 120 more over the two minutes sampled (no extrapolation past the counter's zero), per 300 s.
    assertEquals(0.4, only.values()[0], 1e-12);
  }

  /**
   * The sample limit counts every series a selection loads, also when the source makes each series
   * only as the evaluator comes to it: the 13 samples of {@code c} (a 10 minute lookback or range
   * reads all) pass a limit of 13 and fail one of 12, whichever function reads them.
   */
  @Test
  void theSampleLimitCountsEverySeriesLoaded() {
    SeriesSource source =
        new MemorySeriesSource(
            List.of(
                series(Labels.of("__name__", "c", "i", "1"), 0, 10, 20, 5, 15, 25),
                series(Labels.of("__name__", "c", "i", "2"), 1, 2, 3, 4, 5, 6, 7)));
    for (String q : List.of("c", "rate(c[10m])", "c[10m]")) {
      Expr expr = PromQl.parse(q);
      new Evaluator(source, new EvalSettings(10 * M, 13, () -> false)).instant(expr, 6 * M);
      PromQlException e =
          assertThrows(
              PromQlException.class,
              () ->
                  new Evaluator(source, new EvalSettings(10 * M, 12, () -> false))
                      .instant(expr, 6 * M),
              q);
      assertTrue(e.getMessage().contains("too many samples"), e.getMessage());
    }
  }
}
