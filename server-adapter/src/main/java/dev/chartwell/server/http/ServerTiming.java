package dev.chartwell.server.http;

/**
 * The {@code Server-Timing} header of one response: durations a handler reports (the chart query
 * reports {@code engine}), then {@code read} (receiving the request body, when the route reads
 * one), {@code write} (turning the answer into JSON), {@code gzip} when the answer is compressed,
 * and {@code total} (from the moment the request was dispatched until its answer was ready to
 * send), in milliseconds.
 *
 * <p>Not thread-safe: one request's handler thread uses it.
 */
public final class ServerTiming {
  private final long startNanos;
  private final StringBuilder header = new StringBuilder(64);

  /**
   * @param startNanos when the request was dispatched ({@link System#nanoTime()})
   */
  ServerTiming(long startNanos) {
    this.startNanos = startNanos;
  }

  /** When the request was dispatched ({@link System#nanoTime()}). */
  long start() {
    return startNanos;
  }

  /**
   * Adds one duration.
   *
   * @param metric its name: letters, digits, {@code -} and {@code _}
   * @param nanos how long it took
   */
  public void add(String metric, long nanos) {
    if (!isToken(metric)) {
      throw new IllegalArgumentException("not a Server-Timing metric name: " + metric);
    }
    if (header.length() > 0) {
      header.append(", ");
    }
    header.append(metric).append(";dur=");
    appendMillis(header, nanos);
  }

  /** Letters, digits, {@code -} and {@code _}, checked without a regular expression per call. */
  private static boolean isToken(String metric) {
    if (metric.isEmpty()) {
      return false;
    }
    for (int i = 0; i < metric.length(); i++) {
      char c = metric.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param endNanos now ({@link System#nanoTime()})
   * @return the header's value, ending with {@code total}
   */
  String header(long endNanos) {
    add("total", endNanos - startNanos);
    return header.toString();
  }

  /** Milliseconds with three decimals (microsecond resolution), without formatting machinery. */
  static void appendMillis(StringBuilder sb, long nanos) {
    long micros = Math.max(0, (nanos + 500) / 1000);
    sb.append(micros / 1000).append('.');
    long frac = micros % 1000;
    if (frac < 100) {
      sb.append('0');
    }
    if (frac < 10) {
      sb.append('0');
    }
    sb.append(frac);
  }
}
