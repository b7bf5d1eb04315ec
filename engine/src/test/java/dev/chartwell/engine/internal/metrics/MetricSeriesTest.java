package dev.chartwell.engine.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.WhereLanguage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Metric series over tables shaped like the OpenTelemetry ClickHouse exporter's, each expected
 * value worked out by hand in the comments (the same examples as docs/chart-api.md).
 */
class MetricSeriesTest {
  /** A minute boundary; buckets are one minute. */
  private static final long T = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  private static final Granularity MINUTE = Granularity.named("1m").orElseThrow();

  private final Engine engine = Engine.builder().segmentRows(3).workerThreads(2).build();

  @AfterEach
  void close() {
    engine.close();
  }

  private void table(String id, List<Map<String, Object>> points) {
    Source s =
        engine.createSource(
            new SourceSpec(id, id, SourceKind.METRIC, "TimeUnix", null, null, List.of()));
    List<Event> batch = new ArrayList<>();
    for (Map<String, Object> p : points) {
      Map<String, Object> fields = new LinkedHashMap<>(p);
      long ts = (Long) fields.remove("TimeUnix");
      batch.add(new Event(ts, fields));
    }
    assertEquals(points.size(), s.appendBatch(batch).accepted());
  }

  private static Map<String, Object> point(
      String name, long ts, String host, Object value, Object... more) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("MetricName", name);
    m.put("TimeUnix", ts);
    m.put("ServiceName", "api");
    if (host != null) {
      m.put("Attributes.host", host);
    }
    if (value != null) {
      m.put("Value", value);
    }
    for (int i = 0; i < more.length; i += 2) {
      m.put((String) more[i], more[i + 1]);
    }
    return m;
  }

  private static Series metric(
      String table, AggFn fn, Double level, String name, MetricType type, List<String> groupBy) {
    return new Series(
        table, fn, null, level, "", WhereLanguage.LUCENE, groupBy, new MetricSpec(name, type));
  }

  private ChartResult run(long start, long end, Series... series) {
    return engine.query(
        new ChartQuery(start, end, MINUTE, List.of(series), SeriesReturnType.COLUMN));
  }

  private static List<String> rows(ChartResult r) {
    return r.rows().stream()
        .map(x -> (x.bucket() - T) / 60_000 + " " + x.group() + " " + x.values())
        .toList();
  }

  @Test
  void gaugeTakesEachTimeSeriesLastValueThenAggregates() {
    table(
        "g",
        List.of(
            // host a: 15 then 25 in minute 0 -> 25; host b: 40 in minute 0 -> 40
            point("cpu", T + 1_000, "a", 15.0),
            point("cpu", T + 2_000, "a", 25.0),
            point("cpu", T + 1_500, "b", 40.0),
            // minute 1: a 5
            point("cpu", T + 61_000, "a", 5.0),
            // another metric, never counted
            point("mem", T + 1_000, "a", 1000.0)));
    assertEquals(
        List.of("0 [] [32.5]", "1 [] [5.0]"),
        rows(run(T, T + 119_999, metric("g", AggFn.AVG, null, "cpu", MetricType.GAUGE, null))));
    assertEquals(
        List.of("0 [] [65.0]", "1 [] [5.0]"),
        rows(run(T, T + 119_999, metric("g", AggFn.SUM, null, "cpu", MetricType.GAUGE, null))));
    // count: time series with a value in the bucket
    assertEquals(
        List.of("0 [] [2]", "1 [] [1]"),
        rows(run(T, T + 119_999, metric("g", AggFn.COUNT, null, "cpu", MetricType.GAUGE, null))));
    // last_value: the time series whose last point is latest (a at +2s)
    assertEquals(
        List.of("0 [] [25.0]", "1 [] [5.0]"),
        rows(
            run(
                T,
                T + 119_999,
                metric("g", AggFn.LAST_VALUE, null, "cpu", MetricType.GAUGE, null))));
    assertEquals(
        List.of("0 [a] [25.0]", "0 [b] [40.0]", "1 [a] [5.0]"),
        rows(
            run(
                T,
                T + 119_999,
                metric(
                    "g", AggFn.MAX, null, "cpu", MetricType.GAUGE, List.of("Attributes.host")))));
  }

  @Test
  void theWhereNarrowsThePointsOfTheMetric() {
    table(
        "g",
        List.of(
            point("cpu", T + 1_000, "a", 15.0),
            point("cpu", T + 1_500, "b", 40.0),
            point("mem", T + 1_000, "b", 7.0)));
    Series s =
        new Series(
            "g",
            AggFn.SUM,
            null,
            null,
            "Attributes.host:b",
            WhereLanguage.LUCENE,
            List.of(),
            new MetricSpec("cpu", MetricType.GAUGE));
    assertEquals(List.of("0 [] [40.0]"), rows(run(T, T + 59_999, s)));
  }

  @Test
  void counterIncreasesPerBucketWithResetsAndDeltas() {
    table(
        "s",
        List.of(
            // cumulative (2), host a: 100 one bucket before the range (look-back only),
            // minute 0: 110, 130 -> (110-100) + (130-110) = 30
            // minute 1: 5 (a reset: max(5-130, 0) = 0), 25 -> 0 + 20 = 20
            point("req", T - 30_000, "a", 100L, "AggregationTemporality", 2L),
            point("req", T + 10_000, "a", 110L, "AggregationTemporality", 2L),
            point("req", T + 20_000, "a", 130L, "AggregationTemporality", 2L),
            point("req", T + 70_000, "a", 5L, "AggregationTemporality", 2L),
            point("req", T + 80_000, "a", 25L, "AggregationTemporality", 2L),
            // delta (1), host b: 3 and 4 in minute 0 -> 7
            point("req", T + 5_000, "b", 3L, "AggregationTemporality", 1L),
            point("req", T + 6_000, "b", 4L, "AggregationTemporality", 1L),
            // cumulative, host c: its first point has nothing before it -> 0
            point("req", T + 90_000, "c", 1000L, "AggregationTemporality", 2L)));
    assertEquals(
        List.of("0 [] [37.0]", "1 [] [20.0]"),
        rows(run(T, T + 119_999, metric("s", AggFn.SUM, null, "req", MetricType.SUM, null))));
    assertEquals(
        List.of("0 [a] [30.0]", "0 [b] [7.0]", "1 [a] [20.0]", "1 [c] [0.0]"),
        rows(
            run(
                T,
                T + 119_999,
                metric("s", AggFn.SUM, null, "req", MetricType.SUM, List.of("Attributes.host")))));
    // avg across the time series of minute 1: (20 + 0) / 2
    assertEquals(
        List.of("0 [] [18.5]", "1 [] [10.0]"),
        rows(run(T, T + 119_999, metric("s", AggFn.AVG, null, "req", MetricType.SUM, null))));
  }

  @Test
  void histogramQuantilesInterpolateInsideTheBucket() {
    table(
        "h",
        List.of(
            // HyperDX's own example: two delta points in one bucket
            // [5,10,3,0] + [3,12,5,2] = [8,22,8,2], bounds [10,50,100]: 40 observations
            point(
                "lat",
                T + 1_000,
                null,
                null,
                "BucketCounts",
                "[5,10,3,0]",
                "ExplicitBounds",
                "[10,50,100]",
                "Count",
                18L,
                "AggregationTemporality",
                1L),
            point(
                "lat",
                T + 2_000,
                null,
                null,
                "BucketCounts",
                "[3,12,5,2]",
                "ExplicitBounds",
                "[10,50,100]",
                "Count",
                22L,
                "AggregationTemporality",
                1L)));
    // p50: rank 20 falls in (10, 50] holding 8 < rank <= 30: 10 + 40 * (20 - 8) / 22
    assertEquals(
        10 + 40 * 12 / 22.0,
        value(run(T, T + 59_999, metric("h", AggFn.P50, null, "lat", MetricType.HISTOGRAM, null))));
    // p95: rank 38 is past the last bound's 38: the unbounded bucket answers its lower bound
    assertEquals(
        100.0,
        value(
            run(
                T,
                T + 59_999,
                metric("h", AggFn.QUANTILE, 0.95, "lat", MetricType.HISTOGRAM, null))));
    // p10: rank 4 in the first bucket (0, 10]: 0 + 10 * 4 / 8
    assertEquals(
        5.0,
        value(
            run(
                T,
                T + 59_999,
                metric("h", AggFn.QUANTILE, 0.1, "lat", MetricType.HISTOGRAM, null))));
    // count: the observations, 18 + 22
    assertEquals(
        40L,
        value(
            run(T, T + 59_999, metric("h", AggFn.COUNT, null, "lat", MetricType.HISTOGRAM, null))));
  }

  @Test
  void cumulativeHistogramsCountDeltasFromTheirFirstPoint() {
    table(
        "h",
        List.of(
            // minute -1 (look-back): [1,1,0]; minute 0: [3,4,1] -> delta [2,3,1]
            histogram(T - 10_000, "[1,1,0]", 2L),
            histogram(T + 10_000, "[3,4,1]", 8L),
            // minute 1: a reset to [1,0,0] counts [1,0,0]
            histogram(T + 70_000, "[1,0,0]", 1L)));
    // minute 0: [2,3,1], bounds [1,2]: rank 3 in (1, 2]: 1 + 1 * (3 - 2) / 3
    // minute 1: [1,0,0]: rank 0.5 in (0, 1]: 0 + 1 * 0.5 / 1
    assertEquals(
        List.of("0 [] [" + (1 + 1.0 / 3) + "]", "1 [] [0.5]"),
        rows(run(T, T + 119_999, metric("h", AggFn.P50, null, "lat", MetricType.HISTOGRAM, null))));
    // Count: 8 - 2 = 6, then a reset: 1
    assertEquals(
        List.of("0 [] [6]", "1 [] [1]"),
        rows(
            run(
                T,
                T + 119_999,
                metric("h", AggFn.COUNT, null, "lat", MetricType.HISTOGRAM, null))));
  }

  private static Map<String, Object> histogram(long ts, String counts, long count) {
    return point(
        "lat",
        ts,
        "a",
        null,
        "BucketCounts",
        counts,
        "ExplicitBounds",
        "[1,2]",
        "Count",
        count,
        "AggregationTemporality",
        2L);
  }

  @Test
  void metricAndEventSeriesShareTheirRows() {
    table("g", List.of(point("cpu", T + 1_000, "a", 15.0)));
    Series events = new Series("g", AggFn.COUNT, null, null, "", WhereLanguage.LUCENE, List.of());
    assertEquals(
        List.of("0 [] [1, 15.0]"),
        rows(
            run(
                T,
                T + 59_999,
                events,
                metric("g", AggFn.AVG, null, "cpu", MetricType.GAUGE, null))));
  }

  @Test
  void histogramsRefuseAggregationsTheyDoNotDefine() {
    table("h", List.of(histogram(T, "[1,1,0]", 2L)));
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class,
            () -> run(T, T + 1, metric("h", AggFn.AVG, null, "lat", MetricType.HISTOGRAM, null)));
    assertTrue(
        e.getMessage().contains("series[0].aggFn: avg is not defined for histogram"),
        e.getMessage());
    Series withField =
        new Series(
            "h",
            AggFn.SUM,
            "Value",
            null,
            null,
            null,
            List.of(),
            new MetricSpec("", MetricType.GAUGE));
    e = assertThrows(InvalidQueryException.class, () -> run(T, T + 1, withField));
    assertTrue(e.getMessage().contains("series[0].metricName: is required"), e.getMessage());
    assertTrue(e.getMessage().contains("series[0].field: a metric series"), e.getMessage());
  }

  private static Number value(ChartResult r) {
    assertEquals(1, r.rows().size(), () -> r.rows().toString());
    return r.rows().get(0).values().get(0);
  }
}
