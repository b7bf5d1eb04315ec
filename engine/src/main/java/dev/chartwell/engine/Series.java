package dev.chartwell.engine;

import java.util.List;
import java.util.Objects;

/**
 * One series of a chart query: an aggregation of the events of one source that match a filter.
 * Start from a static factory named after the aggregation and add what else it needs:
 *
 * <pre>{@code
 * Series.count()                                   // events per bucket
 * Series.count().where("SeverityText:error")       // errors per bucket (Lucene syntax)
 * Series.avg("Duration").where("Duration > 100", WhereLanguage.SQL)
 * Series.quantile(0.95, "Duration").from("traces") // the source, unless the query gives one
 * }</pre>
 *
 * <p>Each method returns a new series; a series is an immutable value.
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

  /**
   * @return the number of matching events per bucket
   */
  public static Series count() {
    return of(AggFn.COUNT, null);
  }

  /**
   * @param field a field
   * @return the number of matching events that have the field
   */
  public static Series count(String field) {
    return of(AggFn.COUNT, field);
  }

  /**
   * @param field a field of any type
   * @return the number of distinct values of the field (exact)
   */
  public static Series countDistinct(String field) {
    return of(AggFn.COUNT_DISTINCT, field);
  }

  /**
   * @param field a numeric field
   * @return the sum of its values
   */
  public static Series sum(String field) {
    return of(AggFn.SUM, field);
  }

  /**
   * @param field a numeric field
   * @return the mean of its values
   */
  public static Series avg(String field) {
    return of(AggFn.AVG, field);
  }

  /**
   * @param field a numeric field
   * @return the smallest value
   */
  public static Series min(String field) {
    return of(AggFn.MIN, field);
  }

  /**
   * @param field a numeric field
   * @return the largest value
   */
  public static Series max(String field) {
    return of(AggFn.MAX, field);
  }

  /**
   * @param level from 0 to 1, for example {@code 0.95}
   * @param field a numeric field
   * @return the exact quantile (linear interpolation between the closest ranks)
   */
  public static Series quantile(double level, String field) {
    if (!(level >= 0 && level <= 1)) {
      throw new IllegalArgumentException("level must be from 0 to 1, got " + level);
    }
    return new Series(null, AggFn.QUANTILE, field, level, null, WhereLanguage.LUCENE, List.of());
  }

  /**
   * @param field a field
   * @return the value of the event with the greatest timestamp
   */
  public static Series lastValue(String field) {
    return of(AggFn.LAST_VALUE, field);
  }

  /**
   * @param aggFn an aggregation that needs no field ({@code COUNT}, {@code COUNT_PER_SEC}, {@code
   *     COUNT_PER_MIN}, {@code COUNT_PER_HOUR})
   * @return the series, reading the query's source, without a filter
   */
  public static Series of(AggFn aggFn) {
    return of(aggFn, null);
  }

  /**
   * @param aggFn any aggregation
   * @param field the aggregated field, or {@code null} for the counts without one
   * @return the series, reading the query's source, without a filter
   */
  public static Series of(AggFn aggFn, String field) {
    Objects.requireNonNull(aggFn, "aggFn");
    return new Series(null, aggFn, field, null, null, WhereLanguage.LUCENE, List.of());
  }

  /**
   * @param where a Lucene-syntax filter ({@code SeverityText:error AND ServiceName:api})
   * @return this series, keeping only the events that match
   */
  public Series where(String where) {
    return where(where, WhereLanguage.LUCENE);
  }

  /**
   * @param where a filter
   * @param language the filter's language
   * @return this series, keeping only the events that match
   */
  public Series where(String where, WhereLanguage language) {
    Objects.requireNonNull(where, "where");
    Objects.requireNonNull(language, "language");
    return new Series(sourceId, aggFn, field, level, where, language, groupBy, metric);
  }

  /**
   * @param sourceId the source this series reads
   * @return this series, reading that source
   */
  public Series from(String sourceId) {
    Objects.requireNonNull(sourceId, "sourceId");
    return new Series(sourceId, aggFn, field, level, where, whereLanguage, groupBy, metric);
  }

  /**
   * @param fields fields to group by (every series of a query needs the same; {@link
   *     ChartQuery.Builder#groupBy} sets them on all)
   * @return this series, grouped
   */
  public Series groupBy(String... fields) {
    return new Series(sourceId, aggFn, field, level, where, whereLanguage, List.of(fields), metric);
  }

  /**
   * @param name a metric name (the source is then a metric table of the OpenTelemetry layout; see
   *     {@link MetricSpec})
   * @param type its data type
   * @return this series, reading that metric
   */
  public Series metric(String name, MetricType type) {
    return new Series(
        sourceId, aggFn, field, level, where, whereLanguage, groupBy, new MetricSpec(name, type));
  }
}
