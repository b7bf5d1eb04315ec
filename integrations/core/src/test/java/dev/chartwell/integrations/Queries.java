package dev.chartwell.integrations;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.Series;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The chart and search queries the appenders' tests ask, in one place. */
public final class Queries {
  private static final Duration HOUR = Duration.ofHours(1);

  private Queries() {}

  /**
   * @param engine the engine
   * @param sourceId a source
   * @param where a Lucene-style where
   * @return the events of the last and next hour matching {@code where}, counted by a chart query
   */
  public static long count(Engine engine, String sourceId, String where) {
    Instant now = Instant.now();
    ChartResult r =
        engine.query(
            ChartQuery.over(now.minus(HOUR), now.plus(HOUR))
                .source(sourceId)
                .series(Series.count().where(where))
                .build());
    long n = 0;
    for (ChartResult.Row row : r.rows()) {
      Number v = row.values().get(0);
      n += v == null ? 0 : v.longValue();
    }
    return n;
  }

  /**
   * @param engine the engine
   * @param sourceId a source
   * @param where a Lucene-style where
   * @return the events of the last and next hour matching {@code where}, newest first
   */
  public static List<Map<String, Object>> search(Engine engine, String sourceId, String where) {
    Instant now = Instant.now();
    return engine
        .search(
            SearchQuery.of(sourceId)
                .where(where)
                .between(now.minus(HOUR), now.plus(HOUR))
                .limit(100))
        .rows();
  }
}
