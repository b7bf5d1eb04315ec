package dev.chartwell.server;

import dev.chartwell.server.management.TransitionTimer;
import java.util.ArrayList;
import java.util.List;

/**
 * Service transitions that end only when the test lets them go: a service stays {@code
 * provisioning} or {@code stopping} for as long as the test looks at it, however busy the machine.
 */
public final class HeldTransitions implements TransitionTimer {
  private final List<Runnable> held = new ArrayList<>();

  @Override
  public synchronized void schedule(Runnable completion, long delayMillis) {
    held.add(completion);
  }

  /** Ends every transition under way, in the order they began. */
  public void releaseAll() {
    List<Runnable> now;
    synchronized (this) {
      now = new ArrayList<>(held);
      held.clear();
    }
    now.forEach(Runnable::run);
  }

  @Override
  public synchronized void close() {
    held.clear();
  }

  /**
   * @return overrides for a test server whose transitions this holds
   */
  public ChartwellServer.Overrides overrides() {
    return new ChartwellServer.Overrides(
        java.time.Clock.systemUTC(), true, java.time.Duration.ofHours(1), this);
  }
}
