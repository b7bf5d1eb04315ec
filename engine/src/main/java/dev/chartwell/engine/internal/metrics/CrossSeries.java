package dev.chartwell.engine.internal.metrics;

import dev.chartwell.engine.AggFn;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The values of the time series of one (bucket, group), one per time series, and the series'
 * aggregation over them: {@code count} counts time series, {@code sum}, {@code avg}, {@code min},
 * {@code max} and quantiles (exact, linear interpolation between closest ranks, as chart series)
 * take their values, {@code last_value} ({@code any}) the value of the time series whose point is
 * latest (earliest).
 */
final class CrossSeries {
  private double[] values = new double[4];
  private int n;
  private boolean picked;
  private long lastTs;
  private long lastOrder;
  private double last;
  private long firstTs;
  private long firstOrder;
  private double first;

  /**
   * @param v one time series' value in this bucket
   * @param ts the time of the point it was taken at (its last in the bucket)
   * @param order that point's arrival order
   */
  void add(double v, long ts, long order) {
    if (n == values.length) {
      values = Arrays.copyOf(values, n * 2);
    }
    values[n++] = v;
    if (!picked || ts > lastTs || (ts == lastTs && order > lastOrder)) {
      lastTs = ts;
      lastOrder = order;
      last = v;
    }
    if (!picked || ts < firstTs || (ts == firstTs && order < firstOrder)) {
      firstTs = ts;
      firstOrder = order;
      first = v;
    }
    picked = true;
  }

  /**
   * @return bytes held, for the query's memory budget
   */
  long bytes() {
    return 96 + 8L * values.length;
  }

  Number finish(AggFn fn, double level, long bucketMillis) {
    return switch (fn) {
      case COUNT -> (long) n;
      case COUNT_PER_SEC -> n / (bucketMillis / 1000.0);
      case COUNT_PER_MIN -> n / (bucketMillis / 60_000.0);
      case COUNT_PER_HOUR -> n / (bucketMillis / 3_600_000.0);
      case COUNT_DISTINCT -> (long) distinct();
      case SUM -> sum();
      case AVG -> sum() / n;
      case MIN -> Arrays.stream(values, 0, n).min().orElseThrow();
      case MAX -> Arrays.stream(values, 0, n).max().orElseThrow();
      case LAST_VALUE -> last;
      case ANY -> first;
      case QUANTILE, P50, P90, P95, P99 -> quantile(level);
    };
  }

  private double sum() {
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += values[i];
    }
    return s;
  }

  private int distinct() {
    Set<Double> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      seen.add(values[i] == 0 ? 0.0 : values[i]); // -0.0 and 0.0 are one value
    }
    return seen.size();
  }

  private double quantile(double level) {
    double[] sorted = Arrays.copyOf(values, n);
    Arrays.sort(sorted);
    double h = (n - 1) * level;
    int lo = (int) Math.floor(h);
    if (lo + 1 >= n || h == lo) {
      return sorted[lo];
    }
    return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
  }
}
