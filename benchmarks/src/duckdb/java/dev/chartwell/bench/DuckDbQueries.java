package dev.chartwell.bench;

import dev.chartwell.engine.ChartResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Q1–Q6 of {@link QueryBenchmark#queries()} as the DuckDB SQL that computes the same thing, and the
 * comparison of both answers. The same inclusive time range, buckets aligned on the epoch ({@code
 * Timestamp // g * g}, Chartwell's {@code floor(ts / g) * g}), the same filters and groups, and the
 * same aggregate definitions: exact distinct counts ({@code count(DISTINCT ...)}) and an exact
 * quantile with linear interpolation between the closest ranks, rank {@code (n - 1) × level}
 * ({@code quantile_cont}, Chartwell's definition: see {@code AggFn.QUANTILE}).
 */
final class DuckDbQueries {
  /** The DuckDB table holding the data set. */
  static final String TABLE = "logs";

  /** The table's columns, in the order the loader appends them. */
  static final String CREATE =
      "CREATE TABLE "
          + TABLE
          + " (Timestamp BIGINT, ServiceName VARCHAR, SeverityText VARCHAR, host VARCHAR,"
          + " status BIGINT, Duration DOUBLE, TraceId VARCHAR, \"http.method\" VARCHAR,"
          + " Body VARCHAR)";

  /** How a series' values compare: counts exactly (missing is 0), other numbers within 1e-9. */
  enum Kind {
    /** A count: a missing value is 0. */
    COUNT,
    /** Any other number: a missing value is no value. */
    NUMBER
  }

  /** The largest relative difference of two non-count numbers that still agree. */
  static final double TOLERANCE = 1e-9;

  /**
   * One query's SQL.
   *
   * @param sql the query: bucket, the group values, then one column per series, sorted
   * @param groups how many group-by columns
   * @param series how each series compares
   */
  record Sql(String sql, int groups, List<Kind> series) {}

  private static final long MINUTE = 60_000L;
  private static final long HOUR = 60 * MINUTE;

  private DuckDbQueries() {}

  /**
   * @return Q1..Q6 in the order of {@link QueryBenchmark#queries()}
   */
  static List<Sql> all() {
    long start = BenchLogs.END - BenchLogs.SPAN;
    long end = BenchLogs.END;
    long q4Start = start + 6 * HOUR;
    long q4End = q4Start + 6 * HOUR;
    String day = range(start, end);
    return List.of(
        new Sql(
            sql(MINUTE, "count(*)", day + " AND SeverityText = 'error'", ""),
            0,
            List.of(Kind.COUNT)),
        new Sql(
            sql(
                MINUTE,
                "quantile_cont(Duration, 0.95)",
                day + " AND SeverityText IN ('warn', 'error')",
                "ServiceName"),
            1,
            List.of(Kind.NUMBER)),
        new Sql(
            sql(
                5 * MINUTE,
                "count(*), count(*) FILTER (WHERE SeverityText = 'error'), avg(Duration),"
                    + " max(Duration), count(DISTINCT host)",
                day,
                ""),
            0,
            List.of(Kind.COUNT, Kind.COUNT, Kind.NUMBER, Kind.NUMBER, Kind.COUNT)),
        new Sql(
            sql(
                MINUTE,
                "count(*)",
                range(q4Start, q4End) + " AND ServiceName = 'svc-3' AND status >= 500",
                ""),
            0,
            List.of(Kind.COUNT)),
        // Chartwell's bare term is a token match. bench-logs bodies hold "timeout" only as a whole
        // lower-case word, so DuckDB's substring search finds exactly the token matches (the
        // answers
        // are compared, and both are checked against the count kept while generating).
        new Sql(
            sql(30 * MINUTE, "count(*)", day + " AND Body LIKE '%timeout%'", ""),
            0,
            List.of(Kind.COUNT)),
        new Sql(sql(HOUR, "count(DISTINCT TraceId)", day, ""), 0, List.of(Kind.COUNT)));
  }

  private static String range(long start, long end) {
    return "Timestamp >= " + start + " AND Timestamp <= " + end;
  }

  private static String sql(long bucketMillis, String aggregates, String where, String groupBy) {
    String keys = groupBy.isEmpty() ? "bucket" : "bucket, " + groupBy;
    return "SELECT Timestamp // "
        + bucketMillis
        + " * "
        + bucketMillis
        + " AS bucket, "
        + (groupBy.isEmpty() ? "" : groupBy + ", ")
        + aggregates
        + " FROM "
        + TABLE
        + " WHERE "
        + where
        + " GROUP BY "
        + keys
        + " ORDER BY "
        + keys;
  }

  /**
   * Runs one query and reads every value of its answer.
   *
   * @param connection the DuckDB connection
   * @param q the query
   * @return the answer
   * @throws SQLException when DuckDB fails
   */
  static Answer run(Connection connection, Sql q) throws SQLException {
    Answer a = new Answer(q.series().size());
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(q.sql())) {
      while (rs.next()) {
        List<String> group = new ArrayList<>(q.groups());
        for (int i = 0; i < q.groups(); i++) {
          group.add(rs.getString(2 + i));
        }
        double[] values = new double[q.series().size()];
        for (int i = 0; i < values.length; i++) {
          double v = rs.getDouble(2 + q.groups() + i);
          values[i] = rs.wasNull() ? Double.NaN : v;
        }
        a.put(rs.getLong(1), group, values);
      }
    }
    return a;
  }

  /** An answer reduced to what both engines must agree on: per (bucket, group), the series. */
  static final class Answer {
    private final Map<String, double[]> rows = new TreeMap<>();
    private final int series;

    Answer(int series) {
      this.series = series;
    }

    /**
     * @param result Chartwell's answer
     * @return it as an answer
     */
    static Answer of(ChartResult result) {
      int series = result.rows().isEmpty() ? 0 : result.rows().get(0).values().size();
      Answer a = new Answer(series);
      for (ChartResult.Row row : result.rows()) {
        double[] values = new double[series];
        for (int i = 0; i < series; i++) {
          Number v = row.values().get(i);
          values[i] = v == null ? Double.NaN : v.doubleValue();
        }
        a.put(row.bucket(), row.group(), values);
      }
      return a;
    }

    /**
     * @return the number of (bucket, group) rows
     */
    int rows() {
      return rows.size();
    }

    void put(long bucket, List<String> group, double[] values) {
      String key = bucket + (group.isEmpty() ? "" : " " + group);
      if (rows.put(key, values) != null) {
        throw new IllegalStateException("the answer has the row " + key + " twice");
      }
    }
  }

  /**
   * @param chartwell one answer
   * @param duckdb the other
   * @param kinds how each series compares
   * @return the differences, one line each (at most ten, then a count of the rest); empty when the
   *     answers agree
   */
  static List<String> differences(Answer chartwell, Answer duckdb, List<Kind> kinds) {
    if (chartwell.rows() > 0 && chartwell.series != kinds.size()) {
      throw new IllegalStateException(
          "Chartwell answered " + chartwell.series + " series, expected " + kinds.size());
    }
    List<String> out = new ArrayList<>();
    int more = 0;
    TreeSet<String> keys = new TreeSet<>(chartwell.rows.keySet());
    keys.addAll(duckdb.rows.keySet());
    for (String key : keys) {
      double[] cw = chartwell.rows.get(key);
      double[] dd = duckdb.rows.get(key);
      for (int i = 0; i < kinds.size(); i++) {
        double a = value(cw, i, kinds.get(i));
        double b = value(dd, i, kinds.get(i));
        if (agree(a, b, kinds.get(i))) {
          continue;
        }
        if (out.size() < 10) {
          out.add(
              String.format(
                  Locale.ROOT,
                  "row %s series %d: Chartwell %s, DuckDB %s",
                  key,
                  i,
                  cw == null ? "has no row" : Double.toString(a),
                  dd == null ? "has no row" : Double.toString(b)));
        } else {
          more++;
        }
      }
    }
    if (more > 0) {
      out.add("and " + more + " more");
    }
    return out;
  }

  private static double value(double[] row, int i, Kind kind) {
    double v = row == null ? Double.NaN : row[i];
    return Double.isNaN(v) && kind == Kind.COUNT ? 0 : v;
  }

  static boolean agree(double a, double b, Kind kind) {
    if (kind == Kind.COUNT || Double.isNaN(a) || Double.isNaN(b)) {
      return Double.compare(a, b) == 0;
    }
    return a == b || Math.abs(a - b) <= TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
  }
}
