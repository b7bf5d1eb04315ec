package dev.chartwell.prometheus;

import java.util.Objects;

/**
 * One series' samples in time order (strictly increasing timestamps, milliseconds since the epoch).
 * A staleness marker is the value {@link #STALE_NAN}, told apart from an ordinary NaN by its bits
 * ({@link #isStale(double)}).
 *
 * @param labels the series' labels
 * @param timestamps sample times, strictly increasing
 * @param values sample values, one per timestamp
 */
public record SeriesData(Labels labels, long[] timestamps, double[] values) {
  /** Prometheus' staleness marker: a NaN with this exact bit pattern. */
  public static final long STALE_NAN_BITS = 0x7ff0000000000002L;

  /** The staleness marker as a double. */
  public static final double STALE_NAN = Double.longBitsToDouble(STALE_NAN_BITS);

  /**
   * Checks that there is one value per timestamp.
   *
   * @throws IllegalArgumentException when the lengths differ
   */
  public SeriesData {
    Objects.requireNonNull(labels, "labels");
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException(
          "a series has " + timestamps.length + " timestamps and " + values.length + " values");
    }
  }

  /**
   * Whether a value is a staleness marker (not just any NaN).
   *
   * @param v a sample value
   * @return true for {@link #STALE_NAN}
   */
  public static boolean isStale(double v) {
    return Double.doubleToRawLongBits(v) == STALE_NAN_BITS;
  }

  /**
   * The number of samples.
   *
   * @return how many samples
   */
  public int size() {
    return timestamps.length;
  }
}
