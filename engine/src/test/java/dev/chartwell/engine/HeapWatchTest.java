package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HeapWatchTest {
  private final AtomicInteger collections = new AtomicInteger();
  private long liveAfterFull = 40;
  private final HeapWatch watch =
      new HeapWatch(
          100,
          () -> {
            collections.incrementAndGet();
            return liveAfterFull;
          });

  @Test
  void aYoungCollectionsReadingOverTheLimitIsConfirmedByAFullOneBeforeRefusing() {
    // The failure this guards against: a young collection's reading counted dead arrays of the
    // old generation, and a 128 MB server refused a body it had room for.
    watch.record(90, false);
    assertFalse(watch.over(0.85));
    assertEquals(1, collections.get());
    assertEquals(0.40, watch.occupancyAfterGc(), 1e-9);
  }

  @Test
  void aFullCollectionsReadingOverTheLimitRefusesWithoutAnotherCollection() {
    watch.record(90, true);
    assertTrue(watch.over(0.85));
    assertEquals(0, collections.get());
  }

  @Test
  void aConfirmedHighReadingRefusesAndConfirmationsAreRateLimited() {
    liveAfterFull = 95;
    watch.record(90, false);
    assertTrue(watch.over(0.85));
    watch.record(92, false);
    assertTrue(watch.over(0.85), "the young reading within the interval still refuses");
    assertEquals(1, collections.get(), "at most one confirming collection per interval");
  }

  @Test
  void readingsUnderTheLimitNeverCollect() {
    watch.record(50, false);
    assertFalse(watch.over(0.85));
    assertEquals(0, collections.get());
  }
}
