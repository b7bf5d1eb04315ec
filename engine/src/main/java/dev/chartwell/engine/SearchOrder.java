package dev.chartwell.engine;

/** The order of a search's events. */
public enum SearchOrder {
  /**
   * Latest timestamp first; among equal timestamps the event appended last comes first (the order
   * chart queries call {@code last_value}).
   */
  NEWEST_FIRST,
  /** Earliest timestamp first; among equal timestamps the event appended first comes first. */
  OLDEST_FIRST
}
