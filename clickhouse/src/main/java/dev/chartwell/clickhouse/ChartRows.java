package dev.chartwell.clickhouse;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.internal.exec.QueryEngine;
import dev.chartwell.engine.internal.exec.ResultRows;
import dev.chartwell.engine.internal.exec.ResultRows.Key;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the rows of a {@link ChartSql} statement into the engine's {@link ChartResult}: finishes
 * each series' value from its {@code n} and {@code v} (averages, rates) and enforces the same row
 * and group limits as the engine; the engine's own {@link ResultRows} orders the rows and takes
 * ratios.
 */
final class ChartRows {
  private final ChartQuery query;
  private final Map<Key, Number[]> rows = new HashMap<>();
  private final Set<List<String>> groups = new HashSet<>();

  ChartRows(ChartQuery query) {
    this.query = query;
  }

  /**
   * Adds the rows of one answer.
   *
   * @param statement the statement answered
   * @param body its {@code TabSeparated} answer
   * @throws dev.chartwell.engine.InvalidQueryException past the row or group limit
   */
  void add(ChartSql.Statement statement, String body) {
    int groupFields = query.series().get(0).groupBy().size();
    int width = statement.branches().stream().mapToInt(List::size).max().orElse(0);
    long g = query.effectiveGranularity().millis();
    for (String[] cells : TabSeparated.rows(body)) {
      if (cells.length != 2 + groupFields + 2 * width) {
        throw new IllegalStateException(
            "ClickHouse answered a row of "
                + cells.length
                + " cells, not "
                + (2 + groupFields + 2 * width));
      }
      List<Integer> series = statement.branches().get(Integer.parseInt(cells[0]));
      long bucket = Long.parseLong(cells[1]);
      List<String> group = new ArrayList<>(groupFields);
      for (int k = 0; k < groupFields; k++) {
        String v = TabSeparated.unescape(cells[2 + k]);
        group.add(v == null ? "" : v);
      }
      group = List.copyOf(group);
      Number[] values = null;
      for (int j = 0; j < series.size(); j++) {
        long n = Long.parseLong(cells[2 + groupFields + 2 * j]);
        if (n == 0) {
          continue; // this series has nothing here; another of the branch has
        }
        double v = TabSeparated.number(cells[3 + groupFields + 2 * j]);
        if (values == null) {
          values =
              rows.computeIfAbsent(new Key(bucket, group), k -> new Number[query.series().size()]);
        }
        int s = series.get(j);
        values[s] = finish(query.series().get(s), n, v, g);
      }
      groups.add(group);
      if (groups.size() > QueryEngine.MAX_GROUPS) {
        throw QueryEngine.tooManyGroups();
      }
      if (rows.size() > QueryEngine.MAX_ROWS) {
        throw QueryEngine.tooManyRows();
      }
    }
  }

  private static Number finish(Series s, long n, double v, long g) {
    AggFn fn = s.aggFn();
    return switch (fn) {
      case COUNT, COUNT_DISTINCT -> n;
      case COUNT_PER_SEC -> n / (g / 1000.0);
      case COUNT_PER_MIN -> n / (g / 60000.0);
      case COUNT_PER_HOUR -> n / (g / 3600000.0);
      case AVG -> v / n;
      default -> v;
    };
  }

  /**
   * @return the result, ordered as the engine orders it
   */
  ChartResult result() {
    return ResultRows.render(query, query.effectiveGranularity(), rows);
  }
}
