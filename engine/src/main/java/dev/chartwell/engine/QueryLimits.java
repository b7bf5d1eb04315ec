package dev.chartwell.engine;

import java.time.Duration;

/**
 * What the engine lets queries take, so that no query, however written, can hold up the others or
 * exhaust the heap.
 *
 * @param timeout how long a query may run before it is stopped (per query, {@link
 *     QueryOptions#withTimeout} may ask for another)
 * @param memoryBytes the most heap one query may hold in aggregation states, group keys and partial
 *     results
 * @param maxRunning queries that run at once; others wait
 * @param maxWaiting queries that may wait for a turn; beyond that a query is refused at once
 * @param maxWait how long a query waits for a turn before it is refused
 */
public record QueryLimits(
    Duration timeout, long memoryBytes, int maxRunning, int maxWaiting, Duration maxWait) {

  /** The default timeout: 30 seconds. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** The default wait for a turn: one second. */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(1);

  /** Checks the limits. */
  public QueryLimits {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("query timeout must be positive, got " + timeout);
    }
    if (memoryBytes < 1 << 20) {
      throw new IllegalArgumentException(
          "query memory budget must be at least 1 MB, got " + memoryBytes + " bytes");
    }
    if (maxRunning < 1) {
      throw new IllegalArgumentException("at least one query must be allowed to run");
    }
    if (maxWaiting < 0) {
      throw new IllegalArgumentException("waiting queries cannot be negative: " + maxWaiting);
    }
    if (maxWait == null || maxWait.isNegative()) {
      throw new IllegalArgumentException("the wait for a turn cannot be negative: " + maxWait);
    }
  }

  /**
   * The defaults for a pool of worker threads: a 30 s timeout; a memory budget of a quarter of the
   * heap, at most 1 GiB; twice as many running queries as workers (at least 4), 64 waiting for at
   * most one second.
   *
   * @param workerThreads the query worker threads
   * @return the default limits
   */
  public static QueryLimits defaults(int workerThreads) {
    long quarterHeap = Runtime.getRuntime().maxMemory() / 4;
    return new QueryLimits(
        DEFAULT_TIMEOUT,
        Math.max(1 << 20, Math.min(1L << 30, quarterHeap)),
        Math.max(4, 2 * workerThreads),
        64,
        DEFAULT_MAX_WAIT);
  }

  /**
   * @param timeout the timeout
   * @return these limits with that timeout
   */
  public QueryLimits withTimeout(Duration timeout) {
    return new QueryLimits(timeout, memoryBytes, maxRunning, maxWaiting, maxWait);
  }

  /**
   * @param bytes the per-query memory budget
   * @return these limits with that budget
   */
  public QueryLimits withMemoryBytes(long bytes) {
    return new QueryLimits(timeout, bytes, maxRunning, maxWaiting, maxWait);
  }

  /**
   * @param running queries that run at once
   * @param waiting queries that may wait for a turn
   * @return these limits with those numbers
   */
  public QueryLimits withConcurrency(int running, int waiting) {
    return new QueryLimits(timeout, memoryBytes, running, waiting, maxWait);
  }
}
