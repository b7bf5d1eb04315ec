package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.storage.EngineLog;
import dev.chartwell.engine.internal.storage.SourceFiles;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The engine's background work on sealed segments, on one maintenance thread: after each seal it
 * merges the source's small segments, applies the memory limit and (when set) retention and the
 * disk limits; on a timer it applies those limits again and seals heads gone idle; and it drops a
 * segment found damaged into quarantine, away from the query that found it. A failure of any of it
 * is reported and the work goes on.
 *
 * <p>Kept apart from {@link Engine} because it is the engine's housekeeping, with its own thread
 * and schedule, while the engine is the API and the wiring. The policies themselves are {@link
 * MemoryGuard}, {@link StorageLimits} and {@link IdleSeals}; the changes to a source's segments are
 * its own ({@link dev.chartwell.engine.internal.source.SealedSegments}).
 */
final class EngineMaintenance {
  private final ScheduledThreadPoolExecutor executor;
  private final StorageLimits limits;
  private final IdleSeals idleSeals;
  private final MemoryGuard memory;
  private final Supplier<List<SourceCore>> cores;
  private final Consumer<String> reporter;

  /**
   * @param executor the maintenance thread (stopped by {@link EngineThreads})
   * @param limits retention and the disk limits
   * @param idleSeals seals idle heads ({@code null}: never)
   * @param memory the memory limits
   * @param cores a fresh list of the sources' cores
   * @param reporter told about every failure
   */
  EngineMaintenance(
      ScheduledThreadPoolExecutor executor,
      StorageLimits limits,
      IdleSeals idleSeals,
      MemoryGuard memory,
      Supplier<List<SourceCore>> cores,
      Consumer<String> reporter) {
    this.executor = executor;
    this.limits = limits;
    this.idleSeals = idleSeals;
    this.memory = memory;
    this.cores = cores;
    this.reporter = reporter;
  }

  /** Starts the timed work: the storage limits, and idle seals when set. */
  void schedule() {
    executor.scheduleWithFixedDelay(
        this::enforceStorageLimitsQuietly,
        StorageLimits.PERIOD.toMillis(),
        StorageLimits.PERIOD.toMillis(),
        TimeUnit.MILLISECONDS);
    if (idleSeals != null) {
      long period = idleSeals.period().toMillis();
      executor.scheduleWithFixedDelay(
          this::sealIdleHeadsQuietly, period, period, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Has a segment of the source found damaged dropped into quarantine.
   *
   * @param source the source
   * @param storage its files
   */
  void watch(SourceCore source, SourceFiles storage) {
    storage.onCorrupt(bad -> later(() -> source.sealed().drop(s -> s == bad, true)));
  }

  /**
   * Told after each seal of a source.
   *
   * @param source the source
   */
  void afterSeal(SourceCore source) {
    later(() -> mergeQuietly(source));
    memory.enforceLimit();
    if (limits.active()) {
      later(this::enforceStorageLimitsQuietly);
    }
  }

  /**
   * Runs work on the maintenance thread, unless the engine is closing and that thread has stopped:
   * a seal that ends meanwhile is published and stays; its merge and limits are the next engine's
   * to see to. (Thrown to the seal, the refusal read as a storage failure.)
   */
  private void later(Runnable work) {
    try {
      executor.execute(work);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing: nothing more to maintain in this engine
    }
  }

  /**
   * @return how many segments retention and the disk limits dropped now
   */
  int enforceStorageLimits() {
    return limits.enforce();
  }

  /**
   * @return how many merges of small sealed segments were done now, over every source
   */
  int mergeSmallSegments() {
    int merges = 0;
    for (SourceCore s : cores.get()) {
      merges += s.sealed().mergeSmall();
    }
    return merges;
  }

  /**
   * @return how many idle heads were handed over for sealing now
   */
  int sealIdleHeads() {
    return idleSeals == null ? 0 : idleSeals.run();
  }

  private void mergeQuietly(SourceCore source) {
    try {
      source.sealed().mergeSmall();
    } catch (RuntimeException e) {
      EngineLog.problem(reporter, "merging the small segments of " + source.id() + " failed: " + e);
    }
  }

  private void sealIdleHeadsQuietly() {
    try {
      sealIdleHeads();
    } catch (RuntimeException e) {
      EngineLog.problem(reporter, "sealing idle heads failed: " + e);
    }
  }

  private void enforceStorageLimitsQuietly() {
    try {
      limits.enforce();
    } catch (RuntimeException e) {
      EngineLog.problem(reporter, "applying retention and the disk limit failed: " + e);
    }
  }
}
