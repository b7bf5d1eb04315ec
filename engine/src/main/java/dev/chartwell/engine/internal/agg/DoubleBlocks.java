package dev.chartwell.engine.internal.agg;

import java.nio.DoubleBuffer;

/**
 * The sum, minimum and maximum of each block of {@link #ROWS} rows of a dense double column, so
 * that an aggregate over a long row range reads one entry per whole block and only the rows of the
 * two partial blocks at its ends. Derived once per segment and column (24 bytes per block, about
 * 0.02 bytes per row) and kept with the segment.
 */
final class DoubleBlocks {
  /** Rows per block. */
  static final int ROWS = 1024;

  private final DoubleBuffer values;
  private final double[] sums;
  private final double[] mins;
  private final double[] maxs;

  private DoubleBlocks(DoubleBuffer values, double[] sums, double[] mins, double[] maxs) {
    this.values = values;
    this.sums = sums;
    this.mins = mins;
    this.maxs = maxs;
  }

  /**
   * @param values a column's values by row, every row present
   * @param rows the segment's rows
   * @return the column's block summaries
   */
  static DoubleBlocks of(DoubleBuffer values, int rows) {
    int blocks = rows / ROWS; // a last partial block is read row by row
    double[] sums = new double[blocks];
    double[] mins = new double[blocks];
    double[] maxs = new double[blocks];
    double[] block = new double[ROWS];
    for (int b = 0; b < blocks; b++) {
      values.get(b * ROWS, block, 0, ROWS); // copied once, read three times
      sums[b] = DenseDoubles.sum(block, 0, ROWS);
      mins[b] = DenseDoubles.extreme(block, 0, ROWS, false);
      maxs[b] = DenseDoubles.extreme(block, 0, ROWS, true);
    }
    return new DoubleBlocks(values, sums, mins, maxs);
  }

  /**
   * @param from first row
   * @param to one past the last row
   * @return the sum of the rows' values
   */
  double sum(int from, int to) {
    int first = (from + ROWS - 1) / ROWS;
    int last = Math.min(to / ROWS, sums.length);
    if (first >= last) {
      return DenseDoubles.sum(values, from, to);
    }
    double s = DenseDoubles.sum(values, from, first * ROWS);
    for (int b = first; b < last; b++) {
      s += sums[b];
    }
    return s + DenseDoubles.sum(values, last * ROWS, to);
  }

  /**
   * @param from first row
   * @param to one past the last row, greater than {@code from}
   * @param max the largest value if true, else the smallest
   * @return the largest or smallest of the rows' values
   */
  double extreme(int from, int to, boolean max) {
    int first = (from + ROWS - 1) / ROWS;
    int last = Math.min(to / ROWS, sums.length);
    if (first >= last) {
      return DenseDoubles.extreme(values, from, to, max);
    }
    double[] blocks = max ? maxs : mins;
    double best = DenseDoubles.extreme(blocks, first, last, max);
    if (from < first * ROWS) {
      best = better(best, DenseDoubles.extreme(values, from, first * ROWS, max), max);
    }
    if (last * ROWS < to) {
      best = better(best, DenseDoubles.extreme(values, last * ROWS, to, max), max);
    }
    return best;
  }

  private static double better(double a, double b, boolean max) {
    return max ? Math.max(a, b) : Math.min(a, b);
  }
}
