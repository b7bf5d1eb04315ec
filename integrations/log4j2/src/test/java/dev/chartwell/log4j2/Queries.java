package dev.chartwell.log4j2;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
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

  /** The events of the last and next hour matching {@code where}, counted by a chart query. */
  static long count(Engine engine, String sourceId, String where) {
    long now = System.currentTimeMillis();
    ChartResult r =
        engine.query(
            new ChartQuery(
                now - HOUR,
                now + HOUR,
                null,
                List.of(Series.of(sourceId, AggFn.COUNT, null, where)),
                null));
    long n = 0;
    for (ChartResult.Row row : r.rows()) {
      Number v = row.values().get(0);
      n += v == null ? 0 : v.longValue();
    }
    return n;
  }

  /** The events of the last and next hour matching {@code where}, newest first. */
  static List<Map<String, Object>> search(Engine engine, String sourceId, String where) {
    long now = System.currentTimeMillis();
    SearchResult r =
        engine.search(
            new SearchQuery(sourceId, now - HOUR, now + HOUR, where, null, null, null, 100, 0),
            QueryOptions.DEFAULT);
    return r.rows();
  }
}
