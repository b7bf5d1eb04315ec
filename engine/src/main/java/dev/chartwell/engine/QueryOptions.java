package dev.chartwell.engine;

import java.time.Duration;

/**
 * How a query is executed; results never depend on these.
 *
 * @param useIndexes use dictionary, token and bitmap indexes and zone maps; {@code false} evaluates
 *     every predicate row by row (for differential testing and diagnosis)
 * @param timeout how long the query may run, or {@code null} for the engine's default
 * @param control lets another thread cancel the query, or {@code null} when nobody will
 */
public record QueryOptions(boolean useIndexes, Duration timeout, QueryControl control) {
  /** The normal options: indexes on, the engine's default timeout, not cancellable. */
  public static final QueryOptions DEFAULT = new QueryOptions(true, null, null);

  /**
   * @param useIndexes whether indexes may be used
   */
  public QueryOptions(boolean useIndexes) {
    this(useIndexes, null, null);
  }

  /**
   * @param timeout how long the query may run
   * @return these options with that timeout
   */
  public QueryOptions withTimeout(Duration timeout) {
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    return new QueryOptions(useIndexes, timeout, control);
  }

  /**
   * @param control the control another thread may cancel the query with
   * @return these options with that control
   */
  public QueryOptions withControl(QueryControl control) {
    return new QueryOptions(useIndexes, timeout, control);
  }
}
