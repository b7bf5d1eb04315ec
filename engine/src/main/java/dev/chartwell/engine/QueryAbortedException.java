package dev.chartwell.engine;

/**
 * A query that stopped before it finished, or that was never started, for a reason that is not a
 * fault of the query's text: it ran past its deadline, its caller cancelled it, it needed more
 * memory than its budget, the engine was too busy to take it, or the engine closed. The message
 * says which limit, in words a user can act on.
 */
public final class QueryAbortedException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  /** Why a query stopped. */
  public enum Reason {
    /** It ran past its deadline. */
    TIMEOUT,
    /** Its caller cancelled it (for example, the client went away). */
    CANCELLED,
    /** It needed more memory than its budget. */
    MEMORY,
    /** Too many queries were running and waiting; it was not started. */
    BUSY,
    /** The engine closed while it ran. */
    SHUTDOWN
  }

  private final Reason reason;

  /**
   * @param reason why the query stopped
   * @param message what happened and which limit applied
   */
  public QueryAbortedException(Reason reason, String message) {
    super(message, null, false);
    this.reason = reason;
  }

  /**
   * @return why the query stopped
   */
  public Reason reason() {
    return reason;
  }

  /**
   * @return whether the engine was only too busy to start it ({@link Reason#BUSY})
   */
  @Override
  public boolean retryable() {
    return reason == Reason.BUSY;
  }
}
