package dev.chartwell.engine.query;

/**
 * How a query is executed; results never depend on these.
 *
 * @param useIndexes use dictionary, token and bitmap indexes and zone maps; {@code false} evaluates
 *     every predicate row by row (for differential testing and diagnosis)
 */
public record QueryOptions(boolean useIndexes) {
  /** The normal options: indexes on. */
  public static final QueryOptions DEFAULT = new QueryOptions(true);
}
