package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IngestMeterTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(5 * SECOND); // any start: the meter is relative
  private final IngestMeter meter = new IngestMeter(now::get);

  private void at(double seconds) {
    now.set(5 * SECOND + (long) (seconds * SECOND));
  }

  @Test
  void aFirstBurstCountsOverAtLeastOneSecond() {
    at(0.001);
    meter.record(10_000);
    assertEquals(10_000, meter.perSecond(), 1e-9);
    assertEquals(10_000, meter.total());
  }

  @Test
  void theRateIsAveragedOverTheTimeTheWindowCovers() {
    for (int s = 0; s < 4; s++) {
      at(s + 0.5);
      meter.record(1_000);
    }
    at(4.0);
    assertEquals(1_000, meter.perSecond(), 1e-9, "4,000 events in 4 seconds");
  }

  @Test
  void onlyTheLastTenSecondsCount() {
    for (int s = 0; s < 30; s++) {
      at(s + 0.5);
      meter.record(s < 20 ? 100 : 500);
    }
    at(30.0);
    // The window is seconds 21..30: 21..29 hold 500 each, second 30 has just begun.
    assertEquals(500, meter.perSecond(), 1e-9);
    assertEquals(20 * 100 + 10 * 500, meter.total());
  }

  @Test
  void aPauseLongerThanTheWindowReadsZeroAndOldSlotsAreReused() {
    at(1.5);
    meter.record(700);
    at(25);
    assertEquals(0, meter.perSecond(), 1e-9);
    at(31.5); // the slot of second 1 again: its old count is gone
    meter.record(50);
    at(32);
    assertEquals(50 / 9.0, meter.perSecond(), 1e-9, "50 events over seconds 23..32");
    assertEquals(750, meter.total());
  }

  @Test
  void nothingRecordedIsZero() {
    at(3);
    meter.record(0);
    meter.record(-4);
    assertEquals(0, meter.perSecond(), 1e-9);
    assertEquals(0, meter.total());
  }
}
