package dev.chartwell.clickhouse;

/**
 * A ClickHouse server could not answer a query: its message names the connection and says why,
 * without the password, and {@link #kind} says whose problem it is.
 */
public final class ClickHouseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the query has no answer. */
  public enum Kind {
    /** the server cannot be reached (refused, unknown host, TLS failure, connection lost). */
    UNREACHABLE,
    /** the server refused the user name or password. */
    AUTHENTICATION,
    /** the server answered with an error: an unknown table or column, a type mismatch, ... */
    REJECTED,
    /** no answer within the connection's timeout. */
    TIMEOUT,
    /** the destination is refused by the server's outbound address policy: nothing was sent. */
    REFUSED
  }

  private final Kind kind;

  /**
   * @param kind why
   * @param message the whole message, naming the connection
   */
  public ClickHouseException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  /**
   * @return why the query has no answer
   */
  public Kind kind() {
    return kind;
  }
}
