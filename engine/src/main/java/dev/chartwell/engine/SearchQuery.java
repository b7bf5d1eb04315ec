package dev.chartwell.engine;

import java.util.List;

/**
 * A search: the events of one source matching {@code where} with a timestamp in {@code [startTime,
 * endTime]}, in {@code order}, skipping {@code offset} and keeping {@code limit}.
 *
 * @param sourceId the source to read
 * @param startTime range start, epoch ms, inclusive
 * @param endTime range end, epoch ms, inclusive
 * @param where the filter ({@code null} or blank: every event)
 * @param whereLanguage the filter's language ({@code null}: Lucene)
 * @param columns the columns of each result row, in order ({@code null}: the timestamp column and
 *     then every column of the source's schema)
 * @param order newest or oldest first ({@code null}: newest)
 * @param limit how many events to return, 1 to {@link #MAX_LIMIT}
 * @param offset how many matching events to skip first, 0 to {@link #MAX_OFFSET}
 */
public record SearchQuery(
    String sourceId,
    long startTime,
    long endTime,
    String where,
    WhereLanguage whereLanguage,
    List<String> columns,
    SearchOrder order,
    int limit,
    int offset) {

  /** The most events one search returns. */
  public static final int MAX_LIMIT = 10_000;

  /** The most events one search may skip: a page deeper than this is a narrower time range. */
  public static final int MAX_OFFSET = 100_000;

  /** Copies the columns; fills the defaults of the language and order. */
  public SearchQuery {
    columns = columns == null ? null : List.copyOf(columns);
    whereLanguage = whereLanguage == null ? WhereLanguage.LUCENE : whereLanguage;
    order = order == null ? SearchOrder.NEWEST_FIRST : order;
  }
}
