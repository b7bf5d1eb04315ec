package dev.chartwell.engine;

/**
 * The base of every exception the engine throws on purpose, so that a caller can catch the engine's
 * refusals in one place and still tell them apart by subtype:
 *
 * <ul>
 *   <li>{@link InvalidQueryException}: a chart query or search that cannot run as asked (fix the
 *       query);
 *   <li>{@link UnknownSourceException}: a query, search or append names a source that does not
 *       exist (or was dropped);
 *   <li>{@link RejectedEventException}: an event that cannot be stored, with the reason;
 *   <li>{@link WritesRefusedException}: the engine holds too much in memory for now (retry later);
 *   <li>{@link StorageFailedException}: a write or fsync failed; the source refuses writes until
 *       the engine is built again;
 *   <li>{@link EngineClosedException}: the engine was closed;
 *   <li>{@link QueryAbortedException}: a query stopped for its deadline, memory budget,
 *       cancellation, a busy engine or shutdown.
 * </ul>
 *
 * <p>Misuse of an argument is reported as Java reports it everywhere: a {@code null} argument with
 * a {@link NullPointerException} naming it, a value out of range (a negative thread count, a
 * duplicate source id) with an {@link IllegalArgumentException}. Those are bugs in the calling
 * code, not conditions to handle.
 */
public abstract sealed class ChartwellException extends RuntimeException
    permits InvalidQueryException,
        UnknownSourceException,
        RejectedEventException,
        WritesRefusedException,
        StorageFailedException,
        EngineClosedException,
        QueryAbortedException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, in words a user can act on
   * @param cause the underlying error, or {@code null}
   * @param stackTrace whether to capture a stack trace (refusals that are part of normal operation,
   *     such as a rejected event, skip it: they can be frequent and the trace says nothing)
   */
  ChartwellException(String message, Throwable cause, boolean stackTrace) {
    super(message, cause, true, stackTrace);
  }

  /**
   * @return whether the same call may succeed later without changing it ({@link
   *     WritesRefusedException}, and a {@link QueryAbortedException} refused because the engine was
   *     busy)
   */
  public boolean retryable() {
    return false;
  }
}
