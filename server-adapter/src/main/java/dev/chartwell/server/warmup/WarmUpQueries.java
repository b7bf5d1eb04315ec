package dev.chartwell.server.warmup;

import java.util.List;

/**
 * The chart requests of the warm-up: each aggregation (counts, sums, averages, extremes, exact
 * distinct counts, quantiles), each kind of filter (Lucene fields, ranges, boolean operators,
 * wildcards and bare terms; SQL comparisons, {@code IN} and {@code LIKE}), with and without
 * group-by over one and two fields, over a day, six hours and the last hour, at the granularities
 * dashboards use, and a ratio of two series.
 */
final class WarmUpQueries {
  private static final long HOUR = 3_600_000L;

  private WarmUpQueries() {}

  /**
   * @param source the source's id
   * @param end the end of the events' time range, epoch milliseconds (they span the day before)
   * @return {@code POST /api/v2/charts/series} bodies
   */
  static List<String> bodies(String source, long end) {
    long day = end - 24 * HOUR;
    long sixHours = day + 6 * HOUR;
    return List.of(
        body(day, end, "1m", "", lucene(source, "count", null, "SeverityText:error", "")),
        body(
            day,
            end,
            "1m",
            "",
            lucene(
                source,
                "quantile",
                "Duration",
                "SeverityText:(warn OR error)",
                ",\"level\":0.95,\"groupBy\":[\"ServiceName\"]")),
        body(
            day,
            end,
            "5m",
            "",
            lucene(source, "count", null, null, ""),
            lucene(source, "count", null, "SeverityText:error", ""),
            lucene(source, "avg", "Duration", null, ""),
            lucene(source, "max", "Duration", null, ""),
            lucene(source, "count_distinct", "host", null, "")),
        body(
            sixHours,
            sixHours + 6 * HOUR,
            "1m",
            "",
            lucene(source, "count", null, "ServiceName:\"svc-3\" AND status:>=500", "")),
        body(day, end, "30m", "", lucene(source, "count", null, "timeout", "")),
        body(day, end, "1h", "", lucene(source, "count_distinct", "TraceId", null, "")),
        // real data puts tens of thousands of rows in an hour's bucket: the loops over a bucket's
        // rows run over many blocks, as they seldom do over the synthetic 5-minute buckets
        body(
            day,
            end,
            "1h",
            "",
            lucene(source, "max", "Duration", null, ""),
            lucene(source, "count_distinct", "host", null, "")),
        body(
            day,
            end,
            "1h",
            "",
            lucene(
                source, "sum", "Duration", "NOT SeverityText:debug", ",\"groupBy\":[\"status\"]"),
            lucene(
                source, "min", "Duration", "NOT SeverityText:debug", ",\"groupBy\":[\"status\"]")),
        body(
            day,
            end,
            "15m",
            "",
            lucene(
                source, "p50", "Duration", null, ",\"groupBy\":[\"ServiceName\",\"SeverityText\"]"),
            lucene(
                source,
                "p99",
                "Duration",
                null,
                ",\"groupBy\":[\"ServiceName\",\"SeverityText\"]")),
        body(
            day,
            end,
            "1m",
            "",
            sql(source, "count", null, "SeverityText = 'error' AND status >= 500", "")),
        body(
            day,
            end,
            "5m",
            "",
            sql(
                source,
                "avg",
                "Duration",
                "host LIKE 'host-1%'",
                ",\"groupBy\":[\"ServiceName\"]")),
        body(
            sixHours,
            end,
            "1h",
            "",
            sql(source, "count", null, "ServiceName IN ('svc-1', 'svc-2') AND Duration > 100", "")),
        body(day, end, "1h", "", lucene(source, "count", null, "host:host-1*", "")),
        body(
            day,
            end,
            "1h",
            "",
            lucene(
                source,
                "count",
                null,
                "LogAttributes.http.method:POST",
                ",\"groupBy\":[\"status\"]")),
        body(
            day,
            end,
            "5m",
            ",\"seriesReturnType\":\"ratio\"",
            lucene(source, "count", null, "SeverityText:error", ""),
            lucene(source, "count", null, null, "")),
        body(
            end - HOUR,
            end,
            "1m",
            "",
            lucene(source, "count", null, null, ",\"groupBy\":[\"ServiceName\"]"),
            lucene(
                source,
                "count_per_min",
                null,
                "status:[400 TO 599]",
                ",\"groupBy\":[\"ServiceName\"]")),
        body(day, end, "auto", "", lucene(source, "last_value", "Duration", "Duration:>10", "")));
  }

  private static String lucene(String id, String fn, String field, String where, String extra) {
    return series(id, fn, field, where, "lucene", extra);
  }

  private static String sql(String id, String fn, String field, String where, String extra) {
    return series(id, fn, field, where, "sql", extra);
  }

  private static String series(
      String id, String fn, String field, String where, String language, String extra) {
    return "{\"sourceId\":\""
        + id
        + "\",\"aggFn\":\""
        + fn
        + "\""
        + (field == null ? "" : ",\"field\":\"" + field + "\"")
        + (where == null
            ? ""
            : ",\"where\":\""
                + where.replace("\"", "\\\"")
                + "\",\"whereLanguage\":\""
                + language
                + "\"")
        + extra
        + "}";
  }

  private static String body(long start, long end, String g, String extra, String... series) {
    return "{\"startTime\":"
        + start
        + ",\"endTime\":"
        + end
        + ",\"granularity\":\""
        + g
        + "\""
        + extra
        + ",\"series\":["
        + String.join(",", series)
        + "]}";
  }
}
