package dev.chartwell.engine.internal.agg;

import java.nio.DoubleBuffer;

/**
 * Sums and extremes over a row range of a dense double column. A mapped column is copied out in
 * chunks that stay in the first-level cache, so the loops read a plain array with no bounds check
 * per value; and the loops keep four independent accumulators, so that consecutive additions do not
 * each wait for the one before (a floating-point addition's latency, not its throughput, bounded
 * the single-accumulator loop).
 *
 * <p>Four accumulators add in another order than one: a sum may differ in its last bits from a sum
 * in row order, which no more defines the answer than the order of segments does. Extremes do not
 * depend on the order.
 */
final class DenseDoubles {
  private DenseDoubles() {}

  /**
   * @param values a column's values by row
   * @param from first row
   * @param to one past the last row
   * @return the sum of the rows' values
   */
  static double sum(DoubleBuffer values, int from, int to) {
    if (values.hasArray()) {
      int base = values.arrayOffset();
      return sum(values.array(), base + from, base + to);
    }
    double[] chunk = Scratch.chunk();
    double total = 0;
    for (int start = from; start < to; start += chunk.length) {
      int n = Math.min(chunk.length, to - start);
      values.get(start, chunk, 0, n);
      total += sum(chunk, 0, n);
    }
    return total;
  }

  /**
   * @param a values
   * @param from first index
   * @param to one past the last index
   * @return their sum
   */
  static double sum(double[] a, int from, int to) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int i = from;
    for (; i + 3 < to; i += 4) {
      s0 += a[i];
      s1 += a[i + 1];
      s2 += a[i + 2];
      s3 += a[i + 3];
    }
    for (; i < to; i++) {
      s0 += a[i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /**
   * @param values a column's values by row
   * @param from first row
   * @param to one past the last row, greater than {@code from}
   * @param max the largest value if true, else the smallest
   * @return the largest or smallest of the rows' values
   */
  static double extreme(DoubleBuffer values, int from, int to, boolean max) {
    if (values.hasArray()) {
      int base = values.arrayOffset();
      return extreme(values.array(), base + from, base + to, max);
    }
    double[] chunk = Scratch.chunk();
    double best = values.get(from);
    for (int start = from; start < to; start += chunk.length) {
      int n = Math.min(chunk.length, to - start);
      values.get(start, chunk, 0, n);
      double b = extreme(chunk, 0, n, max);
      best = max ? Math.max(best, b) : Math.min(best, b);
    }
    return best;
  }

  /**
   * @param a values
   * @param from first index
   * @param to one past the last index, greater than {@code from}
   * @param max the largest value if true, else the smallest
   * @return the largest or smallest of them
   */
  static double extreme(double[] a, int from, int to, boolean max) {
    // The smallest is the negation of the largest negated value: one loop for both directions,
    // with no comparison in it that depends on the direction.
    double sign = max ? 1 : -1;
    double b0 = sign * a[from];
    double b1 = b0;
    double b2 = b0;
    double b3 = b0;
    int i = from + 1;
    for (; i + 3 < to; i += 4) {
      b0 = greater(b0, sign * a[i]);
      b1 = greater(b1, sign * a[i + 1]);
      b2 = greater(b2, sign * a[i + 2]);
      b3 = greater(b3, sign * a[i + 3]);
    }
    for (; i < to; i++) {
      b0 = greater(b0, sign * a[i]);
    }
    return sign * greater(greater(b0, b1), greater(b2, b3));
  }

  /**
   * The greater of two finite values: a plain comparison, cheaper than {@link Math#max}'s NaN
   * rules.
   */
  private static double greater(double a, double b) {
    return b > a ? b : a;
  }
}
