package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where windows fall, which are due, and how far back missed ones are caught up. */
class ScheduleTest {
  static final long M = 60_000;
  static final long T = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
  static final long[] INTERVALS = {1, 5, 15, 30, 60, 360, 720, 1440};

  @Test
  void windowsAreAlignedOnUtcMultiplesOfTheInterval() {
    Schedule fiveMinutes = new Schedule(5 * M, 0, null);
    assertEquals(T + 5 * M, fiveMinutes.lastClosedEnd(T + 7 * M + 30_000));
    assertEquals(T + 5 * M, fiveMinutes.lastClosedEnd(T + 5 * M), "closed at its end");
    assertEquals(
        List.of(new Window(T, T + 5 * M)),
        fiveMinutes.due(Long.MIN_VALUE, T + 5 * M + 1000),
        "a new alert evaluates the window that closed last");
    assertEquals(List.of(), fiveMinutes.due(T + 5 * M, T + 9 * M), "nothing new closed");
  }

  @Test
  void anOffsetShiftsTheGrid() {
    Schedule s = new Schedule(5 * M, 2 * M, null);
    assertEquals(T + 2 * M, s.lastClosedEnd(T + 6 * M));
    assertEquals(T + 7 * M, s.lastClosedEnd(T + 7 * M));
    assertEquals(List.of(new Window(T + 2 * M, T + 7 * M)), s.due(T + 2 * M, T + 8 * M));
  }

  @Test
  void aStartTimeAnchorsTheGridAndNothingIsDueBeforeItsFirstWindowCloses() {
    long start = T + 3 * M + 20_000;
    Schedule s = new Schedule(15 * M, 0, start);
    assertEquals(List.of(), s.due(Long.MIN_VALUE, start + 14 * M));
    assertEquals(List.of(new Window(start, start + 15 * M)), s.due(Long.MIN_VALUE, start + 15 * M));
    assertEquals(
        List.of(new Window(start, start + 15 * M), new Window(start + 15 * M, start + 30 * M)),
        s.due(start - 1, start + 31 * M),
        "backfill never reaches before the start");
  }

  @Test
  void missedWindowsAreBackfilledOldestFirstWithinBounds() {
    Schedule minute = new Schedule(M, 0, null);
    List<Window> due = minute.due(T, T + 10 * M);
    assertEquals(10, due.size());
    assertEquals(new Window(T, T + M), due.get(0));
    assertEquals(Schedule.MAX_BACKFILL, minute.due(T, T + 1000 * M).size(), "at most 50 windows");
    assertEquals(
        new Window(T + 950 * M, T + 951 * M), minute.due(T, T + 1000 * M).get(0), "the latest 50");
    Schedule day = new Schedule(1440 * M, 0, null);
    assertEquals(1, day.due(T - 10 * 1440 * M, T + 10 * M).size(), "24 hours back at most");
    Schedule sixHours = new Schedule(360 * M, 0, null);
    assertEquals(4, sixHours.due(T - 30 * 360 * M, T).size());
  }

  /** The laws of due windows, for every interval, offset, last window and time. */
  @Test
  void dueWindowsAreContiguousClosedAlignedAndBounded() {
    qt().withExamples(2000)
        .forAll(
            integers().between(0, INTERVALS.length - 1),
            longs().between(0, 1439),
            longs().between(-3 * 1440, 3 * 1440),
            longs().between(0, 10_000_000))
        .checkAssert(
            (k, offsetMinutes, lastShift, nowShift) -> {
              long interval = INTERVALS[k] * M;
              long offset = (offsetMinutes % INTERVALS[k]) * M;
              Schedule s = new Schedule(interval, offset, null);
              long now = T + nowShift * 17;
              long lastEnd = s.lastClosedEnd(T + lastShift * M);
              List<Window> due = s.due(lastEnd, now);
              for (int i = 0; i < due.size(); i++) {
                Window w = due.get(i);
                assertEquals(interval, w.end() - w.start());
                assertEquals(0, Math.floorMod(w.end() - offset, interval), "aligned");
                assertTrue(w.end() <= now, "closed");
                assertTrue(w.start() >= lastEnd, "not evaluated before");
                if (i > 0) {
                  assertEquals(due.get(i - 1).end(), w.start(), "contiguous");
                }
              }
              assertTrue(due.size() <= Schedule.MAX_BACKFILL);
              if (!due.isEmpty()) {
                assertEquals(s.lastClosedEnd(now), due.get(due.size() - 1).end(), "up to now");
              } else {
                assertTrue(s.lastClosedEnd(now) <= lastEnd);
              }
            });
  }
}
