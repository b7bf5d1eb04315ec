package dev.chartwell.server.alerts;

/**
 * One evaluation window of an alert: events with {@code start <= timestamp < end}, epoch ms.
 *
 * @param start the first millisecond
 * @param end the millisecond after the last
 */
public record Window(long start, long end) {
  /** Checks the order. */
  public Window {
    if (end <= start) {
      throw new IllegalArgumentException("a window ends after it starts: " + start + ", " + end);
    }
  }
}
