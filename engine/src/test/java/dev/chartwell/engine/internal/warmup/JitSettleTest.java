package dev.chartwell.engine.internal.warmup;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When the warm-up's rounds count the JIT compiler as settled. */
class JitSettleTest {
  private final AtomicLong compiledMillis = new AtomicLong(1_000);
  private final AtomicLong nanos = new AtomicLong(0);
  private final JitSettle settle = new JitSettle(compiledMillis::get, nanos::get);

  /** One round of {@code roundMillis} during which the compiler worked {@code compiling} ms. */
  private boolean round(long roundMillis, long compiling) {
    nanos.addAndGet(roundMillis * 1_000_000);
    compiledMillis.addAndGet(compiling);
    return settle.roundEnded();
  }

  @Test
  void settlesAfterThreeQuietRoundsInARow() {
    assertFalse(round(1_000, 900)); // the first rounds compile a lot
    assertFalse(round(1_000, 300));
    assertFalse(round(400, 0));
    assertFalse(round(400, 19));
    assertTrue(round(400, 19)); // under 5% of 400 ms, three times
    assertTrue(round(400, 0));
  }

  @Test
  void aBusyRoundStartsTheCountAgain() {
    assertFalse(round(400, 0));
    assertFalse(round(400, 0));
    assertFalse(round(400, 20)); // 5%: not quiet
    assertFalse(round(400, 0));
    assertFalse(round(400, 0));
    assertTrue(round(400, 0));
  }

  @Test
  void quietIsRelativeToTheRoundsLength() {
    // 30 ms of compiling is quiet in a 1 s round, not in a 300 ms one
    assertFalse(round(1_000, 30));
    assertFalse(round(1_000, 30));
    assertFalse(round(300, 30));
    assertFalse(round(1_000, 30));
    assertFalse(round(1_000, 30));
    assertTrue(round(1_000, 30));
  }

  @Test
  void whereCompilationTimeIsNotMeasuredEveryRoundCountsAsSettled() {
    JitSettle unmeasured = new JitSettle(null, nanos::get);
    assertTrue(unmeasured.roundEnded());
    assertTrue(unmeasured.roundEnded());
  }
}
