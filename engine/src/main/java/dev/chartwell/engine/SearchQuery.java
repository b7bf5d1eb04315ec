package dev.chartwell.engine;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A search: the events of one source matching {@code where} with a timestamp in {@code [startTime,
 * endTime]}, in {@code order}, skipping {@code offset} and keeping {@code limit}. Start from {@link
 * #of(String)} and narrow it:
 *
 * <pre>{@code
 * SearchQuery q = SearchQuery.of("app-logs")
 *     .where("SeverityText:error")
 *     .between(Instant.now().minus(Duration.ofHours(1)), Instant.now())
 *     .limit(100);
 * SearchResult found = engine.search(q);
 * }</pre>
 *
 * <p>Each method returns a new query; a query is an immutable value.
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

  /** How many events {@link #of(String)} returns unless {@link #limit(int)} says otherwise. */
  public static final int DEFAULT_LIMIT = 100;

  /**
   * @param sourceId the source to search
   * @return the newest {@value #DEFAULT_LIMIT} events of that source, of any time, every column
   */
  public static SearchQuery of(String sourceId) {
    Objects.requireNonNull(sourceId, "sourceId");
    return new SearchQuery(
        sourceId,
        Source.MIN_TIMESTAMP,
        Source.MAX_TIMESTAMP,
        null,
        WhereLanguage.LUCENE,
        null,
        SearchOrder.NEWEST_FIRST,
        DEFAULT_LIMIT,
        0);
  }

  /**
   * @param where a Lucene-syntax filter
   * @return this search, keeping only the events that match
   */
  public SearchQuery where(String where) {
    return where(where, WhereLanguage.LUCENE);
  }

  /**
   * @param where a filter
   * @param language its language
   * @return this search, keeping only the events that match
   */
  public SearchQuery where(String where, WhereLanguage language) {
    Objects.requireNonNull(where, "where");
    Objects.requireNonNull(language, "language");
    return new SearchQuery(
        sourceId, startTime, endTime, where, language, columns, order, limit, offset);
  }

  /**
   * @param start range start, inclusive
   * @param end range end, inclusive
   * @return this search, over that range
   */
  public SearchQuery between(Instant start, Instant end) {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    return between(start.toEpochMilli(), end.toEpochMilli());
  }

  /**
   * @param startMillis range start, epoch milliseconds, inclusive
   * @param endMillis range end, epoch milliseconds, inclusive
   * @return this search, over that range
   */
  public SearchQuery between(long startMillis, long endMillis) {
    return new SearchQuery(
        sourceId, startMillis, endMillis, where, whereLanguage, columns, order, limit, offset);
  }

  /**
   * @param columns the columns of each result row, in order
   * @return this search, returning only those
   */
  public SearchQuery columns(String... columns) {
    return new SearchQuery(
        sourceId, startTime, endTime, where, whereLanguage, List.of(columns), order, limit, offset);
  }

  /**
   * @param order newest or oldest first
   * @return this search, in that order
   */
  public SearchQuery order(SearchOrder order) {
    Objects.requireNonNull(order, "order");
    return new SearchQuery(
        sourceId, startTime, endTime, where, whereLanguage, columns, order, limit, offset);
  }

  /**
   * @param limit how many events to return, 1 to {@value #MAX_LIMIT}
   * @return this search, returning at most that many
   */
  public SearchQuery limit(int limit) {
    return new SearchQuery(
        sourceId, startTime, endTime, where, whereLanguage, columns, order, limit, offset);
  }

  /**
   * @param offset how many matching events to skip first, 0 to {@value #MAX_OFFSET}
   * @return this search, from that page on
   */
  public SearchQuery offset(int offset) {
    return new SearchQuery(
        sourceId, startTime, endTime, where, whereLanguage, columns, order, limit, offset);
  }
}
