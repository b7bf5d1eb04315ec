package dev.chartwell.engine.internal.warmup;

import java.util.function.BooleanSupplier;

/**
 * How a warm-up (the embedded engine's {@link EngineWarmUp} and the server's) steps aside: before
 * each step it waits while the real engine runs queries, so that it never holds one up, and it ends
 * at the first step after it was stopped or ran out of time.
 */
public final class Pacing {
  private final BooleanSupplier realQueriesRunning;
  private volatile boolean stopped;

  /**
   * @param realQueriesRunning whether the real engine (or server) runs queries now
   */
  public Pacing(BooleanSupplier realQueriesRunning) {
    this.realQueriesRunning = realQueriesRunning;
  }

  /**
   * Waits while the real engine runs queries, giving way to them.
   *
   * @param deadline the warm-up's deadline, on {@link System#nanoTime}
   * @return whether there is time left for the next step
   * @throws InterruptedException when the warm-up was stopped or its thread interrupted
   */
  public boolean next(long deadline) throws InterruptedException {
    while (!stopped && realQueriesRunning.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    if (stopped || Thread.currentThread().isInterrupted()) {
      throw new InterruptedException();
    }
    return System.nanoTime() < deadline;
  }

  /** Stops the warm-up at its next step, and ends a {@link #pause}. */
  public void stop() {
    stopped = true;
    synchronized (this) {
      notifyAll();
    }
  }

  /**
   * Waits between two looks of a warm-up that watches: at most {@code millis}, less once stopped.
   *
   * @param millis the longest to wait
   * @throws InterruptedException when the thread was interrupted
   */
  public synchronized void pause(long millis) throws InterruptedException {
    if (!stopped) {
      wait(millis);
    }
  }

  /**
   * @return whether {@link #stop()} was called
   */
  public boolean stopped() {
    return stopped;
  }

  /**
   * @param since a {@link System#nanoTime} reading
   * @return the seconds since then
   */
  public static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  /**
   * @param e a failure
   * @return its message on one line (its class's name without one)
   */
  public static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.replaceAll("\\s+", " ");
  }
}
