package dev.chartwell.prometheus.promql;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Work over the series of one selection shared by the calling thread and one helper from the common
 * pool (whose parallelism is one less than the processors), both taking the next index until none
 * is left. The helper is only an offer: when the pool is busy it starts late or never, and the
 * caller does the rest. The caller returns once every index is done, with the first failure thrown.
 */
final class Parallel {
  /** The least work (series × steps) shared with a helper; below it the caller does all of it. */
  static volatile long minWork = 100_000;

  private Parallel() {}

  /**
   * Runs {@code perThread.get()} over every index of {@code [0, n)}.
   *
   * @param n how many indices
   * @param work how much work in all, to decide whether a helper pays
   * @param perThread makes the consumer of one thread (each thread gets its own)
   */
  static void forEach(int n, long work, Supplier<IntConsumer> perThread) {
    if (n < 2 || work < minWork || ForkJoinPool.getCommonPoolParallelism() < 1) {
      IntConsumer one = perThread.get();
      for (int i = 0; i < n; i++) {
        one.accept(i);
      }
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Runnable loop =
        () -> {
          IntConsumer consumer = null;
          for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
            try {
              if (failed.get() == null) {
                if (consumer == null) {
                  consumer = perThread.get();
                }
                consumer.accept(i);
              }
            } catch (Throwable e) {
              failed.compareAndSet(null, e);
            } finally {
              done.incrementAndGet();
            }
          }
        };
    ForkJoinPool.commonPool().execute(loop);
    loop.run();
    while (done.get() < n) { // the helper finishes the index it took
      LockSupport.parkNanos(50_000);
    }
    Throwable e = failed.get();
    if (e instanceof RuntimeException r) {
      throw r;
    }
    if (e instanceof Error r) {
      throw r;
    }
  }
}
