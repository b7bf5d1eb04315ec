package dev.chartwell.clickhouse;

import dev.chartwell.clickhouse.ClickHouseTable.Column;
import dev.chartwell.clickhouse.ClickHouseTable.Kind;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.parser.Expr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An event search as one {@code SELECT}: the asked columns (or the time column and every column of
 * the table but maps), filtered by time and {@code where}, ordered by time, one page ({@code LIMIT
 * offset, limit}); values come back typed as the engine returns them (Long, Double, Boolean,
 * String; {@code null} for absent).
 */
final class SearchSql {
  private final ClickHouseTable table;
  private final SearchQuery query;
  private final Expr where;
  private final List<String> columns;
  private final List<Optional<Field>> fields = new ArrayList<>();

  SearchSql(ClickHouseTable table, SearchQuery query, Expr where) {
    this.table = table;
    this.query = query;
    this.where = where;
    if (query.columns() != null) {
      this.columns = query.columns();
    } else {
      List<String> all = new ArrayList<>();
      all.add(table.timestampColumn());
      for (Column c : table.columns()) {
        if (!c.name().equals(table.timestampColumn()) && c.kind() != Kind.MAP) {
          all.add(c.name());
        }
      }
      this.columns = all;
    }
    for (String c : columns) {
      fields.add(Field.resolve(table, c));
    }
  }

  String statement() {
    StringBuilder sb =
        new StringBuilder("SELECT ").append(ChartSql.millis(table)).append(" AS cw_ts");
    for (int i = 0; i < columns.size(); i++) {
      Optional<Field> f = fields.get(i);
      String cell = "NULL";
      if (f.isPresent()) {
        Field x = f.get();
        String text = x.kind() == Kind.DOUBLE ? "toString(toFloat64(" + x.value() + "))" : x.text();
        cell = x.present().equals("1") ? text : "if(" + x.present() + ", " + text + ", NULL)";
      }
      sb.append(", ").append(cell).append(" AS cw_c").append(i);
    }
    sb.append("\nFROM ").append(table.sqlName());
    sb.append("\nWHERE ").append(ChartSql.timeRange(table, query.startTime(), query.endTime()));
    if (!(where instanceof Expr.MatchAll)) {
      sb.append("\n  AND (").append(WhereSql.compile(where, table, "where")).append(')');
    }
    sb.append("\nORDER BY cw_ts ")
        .append(query.order() == SearchOrder.OLDEST_FIRST ? "ASC" : "DESC");
    sb.append("\nLIMIT ").append(query.offset()).append(", ").append(query.limit());
    return sb.append("\nFORMAT TabSeparated").toString();
  }

  SearchResult decode(String body) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String[] cells : TabSeparated.rows(body)) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        String name = columns.get(i);
        if (name.equals(table.timestampColumn())) {
          row.put(name, Long.parseLong(cells[0]));
          continue;
        }
        String v = TabSeparated.unescape(cells[1 + i]);
        Optional<Field> f = fields.get(i);
        row.put(name, v == null || f.isEmpty() ? null : typed(f.get().kind(), v));
      }
      rows.add(row);
    }
    return new SearchResult(table.timestampColumn(), columns, rows);
  }

  private static Object typed(Kind kind, String v) {
    return switch (kind) {
      case LONG -> Long.parseLong(v);
      case DOUBLE -> TabSeparated.number(v);
      case BOOL -> Boolean.parseBoolean(v);
      default -> v;
    };
  }
}
