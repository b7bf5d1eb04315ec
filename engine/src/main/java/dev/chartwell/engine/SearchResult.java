package dev.chartwell.engine;

import java.util.List;
import java.util.Map;

/**
 * The events a search found, in the search's order.
 *
 * @param timestampColumn the name of the source's timestamp column (its values are epoch
 *     milliseconds, as {@link Long})
 * @param columns the columns of every row, in order
 * @param rows one map per event from column name to value ({@link String}, {@link Long}, {@link
 *     Double} or {@link Boolean}; {@code null} when the event has no value there), keyed in {@code
 *     columns} order
 */
public record SearchResult(
    String timestampColumn, List<String> columns, List<Map<String, Object>> rows) {

  /** Copies the lists. */
  public SearchResult {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }
}
