package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import java.util.List;

/**
 * An intermediate value over all steps of an evaluation at once: a scalar has one number per step,
 * a vector one row per label set with a value per step ({@link #ABSENT} where the series has none).
 */
sealed interface Val permits Val.Scalar, Val.Vec, Val.Str {

  /**
   * Marks a step without a value: a signalling NaN no arithmetic produces (operations on it are
   * never made: every path checks {@link #absent(double)} first).
   */
  long ABSENT_BITS = 0x7ff0_0000_0bad_cafeL;

  double ABSENT = Double.longBitsToDouble(ABSENT_BITS);

  static boolean absent(double v) {
    return Double.doubleToRawLongBits(v) == ABSENT_BITS;
  }

  static double[] absentArray(int n) {
    double[] a = new double[n];
    java.util.Arrays.fill(a, ABSENT);
    return a;
  }

  /** A value as read from a series: never mistaken for {@link #ABSENT}. */
  static double sampleValue(double v) {
    return absent(v) ? Double.NaN : v;
  }

  /** One number per step. */
  record Scalar(double[] v) implements Val {}

  /**
   * Series with a value per step.
   *
   * @param rows the series
   * @param order 0 for none, 1 for ascending values (sort), -1 for descending (sort_desc)
   */
  record Vec(List<Row> rows, int order) implements Val {
    Vec(List<Row> rows) {
      this(rows, 0);
    }
  }

  /** A string. */
  record Str(String s) implements Val {}

  /**
   * One series of a vector.
   *
   * @param labels its labels
   * @param v its value per step, {@link #ABSENT} where none
   */
  record Row(Labels labels, double[] v) {
    boolean anyPresent() {
      for (double x : v) {
        if (!absent(x)) {
          return true;
        }
      }
      return false;
    }
  }
}
