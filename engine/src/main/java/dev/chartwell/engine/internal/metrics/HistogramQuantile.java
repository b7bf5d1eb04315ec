package dev.chartwell.engine.internal.metrics;

/**
 * A quantile estimated from explicit-bucket histogram counts, by linear interpolation inside the
 * bucket that holds the rank (HyperDX's rule). Bucket {@code i} counts observations up to {@code
 * bounds[i]}; the last bucket (one more than the bounds) is unbounded above.
 */
final class HistogramQuantile {
  private HistogramQuantile() {}

  /**
   * @param counts observations per bucket (at least two buckets)
   * @param bounds the upper bounds of all but the last bucket, ascending
   * @param level the quantile level, 0 to 1
   * @return the estimate, or {@code null} when there is none (no observation, fewer than two
   *     buckets)
   */
  static Double of(double[] counts, double[] bounds, double level) {
    if (counts.length < 2 || bounds.length == 0) {
      return null;
    }
    double[] cum = new double[counts.length];
    double sum = 0;
    for (int i = 0; i < counts.length; i++) {
      sum += counts[i];
      cum[i] = sum;
    }
    double total = sum;
    if (!(total > 0)) {
      return null;
    }
    double rank = level * total;
    int idx = -1;
    for (int i = 0; i < cum.length && idx < 0; i++) {
      if (cum[i] > rank) {
        idx = i;
      }
    }
    for (int i = 0; i < cum.length && idx < 0; i++) {
      if (cum[i] >= rank) {
        idx = i; // level 1: the bucket of the last observation
      }
    }
    if (idx >= bounds.length) {
      return bounds[bounds.length - 1]; // the unbounded bucket: its lower bound is all we know
    }
    double upper = bounds[idx];
    if (idx == 0 && upper <= 0) {
      return bounds[0]; // a first bucket without a known lower bound
    }
    double lower = idx == 0 ? 0 : bounds[idx - 1];
    double lowerCount = idx == 0 ? 0 : cum[idx - 1];
    return lower + (upper - lower) * (rank - lowerCount) / (cum[idx] - lowerCount);
  }
}
