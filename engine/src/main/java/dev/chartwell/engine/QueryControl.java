package dev.chartwell.engine;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The running state of one query that other threads may act on: cancel it, or let its deadline stop
 * it; and the memory it has claimed against its budget. Every loop of the query over rows, groups,
 * dictionary entries and partial results calls {@link #checkpoint()}, so a cancelled query stops
 * within milliseconds wherever it is. A checkpoint is one volatile read; the deadline is turned
 * into a cancellation by a timer, not by reading the clock in loops.
 *
 * <p>Create one per query when you want to cancel it from another thread, pass it in {@link
 * QueryOptions#withControl}, and call {@link #cancel} when the answer is no longer wanted. A
 * control belongs to one query.
 */
public final class QueryControl {
  private volatile QueryAbortedException abort;
  private final AtomicLong claimed = new AtomicLong();
  private volatile long budgetBytes = Long.MAX_VALUE;

  /** A control that nothing has cancelled yet, with no memory budget until the engine sets one. */
  public QueryControl() {}

  /**
   * Asks the query to stop. It throws {@link QueryAbortedException} with reason {@link
   * QueryAbortedException.Reason#CANCELLED} at its next checkpoint. Cancelling a finished query
   * does nothing; the first reason given wins.
   *
   * @param why what to tell whoever waits for the answer
   */
  public void cancel(String why) {
    abort(QueryAbortedException.Reason.CANCELLED, why);
  }

  /**
   * Stops the query for a reason of the engine's (deadline, shutdown, memory).
   *
   * @param reason why
   * @param message the message of the exception the query will throw
   */
  public void abort(QueryAbortedException.Reason reason, String message) {
    if (abort == null) {
      synchronized (this) {
        if (abort == null) {
          abort = new QueryAbortedException(reason, message);
        }
      }
    }
  }

  /**
   * @return whether the query was asked to stop
   */
  public boolean isAborted() {
    return abort != null;
  }

  /**
   * Throws when the query was asked to stop. Call it in every loop that may run long.
   *
   * @throws QueryAbortedException when cancelled, past the deadline or over budget
   */
  public void checkpoint() {
    QueryAbortedException a = abort;
    if (a != null) {
      throw a;
    }
  }

  /**
   * Sets the most memory the query may claim.
   *
   * @param bytes the budget
   */
  public void budget(long bytes) {
    this.budgetBytes = bytes;
  }

  /**
   * Claims memory for state the query keeps until it answers (aggregation states, group keys,
   * partial results). Over the budget, the query is aborted and this throws.
   *
   * @param bytes an estimate of the bytes about to be held
   * @throws QueryAbortedException when the budget is exceeded or the query was stopped
   */
  public void claim(long bytes) {
    long total = claimed.addAndGet(bytes);
    if (total > budgetBytes) {
      abort(
          QueryAbortedException.Reason.MEMORY,
          String.format(
              Locale.ROOT,
              "the query needs more than its memory budget of %,d MB; group by fewer fields, use a"
                  + " coarser granularity or a shorter time range",
              budgetBytes >> 20));
    }
    checkpoint();
  }

  /**
   * @return the bytes claimed so far
   */
  public long claimedBytes() {
    return claimed.get();
  }
}
