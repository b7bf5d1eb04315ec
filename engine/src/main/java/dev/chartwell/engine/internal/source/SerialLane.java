package dev.chartwell.engine.internal.source;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs one source's tasks one at a time, in submission order, on a shared pool: the sealing of
 * different sources proceeds in parallel while each source publishes its segments in order.
 */
final class SerialLane {
  private final Executor pool;
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>(); // guarded by this
  private boolean running; // guarded by this
  private boolean shut; // guarded by this

  SerialLane(Executor pool) {
    this.pool = pool;
  }

  /**
   * @param task the next task
   * @return false when the lane is shut down (the task does not run)
   */
  synchronized boolean execute(Runnable task) {
    if (shut) {
      return false;
    }
    queue.add(task);
    if (!running) {
      running = true;
      start();
    }
    return true;
  }

  /** Runs no more tasks and waits for the running one, if any. */
  synchronized void shutdown() {
    shut = true;
    queue.clear();
    boolean interrupted = false;
    while (running) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void start() {
    try {
      pool.execute(this::runNext);
    } catch (RejectedExecutionException e) {
      running = false; // the pool is closing; the tasks are dropped with it
      queue.clear();
      notifyAll();
    }
  }

  private void runNext() {
    Runnable task;
    synchronized (this) {
      task = queue.poll();
      if (task == null) {
        running = false;
        notifyAll();
        return;
      }
    }
    try {
      task.run();
    } finally {
      synchronized (this) {
        if (queue.isEmpty() || shut) {
          queue.clear();
          running = false;
          notifyAll();
        } else {
          start();
        }
      }
    }
  }
}
