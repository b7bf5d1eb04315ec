package dev.chartwell.engine.agg;

import java.nio.DoubleBuffer;
import java.util.Arrays;

/**
 * Exact quantiles per group of one bucket at a time, for buckets whose values no other segment
 * shares, so that each group's answer is final when the bucket ends. A bucket's values are gathered
 * with their group ids in arrival order, placed group by group in one counting pass, and each
 * group's quantile is selected within its slice. The arrays are reused from bucket to bucket: no
 * state object or array of values is made per (bucket, group), which is what {@link AggState}'s
 * quantile costs when many small groups each keep their own values.
 *
 * <p>The answer is the one {@link AggState#finish} of a quantile state gives for the same values:
 * both select with {@link Selection}.
 */
public final class GroupQuantiles {
  private final double level;

  /** Values per group id, zero outside {@link #drain}. */
  private final int[] counts;

  private double[] values = new double[1024];
  private int[] groupOf = new int[1024];
  private double[] placed = new double[1024];
  private int[] met = new int[64];
  private double[] results = new double[64];
  private int metCount;
  private int n;

  /**
   * @param level the quantile level, between 0 and 1
   * @param bound one more than the greatest group id
   */
  public GroupQuantiles(double level, int bound) {
    this.level = level;
    this.counts = new int[bound];
  }

  /**
   * Adds a batch of the bucket's rows.
   *
   * @param ids each row's group id, below the bound
   * @param dense the field's values by row, every row present and finite
   * @param rows the rows
   * @param count how many
   */
  public void add(int[] ids, DoubleBuffer dense, int[] rows, int count) {
    if (n + count > values.length) {
      int size = Math.max(n + count, values.length * 2);
      values = Arrays.copyOf(values, size);
      groupOf = Arrays.copyOf(groupOf, size);
      placed = new double[size];
    }
    for (int i = 0; i < count; i++) {
      int g = ids[i];
      if (counts[g]++ == 0) {
        if (metCount == met.length) {
          met = Arrays.copyOf(met, metCount * 2);
        }
        met[metCount++] = g;
      }
      groupOf[n + i] = g;
      values[n + i] = dense.get(rows[i]);
    }
    n += count;
  }

  /**
   * Finds the quantile of each group met since the last drain and starts the next bucket.
   *
   * @return how many groups were met; {@link #group} and {@link #quantile} give them in ascending
   *     group id until the next {@link #add}
   */
  public int drain() {
    Arrays.sort(met, 0, metCount);
    if (results.length < metCount) {
      results = new double[met.length];
    }
    // counts become each group's end in placed, then its start as values are placed
    int end = 0;
    for (int k = 0; k < metCount; k++) {
      end += counts[met[k]];
      counts[met[k]] = end;
    }
    for (int i = n - 1; i >= 0; i--) {
      placed[--counts[groupOf[i]]] = values[i];
    }
    for (int k = 0; k < metCount; k++) {
      int g = met[k];
      int from = counts[g];
      int to = k + 1 < metCount ? counts[met[k + 1]] : n;
      counts[g] = 0;
      results[k] = Selection.quantile(placed, from, to - from, level);
    }
    int groups = metCount;
    metCount = 0;
    n = 0;
    return groups;
  }

  /**
   * @param k from 0 to what {@link #drain} returned, less one
   * @return the k-th group's id
   */
  public int group(int k) {
    return met[k];
  }

  /**
   * @param k from 0 to what {@link #drain} returned, less one
   * @return the k-th group's quantile
   */
  public double quantile(int k) {
    return results[k];
  }

  /**
   * @return the bytes of the arrays held, for the query's memory budget
   */
  public long bytes() {
    return 20L * values.length + 4L * counts.length + 12L * met.length;
  }
}
