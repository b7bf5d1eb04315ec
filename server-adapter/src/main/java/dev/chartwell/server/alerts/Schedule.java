package dev.chartwell.server.alerts;

import java.util.ArrayList;
import java.util.List;

/**
 * The windows of an alert, as HyperDX places them: back to back, each as long as the interval,
 * aligned on UTC multiples of the interval ({@code floor(t / interval) * interval}), shifted by
 * {@code scheduleOffsetMinutes}, or counted from {@code scheduleStartAt} when that is set (the
 * offset is then ignored). A window is evaluated once, after it closes; windows missed (the server
 * was down, a query failed) are evaluated later, oldest first, at most {@link #MAX_BACKFILL} of
 * them reaching back at most 6 hours for intervals under 15 minutes and 24 hours otherwise.
 *
 * @param intervalMillis the window length
 * @param offsetMillis the shift of the grid, less than the interval
 * @param startAt the first window's start, epoch ms, or {@code null}
 */
public record Schedule(long intervalMillis, long offsetMillis, Long startAt) {
  /** The most windows evaluated for one alert at once. */
  public static final int MAX_BACKFILL = 50;

  private static final long MINUTE = 60_000;

  /** Checks the lengths. */
  public Schedule {
    if (intervalMillis < MINUTE || intervalMillis % MINUTE != 0) {
      throw new IllegalArgumentException("interval must be whole minutes: " + intervalMillis);
    }
    if (offsetMillis < 0 || offsetMillis >= intervalMillis) {
      throw new IllegalArgumentException("offset must be less than the interval: " + offsetMillis);
    }
  }

  /**
   * @param interval {@code 1m 5m 15m 30m 1h 6h 12h 1d}
   * @return its length in milliseconds
   * @throws IllegalArgumentException for another text
   */
  public static long intervalMillis(String interval) {
    return switch (interval) {
      case "1m" -> MINUTE;
      case "5m" -> 5 * MINUTE;
      case "15m" -> 15 * MINUTE;
      case "30m" -> 30 * MINUTE;
      case "1h" -> 60 * MINUTE;
      case "6h" -> 360 * MINUTE;
      case "12h" -> 720 * MINUTE;
      case "1d" -> 1440 * MINUTE;
      default -> throw new IllegalArgumentException("unknown interval " + interval);
    };
  }

  /**
   * @param now a time, epoch ms
   * @return the end of the latest window closed at {@code now} (a point of the grid at or before
   *     it), or {@code Long.MIN_VALUE} before the first window of {@code startAt} has closed
   */
  public long lastClosedEnd(long now) {
    long end;
    if (startAt != null) {
      end = startAt + Math.floorDiv(now - startAt, intervalMillis) * intervalMillis;
      return end - intervalMillis < startAt ? Long.MIN_VALUE : end;
    }
    return Math.floorDiv(now - offsetMillis, intervalMillis) * intervalMillis + offsetMillis;
  }

  /**
   * @param lastEnd the end of the last window evaluated, or {@code Long.MIN_VALUE} when none was
   * @param now the time of evaluation
   * @return the windows due now, oldest first: those closed since {@code lastEnd} (only the latest
   *     closed one when nothing was evaluated yet), bounded as the class says
   */
  public List<Window> due(long lastEnd, long now) {
    long end = lastClosedEnd(now);
    if (end == Long.MIN_VALUE || end <= lastEnd) {
      return List.of();
    }
    long lookback = intervalMillis < 15 * MINUTE ? 6 * 60 * MINUTE : 24 * 60 * MINUTE;
    int count = lastEnd == Long.MIN_VALUE ? 1 : MAX_BACKFILL;
    List<Window> out = new ArrayList<>();
    for (long e = end; e > lastEnd && out.size() < count; e -= intervalMillis) {
      long start = e - intervalMillis;
      if (end - start > lookback || (startAt != null && start < startAt)) {
        break;
      }
      out.add(0, new Window(start, e));
    }
    return out;
  }
}
