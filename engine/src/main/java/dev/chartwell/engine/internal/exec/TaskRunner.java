package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryAbortedException.Reason;
import dev.chartwell.engine.QueryControl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a query's tasks on the shared worker pool for {@link QueryEngine}: at most one runner per
 * worker per query, each running one task and then queueing itself again, so that concurrent
 * queries interleave task by task; the calling thread takes tasks as well, then waits for the
 * runners' last ones and watches the query's control. Kept apart from the engine, which admits,
 * plans and merges, as the one part that deals with threads.
 */
final class TaskRunner {
  /** How often a query waiting for its tasks looks at its control. */
  private static final long POLL_MILLIS = 20;

  private final ExecutorService workers;
  private final int threads;

  /**
   * @param workers the pool tasks run on
   * @param threads the pool's size (1 runs tasks on the calling thread)
   */
  TaskRunner(ExecutorService workers, int threads) {
    this.workers = workers;
    this.threads = threads;
  }

  /**
   * @return the pool's size
   */
  int threads() {
    return threads;
  }

  /**
   * Runs tasks on the pool (or on this thread when there is one task or one thread). At most one
   * runner per worker works for this query: a runner runs one task and then queues itself again
   * behind whatever other queries queued meanwhile, so that concurrent queries interleave task by
   * task instead of one waiting for all of the other's. The calling thread takes tasks too until
   * none is left to start: a query of short tasks does not wait for the workers to be woken and
   * scheduled (on a busy machine that wait was most of a small query's time), and a query that
   * finds the workers busy with a heavy one still makes progress. While it waits for the runners'
   * last tasks, the query looks at its control; when a task fails, nobody takes more tasks.
   */
  <T> List<T> execute(List<Callable<T>> tasks, QueryControl control) {
    List<T> results = new ArrayList<>(Collections.nCopies(tasks.size(), null));
    if (threads == 1 || tasks.size() <= 1) {
      for (int i = 0; i < tasks.size(); i++) {
        control.checkpoint();
        results.set(i, call(tasks.get(i)));
      }
      return results;
    }
    TaskRun<T> run = new TaskRun<>(tasks, results, control);
    try {
      for (int i = 0; i < Math.min(threads, tasks.size()); i++) {
        workers.execute(run::runOne);
      }
    } catch (RejectedExecutionException e) {
      run.fail(new QueryAbortedException(Reason.SHUTDOWN, "the engine is closing"));
    }
    run.runHere();
    try {
      while (!run.finished.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
        control.checkpoint();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.fail(new QueryAbortedException(Reason.CANCELLED, "the query was interrupted"));
    } catch (QueryAbortedException e) {
      run.fail(e);
      run.awaitRunners();
      throw e;
    }
    run.awaitRunners();
    Throwable failure = run.failure;
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
    return results;
  }

  /** The tasks of one {@link #execute} call and the runners' shared progress. */
  private final class TaskRun<T> {
    private final List<Callable<T>> tasks;
    private final List<T> results;
    private final QueryControl control;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Throwable failure;

    TaskRun(List<Callable<T>> tasks, List<T> results, QueryControl control) {
      this.tasks = tasks;
      this.results = results;
      this.control = control;
    }

    /**
     * Waits until no runner of this run is inside a task. After a failure, runners that start later
     * see it and touch nothing, so once this returns no task of the query reads its segments any
     * more and the query may release them.
     */
    void awaitRunners() {
      while (active.get() > 0) {
        Thread.onSpinWait();
        Thread.yield();
      }
    }

    void runOne() {
      active.incrementAndGet();
      try {
        runTask();
      } finally {
        active.decrementAndGet();
      }
    }

    /**
     * On the calling thread: takes tasks until none is left to start (or one failed), so that a
     * query whose tasks are short is mostly run by the thread that asked for it, without waiting
     * for a worker to be woken and scheduled. The runners on the pool take the others.
     */
    void runHere() {
      active.incrementAndGet();
      try {
        while (runNext()) {
          // the next one
        }
      } finally {
        active.decrementAndGet();
      }
    }

    private void runTask() {
      if (runNext() && next.get() < tasks.size()) {
        try {
          workers.execute(this::runOne);
        } catch (RejectedExecutionException e) {
          fail(new QueryAbortedException(Reason.SHUTDOWN, "the engine is closing"));
        }
      }
    }

    /**
     * Runs the next task not yet started.
     *
     * @return whether one ran and others may remain: false when none was left, the last one ended,
     *     or a task failed
     */
    private boolean runNext() {
      if (failure != null || control.isAborted()) {
        return false;
      }
      int i = next.getAndIncrement();
      if (i >= tasks.size()) {
        return false;
      }
      try {
        results.set(i, tasks.get(i).call());
      } catch (Throwable t) {
        fail(t);
        return false;
      }
      if (done.incrementAndGet() == tasks.size()) {
        finished.countDown();
        return false;
      }
      return true;
    }

    void fail(Throwable t) {
      if (failure == null) {
        failure = t;
      }
      finished.countDown();
    }
  }

  private static <T> T call(Callable<T> task) {
    try {
      return task.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
