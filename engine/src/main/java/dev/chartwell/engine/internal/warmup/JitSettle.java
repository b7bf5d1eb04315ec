package dev.chartwell.engine.internal.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Tells when the JIT compiler has settled over the warm-up's rounds: {@link #QUIET_ROUNDS} rounds
 * in a row during which it compiled for less than {@link #QUIET_SHARE} of the round's time. A fixed
 * number of rounds leaves the code that runs once per query, per segment or per point of an answer
 * interpreted or at the first tier: the compiler raises its thresholds while its queue is long (as
 * it is after a start), so such code reaches the optimizing tier only after the queue has drained
 * and the code has run thousands of times more. Without it the first real queries of a shape paid
 * for those compilations (issue 38: the tenth request of a query still 1.7–9× its steady time).
 */
public final class JitSettle {
  /**
   * The share of a round's time spent compiling below which the round counts as quiet. Not zero:
   * the compiler goes on recompiling now and then for the server's own background work, and (on a
   * busy machine) compiles late what it queued long before.
   */
  public static final double QUIET_SHARE = 0.05;

  /** Quiet rounds in a row that count as settled. */
  public static final int QUIET_ROUNDS = 3;

  private final LongSupplier compilationMillis; // null: not measurable
  private final LongSupplier nanoTime;
  private long compiledAtRoundStart;
  private long roundStart;
  private int quietInARow;

  /**
   * @param compilationMillis the JIT's total compilation time so far, in milliseconds, or {@code
   *     null} where the JVM does not measure it (then every round counts as settled)
   * @param nanoTime the clock rounds are timed with ({@link System#nanoTime})
   */
  public JitSettle(LongSupplier compilationMillis, LongSupplier nanoTime) {
    this.compilationMillis = compilationMillis;
    this.nanoTime = nanoTime;
    this.compiledAtRoundStart = compilationMillis == null ? 0 : compilationMillis.getAsLong();
    this.roundStart = nanoTime.getAsLong();
  }

  /**
   * @return the settle test of this JVM's compiler
   */
  public static JitSettle ofThisJvm() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return new JitSettle(
        jit != null && jit.isCompilationTimeMonitoringSupported()
            ? jit::getTotalCompilationTime
            : null,
        System::nanoTime);
  }

  /**
   * Called after each round.
   *
   * @return whether the compiler has settled: during this round and the ones before it, {@link
   *     #QUIET_ROUNDS} in all, it compiled for less than {@link #QUIET_SHARE} of the round's time
   *     (always true where compilation time is not measured)
   */
  public boolean roundEnded() {
    if (compilationMillis == null) {
      return true;
    }
    long compiled = compilationMillis.getAsLong();
    long now = nanoTime.getAsLong();
    double roundMillis = (now - roundStart) / 1e6;
    quietInARow = compiled - compiledAtRoundStart < QUIET_SHARE * roundMillis ? quietInARow + 1 : 0;
    compiledAtRoundStart = compiled;
    roundStart = now;
    return quietInARow >= QUIET_ROUNDS;
  }
}
