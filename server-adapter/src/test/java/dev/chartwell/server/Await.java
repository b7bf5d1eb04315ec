package dev.chartwell.server;

import java.time.Duration;

/**
 * Waits for a condition by polling it, never for a fixed time. The deadline only stops a hung test:
 * no outcome depends on it, so a busy machine cannot fail a test through it.
 */
public final class Await {
  /** How long a condition may take before the test counts as hung. */
  public static final Duration HUNG = Duration.ofSeconds(60);

  /** A condition that may ask the server. */
  @FunctionalInterface
  public interface Condition {
    /**
     * @return whether it holds now
     * @throws Exception when asking fails (the wait fails with it)
     */
    boolean holds() throws Exception;
  }

  private Await() {}

  /**
   * Polls the condition every 50 ms until it holds.
   *
   * @param what what is awaited, for the failure message
   * @param condition the condition
   * @throws AssertionError when it still does not hold after {@link #HUNG}
   * @throws Exception when asking fails
   */
  public static void until(String what, Condition condition) throws Exception {
    long deadline = System.nanoTime() + HUNG.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still waiting after " + HUNG.toSeconds() + " s: " + what);
      }
      Thread.sleep(50);
    }
  }
}
