package dev.chartwell.server.management;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Ends the lifecycle transitions of services (provisioning, stopping, starting, terminating) when
 * their time is up. A server uses {@link #realTime()}; a test that looks at a service in the middle
 * of a transition holds them until it lets them go, instead of racing a timer on a busy machine.
 */
public interface TransitionTimer extends AutoCloseable {
  /**
   * Arranges for a transition to end.
   *
   * @param completion ends the transition
   * @param delayMillis in how many milliseconds, from now
   */
  void schedule(Runnable completion, long delayMillis);

  /** Forgets every transition not yet ended (they resume from the stores at the next start). */
  @Override
  void close();

  /**
   * @return a timer that ends each transition after its delay, on a daemon thread of its own
   */
  static TransitionTimer realTime() {
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "chartwell-lifecycle");
              t.setDaemon(true);
              return t;
            });
    return new TransitionTimer() {
      @Override
      public void schedule(Runnable completion, long delayMillis) {
        timer.schedule(completion, delayMillis, TimeUnit.MILLISECONDS);
      }

      @Override
      public void close() {
        timer.shutdownNow();
      }
    };
  }
}
