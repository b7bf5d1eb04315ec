package dev.chartwell.engine;

import dev.chartwell.engine.internal.storage.EngineLog;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of an {@link Engine}, all daemons that report what escapes them: the query workers,
 * the timer that ends queries past their deadline, the sealers (which seal heads and build their
 * parts ahead) and the one maintenance thread ({@link EngineMaintenance}). They are made when the
 * engine is built and stopped when it closes: the timers at once, the pools once their work is
 * done.
 */
final class EngineThreads {
  /** Runs query work in parallel. */
  final ExecutorService workers;

  /** Ends queries past their deadline. */
  final ScheduledThreadPoolExecutor deadlines;

  /** Seals heads and builds their parts ahead. */
  final ExecutorService sealers;

  /** Runs the engine's maintenance. */
  final ScheduledThreadPoolExecutor maintenance;

  /**
   * @param threads how many query workers, and how many sealers
   */
  EngineThreads(int threads) {
    this.workers = daemonPool(threads, "chartwell-query-");
    this.deadlines = new ScheduledThreadPoolExecutor(1, daemon("chartwell-query-deadlines"));
    deadlines.setRemoveOnCancelPolicy(true);
    this.sealers = daemonPool(threads, "chartwell-sealer-");
    this.maintenance = new ScheduledThreadPoolExecutor(1, daemon("chartwell-maintenance"));
  }

  /** Stops the deadline timer and the maintenance thread; work not started yet is dropped. */
  void stopTimers() {
    deadlines.shutdownNow();
    maintenance.shutdownNow();
  }

  /**
   * Lets the sealers and the workers finish their work (10 seconds each at most), then stops them.
   */
  void stopPools() {
    for (ExecutorService pool : List.of(sealers, workers)) {
      pool.shutdown();
      try {
        if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
          pool.shutdownNow();
        }
      } catch (InterruptedException e) {
        pool.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }

  private static ExecutorService daemonPool(int threads, String prefix) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads, r -> daemon(prefix + n.incrementAndGet()).newThread(r));
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      t.setUncaughtExceptionHandler(EngineLog::uncaught);
      return t;
    };
  }
}
