package dev.chartwell.bench.http;

import dev.chartwell.bench.BenchLogs;
import java.util.List;

/**
 * Q1–Q6 over the {@code bench-logs} data set, as Chartwell chart requests and as the ClickHouse SQL
 * that asks the same: the same inclusive time range, buckets aligned on the epoch ({@code
 * intDiv(Timestamp, g) * g}, Chartwell's {@code floor(ts / g) * g}), the same filters and groups,
 * and the same aggregate definitions (exact distinct counts with {@code uniqExact}; {@code
 * quantile}, which interpolates linearly between the closest ranks as Chartwell does, and is exact
 * while a group holds at most 8,192 values). Both answers are sorted by bucket, then group.
 */
final class BenchQueries {
  /** How a series' values compare: counts exactly, other numbers within a tolerance. */
  enum Kind {
    /** A count: a missing value is 0. */
    COUNT,
    /** Any other number: a missing value is no value. */
    NUMBER
  }

  /**
   * One query.
   *
   * @param name {@code Q1}..{@code Q6}
   * @param title what it asks
   * @param chartBody the request body of {@code POST /api/v2/charts/series}
   * @param sql the ClickHouse query (TabSeparated: bucket, the group values, one column per series)
   * @param groups how many group-by fields
   * @param series how each series compares
   */
  record Query(
      String name, String title, String chartBody, String sql, int groups, List<Kind> series) {}

  private static final long MINUTE = 60_000L;
  private static final long HOUR = 60 * MINUTE;

  private BenchQueries() {}

  /**
   * @param sourceId the Chartwell source
   * @param table the ClickHouse table
   * @param end the end of the data set ({@link BenchLogs#END} unless generated otherwise)
   * @return Q1..Q6
   */
  static List<Query> all(String sourceId, String table, long end) {
    long start = end - BenchLogs.SPAN;
    long q4Start = start + 6 * HOUR;
    long q4End = q4Start + 6 * HOUR;
    String day = range(start, end);
    return List.of(
        new Query(
            "Q1",
            "count SeverityText:error per 1m, 24 h",
            body(start, end, "1m", series(sourceId, "count", null, "SeverityText:error", "")),
            sql(MINUTE, "count()", table, day + " AND SeverityText = 'error'", ""),
            0,
            List.of(Kind.COUNT)),
        new Query(
            "Q2",
            "p95 Duration where SeverityText:(warn OR error) per 1m by ServiceName",
            body(
                start,
                end,
                "1m",
                series(
                    sourceId,
                    "quantile",
                    "Duration",
                    "SeverityText:(warn OR error)",
                    ",\"level\":0.95,\"groupBy\":[\"ServiceName\"]")),
            sql(
                MINUTE,
                "quantile(0.95)(Duration)",
                table,
                day + " AND SeverityText IN ('warn', 'error')",
                "ServiceName"),
            1,
            List.of(Kind.NUMBER)),
        new Query(
            "Q3",
            "five series per 5m: count, errors, avg and max Duration, distinct hosts",
            body(
                start,
                end,
                "5m",
                series(sourceId, "count", null, null, ""),
                series(sourceId, "count", null, "SeverityText:error", ""),
                series(sourceId, "avg", "Duration", null, ""),
                series(sourceId, "max", "Duration", null, ""),
                series(sourceId, "count_distinct", "host", null, "")),
            sql(
                5 * MINUTE,
                "count(), countIf(SeverityText = 'error'), avg(Duration), max(Duration),"
                    + " uniqExact(host)",
                table,
                day,
                ""),
            0,
            List.of(Kind.COUNT, Kind.COUNT, Kind.NUMBER, Kind.NUMBER, Kind.COUNT)),
        new Query(
            "Q4",
            "count ServiceName:\"svc-3\" AND status:>=500 per 1m, 6 h",
            body(
                q4Start,
                q4End,
                "1m",
                series(sourceId, "count", null, "ServiceName:\"svc-3\" AND status:>=500", "")),
            sql(
                MINUTE,
                "count()",
                table,
                range(q4Start, q4End) + " AND ServiceName = 'svc-3' AND status >= 500",
                ""),
            0,
            List.of(Kind.COUNT)),
        new Query(
            "Q5",
            "count of the bare term timeout per 30m",
            body(start, end, "30m", series(sourceId, "count", null, "timeout", "")),
            // bench-logs bodies hold "timeout" only as a whole lower-case word, so the substring
            // search ClickHouse 18.16 offers (it has no hasToken) finds exactly the token matches.
            sql(30 * MINUTE, "count()", table, day + " AND Body LIKE '%timeout%'", ""),
            0,
            List.of(Kind.COUNT)),
        new Query(
            "Q6",
            "count_distinct TraceId per 1h",
            body(start, end, "1h", series(sourceId, "count_distinct", "TraceId", null, "")),
            sql(HOUR, "uniqExact(TraceId)", table, day, ""),
            0,
            List.of(Kind.COUNT)));
  }

  private static String range(long start, long end) {
    return "Timestamp >= " + start + " AND Timestamp <= " + end;
  }

  private static String sql(
      long bucketMillis, String aggregates, String table, String where, String groupBy) {
    String bucket = "intDiv(Timestamp, " + bucketMillis + ") * " + bucketMillis;
    String keys = groupBy.isEmpty() ? "bucket" : "bucket, " + groupBy;
    return "SELECT "
        + bucket
        + " AS bucket, "
        + (groupBy.isEmpty() ? "" : groupBy + ", ")
        + aggregates
        + " FROM "
        + table
        + " WHERE "
        + where
        + " GROUP BY "
        + keys
        + " ORDER BY "
        + keys
        + " FORMAT TabSeparated";
  }

  private static String series(String id, String fn, String field, String where, String extra) {
    return "{\"sourceId\":\""
        + id
        + "\",\"aggFn\":\""
        + fn
        + "\""
        + (field == null ? "" : ",\"field\":\"" + field + "\"")
        + (where == null ? "" : ",\"where\":\"" + where.replace("\"", "\\\"") + "\"")
        + extra
        + "}";
  }

  private static String body(long start, long end, String g, String... series) {
    return "{\"startTime\":"
        + start
        + ",\"endTime\":"
        + end
        + ",\"granularity\":\""
        + g
        + "\",\"series\":["
        + String.join(",", series)
        + "]}";
  }
}
