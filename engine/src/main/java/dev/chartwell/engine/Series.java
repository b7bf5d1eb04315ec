package dev.chartwell.engine;

import java.util.List;

/**
 * One series of a chart query.
 *
 * @param sourceId the source to read
 * @param aggFn the aggregation
 * @param field the aggregated field ({@code null} for counts)
 * @param level quantile level from 0 to 1 ({@code null}: 0.5)
 * @param where the filter ({@code null} or blank: every event)
 * @param whereLanguage the filter's language ({@code null}: Lucene)
 * @param groupBy fields to group by (at most 10; every series of a query has the same)
 * @param metric the metric a metric series reads ({@code null} for a series over events)
 */
public record Series(
    String sourceId,
    AggFn aggFn,
    String field,
    Double level,
    String where,
    WhereLanguage whereLanguage,
    List<String> groupBy,
    MetricSpec metric) {

  /** Copies the group-by list; {@code null} means none. */
  public Series {
    groupBy = groupBy == null ? List.of() : List.copyOf(groupBy);
  }

  /**
   * A series over events.
   *
   * @param sourceId the source to read
   * @param aggFn the aggregation
   * @param field the aggregated field ({@code null} for counts)
   * @param level quantile level from 0 to 1 ({@code null}: 0.5)
   * @param where the filter ({@code null} or blank: every event)
   * @param whereLanguage the filter's language ({@code null}: Lucene)
   * @param groupBy fields to group by
   */
  public Series(
      String sourceId,
      AggFn aggFn,
      String field,
      Double level,
      String where,
      WhereLanguage whereLanguage,
      List<String> groupBy) {
    this(sourceId, aggFn, field, level, where, whereLanguage, groupBy, null);
  }

  /**
   * @param sourceId source
   * @param aggFn aggregation
   * @param field field or {@code null}
   * @param where Lucene filter or {@code null}
   * @return a series without level or groupBy
   */
  public static Series of(String sourceId, AggFn aggFn, String field, String where) {
    return new Series(sourceId, aggFn, field, null, where, WhereLanguage.LUCENE, List.of());
  }
}
