package dev.chartwell.server.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.SourceStats;
import dev.chartwell.engine.internal.warmup.SyntheticLogs;
import dev.chartwell.server.Await;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's throwaway server seals its heads at the real segment size (262,144 events, by
 * rows), so that the sealing code runs on the sizes a real load brings (issue 38 item 3): its
 * {@code --max-memory} leaves a head room for that many synthetic events, which the former 128 MiB
 * did not.
 */
class WarmUpSegmentSizeTest {
  private static final int SEGMENT_ROWS = 1 << 18;

  @Test
  void maxMemoryIsTheServersDefaultUpToTwoGibibytes() {
    assertEquals(2L << 30, WarmUp.maxMemory(4L << 30));
    assertEquals(2L << 30, WarmUp.maxMemory(16L << 30));
    assertEquals(512L << 20, WarmUp.maxMemory(1L << 30));
  }

  @Test
  void theDefaultBudgetFillsThreeSegmentsAndHalfAHead() {
    assertEquals(3 * SEGMENT_ROWS + SEGMENT_ROWS / 2 + 1_000, WarmUp.Budget.DEFAULT.events());
  }

  @Test
  void headsAreSealedByRowsInAServerOfFourGibibytes() throws Exception {
    assertEquals(1_000, headRowsAfterASegmentAnd1000(WarmUp.maxMemory(4L << 30)));
  }

  @Test
  void the128MebibytesOfBeforeSealedThemEarlierByBytes() throws Exception {
    assertNotEquals(1_000, headRowsAfterASegmentAnd1000(128L << 20));
  }

  /**
   * Appends 263,144 synthetic events in batches of 10,000; returns the events left in the head once
   * the full ones are sealed.
   */
  private static long headRowsAfterASegmentAnd1000(long maxMemoryBytes) throws Exception {
    int total = SEGMENT_ROWS + 1_000;
    try (Engine engine = Engine.builder().maxMemoryBytes(maxMemoryBytes).build()) {
      Source source = engine.createSource(SourceSpec.logs("warm-up"));
      long end = System.currentTimeMillis();
      SyntheticLogs logs = new SyntheticLogs(42, end - 24 * 3_600_000L, end);
      EventBatch batch = new EventBatch();
      for (int from = 0; from < total; from += 10_000) {
        batch.clear();
        logs.put(batch, from, Math.min(10_000, total - from), total);
        source.append(batch);
      }
      Await.until("the full heads sealed", () -> source.stats().sealBacklog() == 0);
      SourceStats stats = source.stats();
      assertEquals(total, stats.rows());
      return stats.headRows();
    }
  }
}
