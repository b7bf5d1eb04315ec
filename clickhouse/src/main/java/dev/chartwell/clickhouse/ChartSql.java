package dev.chartwell.clickhouse;

import dev.chartwell.clickhouse.ClickHouseTable.Column;
import dev.chartwell.clickhouse.ClickHouseTable.Kind;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Series;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One chart query as one ClickHouse statement: a {@code SELECT} per group of series that read the
 * same table with the same {@code where} and group fields (so that the table is scanned once for
 * all of them), joined by {@code UNION ALL}, each filtering its table by time and {@code where},
 * bucketing in ClickHouse ({@code intDiv(ms, g) * g} on epoch milliseconds, which every version
 * has) and grouping by bucket and group values. Every branch yields the same columns: its number,
 * the bucket, one text per group field, then for each series of the branch a count {@code n} (of
 * rows, of values, or of distinct values) and a Float64 {@code v}, padded with zeros to the widest
 * branch; {@link ChartRows} finishes and orders them as the engine does.
 *
 * <p>Series with different wheres are not folded into one scan with {@code -If} aggregates: on a
 * {@code Distributed} table ClickHouse 18.16 rewrites such aggregates' arguments differently on the
 * shards and on the initiator and then fails to find their columns.
 */
final class ChartSql {
  private ChartSql() {}

  /**
   * A statement and which series each of its branches answers.
   *
   * @param sql the statement, with its {@code FORMAT}
   * @param branches per branch, the indexes of the series of its value pairs, in order
   */
  record Statement(String sql, List<List<Integer>> branches) {}

  private record Scan(String table, String where, List<String> groupBy) {}

  /**
   * @param q the query (validated)
   * @param indexes the series to answer (those on one server)
   * @param tables the table of each series of the query
   * @param wheres the where of each series of the query, compiled by {@link WhereSql#compile}
   * @return the statement
   */
  static Statement of(
      ChartQuery q, List<Integer> indexes, List<ClickHouseTable> tables, List<String> wheres) {
    Map<Scan, List<Integer>> scans = new LinkedHashMap<>();
    for (int i : indexes) {
      Scan scan = new Scan(tables.get(i).sqlName(), wheres.get(i), q.series().get(i).groupBy());
      scans.computeIfAbsent(scan, k -> new ArrayList<>()).add(i);
    }
    int width = scans.values().stream().mapToInt(List::size).max().orElse(0);
    long g = q.effectiveGranularity().millis();
    List<String> sql = new ArrayList<>();
    List<List<Integer>> branches = new ArrayList<>();
    for (Map.Entry<Scan, List<Integer>> e : scans.entrySet()) {
      List<Integer> series = e.getValue();
      sql.add(branch(branches.size(), q, series, tables.get(series.get(0)), e.getKey(), g, width));
      branches.add(List.copyOf(series));
    }
    return new Statement(
        String.join("\nUNION ALL\n", sql) + "\nFORMAT TabSeparated", List.copyOf(branches));
  }

  private static String branch(
      int number, ChartQuery q, List<Integer> series, ClickHouseTable t, Scan scan, long g, int w) {
    String ts = millis(t);
    StringBuilder sb = new StringBuilder("SELECT toUInt8(").append(number).append(") AS cw_k, ");
    sb.append("toInt64(intDiv(").append(ts).append(", ").append(g).append(") * ").append(g);
    sb.append(") AS cw_b");
    List<String> keys = new ArrayList<>(List.of("cw_b"));
    for (int k = 0; k < scan.groupBy().size(); k++) {
      Optional<Field> f = Field.resolve(t, scan.groupBy().get(k));
      String text =
          f.map(
                  x ->
                      x.present().equals("1")
                          ? x.groupText()
                          : "if(" + x.present() + ", " + x.groupText() + ", '')")
              .orElse("''");
      sb.append(", toString(").append(text).append(") AS cw_g").append(k);
      keys.add("cw_g" + k);
    }
    List<String> counts = new ArrayList<>();
    for (int j = 0; j < w; j++) {
      String[] nv =
          j < series.size()
              ? aggregate(q.series().get(series.get(j)), t, ts)
              : new String[] {"0", "0"};
      sb.append(", toUInt64(").append(nv[0]).append(") AS cw_n").append(j);
      sb.append(", toFloat64(").append(nv[1]).append(") AS cw_v").append(j);
      if (j < series.size()) {
        counts.add("cw_n" + j + " > 0");
      }
    }
    sb.append("\nFROM ").append(t.sqlName());
    sb.append("\nWHERE ").append(timeRange(t, q.startTime(), q.endTime()));
    if (!scan.where().equals(WhereSql.ALL)) {
      sb.append("\n  AND (").append(scan.where()).append(')');
    }
    sb.append("\nGROUP BY ").append(String.join(", ", keys));
    sb.append("\nHAVING ").append(String.join(" OR ", counts));
    return sb.toString();
  }

  /** {n, v} of a series' aggregate. */
  private static String[] aggregate(Series s, ClickHouseTable t, String ts) {
    AggFn fn = s.aggFn();
    Optional<Field> f = s.field() == null ? Optional.empty() : Field.resolve(t, s.field());
    if (fn.isCount()) {
      if (s.field() == null) {
        return new String[] {"count()", "0"};
      }
      return new String[] {f.map(x -> "countIf(" + x.present() + ")").orElse("0"), "0"};
    }
    if (f.isEmpty()) {
      return new String[] {"0", "0"};
    }
    Field x = f.get();
    if (fn == AggFn.COUNT_DISTINCT) {
      String value = x.kind() == Kind.DOUBLE ? "toFloat64(" + x.value() + ")" : x.value();
      return new String[] {"uniqExactIf(" + value + ", " + x.present() + ")", "0"};
    }
    String num =
        x.present().equals("1") ? x.number() : "if(" + x.present() + ", " + x.number() + ", NULL)";
    String n = "count(" + num + ")";
    return switch (fn) {
      case SUM, AVG -> new String[] {n, "ifNull(sum(" + num + "), 0)"};
      case MIN -> new String[] {n, "ifNull(min(" + num + "), 0)"};
      case MAX -> new String[] {n, "ifNull(max(" + num + "), 0)"};
      case LAST_VALUE ->
          new String[] {
            n, "argMaxIf(assumeNotNull(" + num + "), " + ts + ", isNotNull(" + num + "))"
          };
      case ANY ->
          new String[] {
            n, "argMinIf(assumeNotNull(" + num + "), " + ts + ", isNotNull(" + num + "))"
          };
      default -> quantile(num, fn.quantileLevel(s.level()));
    };
  }

  /**
   * Exact quantile, linear interpolation between closest ranks (numpy's default, as the engine),
   * computed on the sorted values with the engine's arithmetic: {@code quantileExactInclusive}
   * would do the same but is missing from older servers.
   */
  private static String[] quantile(String num, double level) {
    String a = "arraySort(groupArray(" + num + "))";
    String n = "length(" + a + ")";
    String h = "((" + n + " - 1) * " + Sql.number(level) + ")";
    String lo = "floor(" + h + ")";
    String at = "arrayElement(" + a + ", toUInt64(" + lo + ") + 1)";
    String next =
        "arrayElement(" + a + ", toUInt64(least(" + lo + " + 1, toFloat64(" + n + " - 1))) + 1)";
    String v =
        "if(" + n + " = 0, 0, " + at + " + (" + h + " - " + lo + ") * (" + next + " - " + at + "))";
    return new String[] {n, v};
  }

  /**
   * @param t a table
   * @return SQL of an event's time in epoch milliseconds (Int64)
   */
  static String millis(ClickHouseTable t) {
    Column c = t.column(t.timestampColumn()).orElseThrow();
    String id = Sql.identifier(c.name());
    String v = c.nullable() ? "assumeNotNull(" + id + ")" : id;
    return switch (c.kind()) {
      case DATETIME -> "(toInt64(toUInt32(" + v + ")) * 1000)";
      case DATETIME64 -> "toUnixTimestamp64Milli(" + v + ")";
      default -> "toInt64(" + v + ")";
    };
  }

  /**
   * @param t a table
   * @param start first millisecond, inclusive
   * @param end last millisecond, inclusive
   * @return SQL of a UInt8 that holds for the events of the range, on the column itself where its
   *     type allows (so that the table's sort key prunes)
   */
  static String timeRange(ClickHouseTable t, long start, long end) {
    Column c = t.column(t.timestampColumn()).orElseThrow();
    String id = Sql.identifier(c.name());
    String nn = c.nullable() ? "isNotNull(" + id + ") AND " : "";
    return switch (c.kind()) {
      case DATETIME ->
          String.format(
              Locale.ROOT,
              "%s%s >= toDateTime(%d) AND %s <= toDateTime(%d)",
              nn,
              id,
              Math.max(0, Math.floorDiv(start + 999, 1000)),
              id,
              Math.max(0, Math.floorDiv(end, 1000)));
      case DATETIME64 ->
          String.format(Locale.ROOT, "%s%s BETWEEN %d AND %d", nn, millis(t), start, end);
      default -> String.format(Locale.ROOT, "%s%s >= %d AND %s <= %d", nn, id, start, id, end);
    };
  }
}
