package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.promql.Expr.MatrixSelector;
import java.util.Arrays;

/** The functions of a range vector, as Prometheus 2.42 computes them (same order of operations). */
final class RangeFunctions {
  private RangeFunctions() {}

  /**
   * Evaluates {@code f(matrix)} (with a scalar first argument for quantile_over_time).
   *
   * @param q the per-step scalar argument, or null
   */
  static Val.Vec eval(Function f, MatrixSelector ms, double[] q, Steps steps) {
    return switch (f) {
      case RATE -> Selectors.range(ms, steps, false, extrapolated(ms, true, true));
      case INCREASE -> Selectors.range(ms, steps, false, extrapolated(ms, true, false));
      case DELTA -> Selectors.range(ms, steps, false, extrapolated(ms, false, false));
      case IRATE ->
          Selectors.range(
              ms, steps, false, (ts, v, lo, hi, a, b, i) -> instant(ts, v, lo, hi, true));
      case IDELTA ->
          Selectors.range(
              ms, steps, false, (ts, v, lo, hi, a, b, i) -> instant(ts, v, lo, hi, false));
      case DERIV -> Selectors.range(ms, steps, false, RangeFunctions::deriv);
      case RESETS -> Selectors.range(ms, steps, false, RangeFunctions::resets);
      case CHANGES -> Selectors.range(ms, steps, false, RangeFunctions::changes);
      case AVG_OVER_TIME -> Selectors.range(ms, steps, false, RangeFunctions::avg);
      case MIN_OVER_TIME ->
          Selectors.range(ms, steps, false, (ts, v, lo, hi, a, b, i) -> minMax(v, lo, hi, false));
      case MAX_OVER_TIME ->
          Selectors.range(ms, steps, false, (ts, v, lo, hi, a, b, i) -> minMax(v, lo, hi, true));
      case SUM_OVER_TIME -> Selectors.range(ms, steps, false, RangeFunctions::sum);
      case COUNT_OVER_TIME ->
          Selectors.range(ms, steps, false, (ts, v, lo, hi, a, b, i) -> hi - lo);
      case PRESENT_OVER_TIME -> Selectors.range(ms, steps, false, (ts, v, lo, hi, a, b, i) -> 1);
      case LAST_OVER_TIME ->
          Selectors.range(ms, steps, true, (ts, v, lo, hi, a, b, i) -> v[hi - 1]);
      case STDDEV_OVER_TIME ->
          Selectors.range(
              ms, steps, false, (ts, v, lo, hi, a, b, i) -> Math.sqrt(variance(v, lo, hi)));
      case STDVAR_OVER_TIME ->
          Selectors.range(ms, steps, false, (ts, v, lo, hi, a, b, i) -> variance(v, lo, hi));
      case QUANTILE_OVER_TIME ->
          Selectors.range(
              ms,
              steps,
              false,
              (ts, v, lo, hi, a, b, i) ->
                  Aggregations.quantile(q[i], Arrays.copyOfRange(v, lo, hi)));
      default -> throw new IllegalStateException("not a range function: " + f);
    };
  }

  private static Selectors.WindowFunction extrapolated(
      MatrixSelector ms, boolean counter, boolean rate) {
    return new Extrapolated(ms.rangeMs() / 1000.0, counter, rate);
  }

  /**
   * {@code rate}, {@code increase} and {@code delta}: the change over a window, extrapolated to its
   * edges as Prometheus does. It keeps the reset index of the series it last read, so each thread
   * has its own.
   */
  private static final class Extrapolated implements Selectors.WindowFunction {
    private final double rangeSeconds;
    private final boolean counter;
    private final boolean rate;
    private final ResetIndex resets;

    Extrapolated(double rangeSeconds, boolean counter, boolean rate) {
      this.rangeSeconds = rangeSeconds;
      this.counter = counter;
      this.rate = rate;
      this.resets = counter ? new ResetIndex() : null;
    }

    @Override
    public Selectors.WindowFunction forAnotherThread() {
      return new Extrapolated(rangeSeconds, counter, rate);
    }

    @Override
    public double apply(
        long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step) {
      int n = hi - lo;
      if (n < 2) {
        return Val.ABSENT;
      }
      double first = v[lo];
      double last = v[hi - 1];
      double result = last - first;
      if (counter && resets.any(v, lo, hi)) {
        double prev = first;
        for (int k = lo + 1; k < hi; k++) {
          if (v[k] < prev) {
            result += prev;
          }
          prev = v[k];
        }
      }
      double durationToStart = (ts[lo] - rangeStart) / 1000.0;
      double durationToEnd = (rangeEnd - ts[hi - 1]) / 1000.0;
      double sampled = (ts[hi - 1] - ts[lo]) / 1000.0;
      double avgGap = sampled / (n - 1);
      if (counter && result > 0 && first >= 0) {
        double durationToZero = sampled * (first / result);
        if (durationToZero < durationToStart) {
          durationToStart = durationToZero;
        }
      }
      double threshold = avgGap * 1.1;
      double interval = sampled;
      interval += durationToStart < threshold ? durationToStart : avgGap / 2;
      interval += durationToEnd < threshold ? durationToEnd : avgGap / 2;
      // The factor first, then one multiplication: Prometheus' order, to the last bit.
      double factor = interval / sampled;
      if (rate) {
        factor /= rangeSeconds;
      }
      return result * factor;
    }
  }

  private static double instant(long[] ts, double[] v, int lo, int hi, boolean rate) {
    if (hi - lo < 2) {
      return Val.ABSENT;
    }
    double last = v[hi - 1];
    double prev = v[hi - 2];
    double result = rate && last < prev ? last : last - prev;
    if (!rate) {
      return result;
    }
    long gap = ts[hi - 1] - ts[hi - 2];
    if (gap == 0) {
      return Val.ABSENT;
    }
    return result / (gap / 1000.0);
  }

  private static double deriv(
      long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step) {
    if (hi - lo < 2) {
      return Val.ABSENT;
    }
    long intercept = ts[lo];
    double n = 0;
    double initY = v[lo];
    boolean constY = true;
    Kahan sumX = new Kahan();
    Kahan sumY = new Kahan();
    Kahan sumXY = new Kahan();
    Kahan sumX2 = new Kahan();
    for (int k = lo; k < hi; k++) {
      if (constY && k > lo && v[k] != initY) {
        constY = false;
      }
      n += 1;
      double x = (ts[k] - intercept) / 1e3;
      sumX.add(x);
      sumY.add(v[k]);
      sumXY.add(x * v[k]);
      sumX2.add(x * x);
    }
    if (constY) {
      return Double.isInfinite(initY) ? Double.NaN : 0;
    }
    double sx = sumX.value();
    double sy = sumY.value();
    double sxy = sumXY.value();
    double sx2 = sumX2.value();
    double covXY = sxy - sx * sy / n;
    double varX = sx2 - sx * sx / n;
    return covXY / varX;
  }

  private static double resets(
      long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step) {
    int count = 0;
    for (int k = lo + 1; k < hi; k++) {
      if (v[k] < v[k - 1]) {
        count++;
      }
    }
    return count;
  }

  private static double changes(
      long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step) {
    int count = 0;
    for (int k = lo + 1; k < hi; k++) {
      double cur = v[k];
      double prev = v[k - 1];
      if (!(cur == prev || (Double.isNaN(cur) && Double.isNaN(prev)))) {
        count++;
      }
    }
    return count;
  }

  private static double avg(
      long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step) {
    double mean = 0;
    double c = 0;
    double count = 0;
    for (int k = lo; k < hi; k++) {
      double x = v[k];
      count++;
      if (Double.isInfinite(mean)) {
        if (Double.isInfinite(x) && (mean > 0) == (x > 0)) {
          continue;
        }
        if (!Double.isInfinite(x) && !Double.isNaN(x)) {
          continue;
        }
      }
      double inc = x / count - mean / count;
      double t = mean + inc;
      c += Math.abs(mean) >= Math.abs(inc) ? (mean - t) + inc : (inc - t) + mean;
      mean = t;
    }
    return Double.isInfinite(mean) ? mean : mean + c;
  }

  private static double sum(
      long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step) {
    Kahan s = new Kahan();
    for (int k = lo; k < hi; k++) {
      s.add(v[k]);
    }
    return Double.isInfinite(s.sum) ? s.sum : s.sum + s.c;
  }

  private static double minMax(double[] v, int lo, int hi, boolean max) {
    double r = v[lo];
    for (int k = lo + 1; k < hi; k++) {
      double x = v[k];
      if ((max ? r < x : r > x) || Double.isNaN(r)) {
        r = x;
      }
    }
    return r;
  }

  private static double variance(double[] v, int lo, int hi) {
    double count = 0;
    Kahan mean = new Kahan();
    Kahan aux = new Kahan();
    for (int k = lo; k < hi; k++) {
      count++;
      double delta = v[k] - (mean.sum + mean.c);
      mean.add(delta / count);
      aux.add(delta * (v[k] - (mean.sum + mean.c)));
    }
    return (aux.sum + aux.c) / count;
  }

  /**
   * Counts counter resets of one series once, so that a window without any (the usual case) skips
   * the loop that adds them back. Remembers the last series' values: a series is evaluated for all
   * steps before the next one, on one thread.
   */
  private static final class ResetIndex {
    private double[] of;
    private int[] before;

    boolean any(double[] v, int lo, int hi) {
      if (of != v) {
        before = new int[v.length];
        for (int k = 1; k < v.length; k++) {
          before[k] = before[k - 1] + (v[k] < v[k - 1] ? 1 : 0);
        }
        of = v;
      }
      return before[hi - 1] != before[lo];
    }
  }

  /** Kahan-Neumaier summation, as Prometheus' kahanSumInc. */
  static final class Kahan {
    double sum;
    double c;

    void add(double inc) {
      double t = sum + inc;
      if (Math.abs(sum) >= Math.abs(inc)) {
        c += (sum - t) + inc;
      } else {
        c += (inc - t) + sum;
      }
      sum = t;
    }

    double value() {
      return sum + c;
    }
  }
}
