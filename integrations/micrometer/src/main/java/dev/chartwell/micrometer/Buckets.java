package dev.chartwell.micrometer;

import java.util.Arrays;
import java.util.NavigableSet;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts of recorded values per explicit bucket since the meter was made, as an OpenTelemetry
 * cumulative histogram holds them: bucket {@code i} counts the values in {@code (bounds[i-1],
 * bounds[i]]}, the last one those above every bound. (Micrometer's own histograms decay over a time
 * window, which a cumulative histogram must not.)
 */
final class Buckets {
  /**
   * OpenTelemetry's default explicit bounds, used when a meter asks for no histogram of its own
   * (milliseconds for timers).
   */
  static final double[] OTEL_DEFAULT_BOUNDS = {
    0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000
  };

  private final double[] bounds;
  private final AtomicLongArray counts;

  /**
   * @param bounds the upper bounds, ascending, in the unit values are recorded in
   */
  Buckets(double[] bounds) {
    this.bounds = bounds.clone();
    this.counts = new AtomicLongArray(bounds.length + 1);
  }

  /**
   * @param configured the bounds a meter's configuration asks for (possibly none)
   * @param scale multiplies each configured bound (nanoseconds to a timer's unit)
   * @param defaults the bounds to use when none are configured, in the recorded unit
   * @return the buckets
   */
  static Buckets of(NavigableSet<Double> configured, double scale, double[] defaults) {
    if (configured == null || configured.isEmpty()) {
      return new Buckets(defaults);
    }
    double[] b = new double[configured.size()];
    int i = 0;
    for (double d : configured) {
      b[i++] = d * scale;
    }
    return new Buckets(b);
  }

  void record(double value) {
    int i = Arrays.binarySearch(bounds, value);
    counts.incrementAndGet(i >= 0 ? i : -i - 1);
  }

  /**
   * @return the bounds as a JSON array
   */
  String boundsJson() {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < bounds.length; i++) {
      out.append(i == 0 ? "" : ",").append(number(bounds[i]));
    }
    return out.append(']').toString();
  }

  /**
   * @return the counts as a JSON array, one more than the bounds
   */
  String countsJson() {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < counts.length(); i++) {
      out.append(i == 0 ? "" : ",").append(counts.get(i));
    }
    return out.append(']').toString();
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
