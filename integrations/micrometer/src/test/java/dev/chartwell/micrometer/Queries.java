package dev.chartwell.micrometer;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Series;
import java.util.List;
import java.util.Map;

/** The chart and search queries the tests ask, in one place. */
final class Queries {
  private static final long HOUR = 3_600_000L;

  private Queries() {}

  /** A metric series over the hour around {@code at}, by minute: each row's value. */
  static List<ChartResult.Row> metric(
      Engine engine, String sourceId, String name, MetricType type, AggFn fn, long at) {
    Double level = fn == AggFn.QUANTILE ? 0.5 : null;
    Series s =
        new Series(sourceId, fn, null, level, null, null, List.of(), new MetricSpec(name, type));
    ChartResult r =
        engine.query(
            new ChartQuery(
                at - HOUR, at + HOUR, Granularity.named("1m").orElseThrow(), List.of(s), null));
    return r.rows();
  }

  /** The points of the hour around {@code at} matching {@code where}, newest first. */
  static List<Map<String, Object>> points(Engine engine, String sourceId, String where, long at) {
    SearchResult r =
        engine.search(
            new SearchQuery(sourceId, at - HOUR, at + HOUR, where, null, null, null, 100, 0),
            QueryOptions.DEFAULT);
    return r.rows();
  }

  static double total(List<ChartResult.Row> rows) {
    double t = 0;
    for (ChartResult.Row r : rows) {
      Number v = r.values().get(0);
      t += v == null ? 0 : v.doubleValue();
    }
    return t;
  }
}
