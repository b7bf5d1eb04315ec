package dev.chartwell.engine.internal.agg;

import java.nio.DoubleBuffer;
import java.util.Arrays;

/**
 * Exact quantiles per group of one bucket at a time. A bucket's values are gathered with their
 * group ids in arrival order and placed group by group in one counting pass. Where no other segment
 * has values in the bucket, each group's answer is final: its quantile is selected within its
 * slice, and no state object or array of values is made per (bucket, group), which is what a
 * quantile {@link AggState} per group costs when many small groups each keep their own values.
 * Elsewhere a group's slice becomes a state to merge. The arrays are reused from bucket to bucket.
 *
 * <p>The answer is the one {@link AggState#finish} of a quantile state gives for the same values:
 * both select with {@link Selection}.
 */
public final class GroupQuantiles {
  private static final int INITIAL = 64;

  private final double level;

  /** Values per group id, zero outside {@link #drain}. */
  private final int[] counts;

  // The arrays start small and grow to the largest bucket: a start-up warm-up over small buckets
  // then runs the growth too, and the JIT compiles it instead of leaving a trap that deoptimizes
  // the query's code at the first real bucket of more values (it did, with 1,024 to start).
  private double[] values = new double[INITIAL];
  private int[] groupOf = new int[INITIAL];
  private double[] placed = new double[INITIAL];
  private int[] met = new int[8];
  private double[] work = Selection.work(INITIAL);
  private int[] starts = new int[9];
  private int metCount;
  private int n;

  /** Whether the bucket's values came in one batch and are placed group by group already. */
  private boolean placedWhole;

  /**
   * @param level the quantile level, between 0 and 1
   * @param bound one more than the greatest group id
   */
  public GroupQuantiles(double level, int bound) {
    this.level = level;
    this.counts = new int[bound];
  }

  /**
   * Adds a batch of the bucket's rows. A bucket whose rows all come in one batch (the common case:
   * a batch holds thousands of rows) has its values placed group by group at once, read in the same
   * pass that places them; otherwise they are gathered in arrival order and placed by {@link
   * #drain}. Both leave each group's values in arrival order.
   *
   * @param ids each row's group id, below the bound
   * @param dense the field's values by row, every row present and finite
   * @param rows the rows
   * @param count how many
   * @param last whether no more rows of the bucket follow before {@link #drain}
   */
  public void add(int[] ids, DoubleBuffer dense, int[] rows, int count, boolean last) {
    if (n == 0 && last) {
      placeWhole(ids, dense, rows, count);
      return;
    }
    if (n + count > values.length) {
      int size = Math.max(n + count, values.length * 2);
      values = Arrays.copyOf(values, size);
      groupOf = Arrays.copyOf(groupOf, size);
      placed = new double[size];
    }
    for (int i = 0; i < count; i++) {
      int g = ids[i];
      count(g);
      groupOf[n + i] = g;
      values[n + i] = dense.get(rows[i]);
    }
    n += count;
  }

  /** Counts a value of group g, noting the group when it is the first of the bucket's. */
  private void count(int g) {
    if (counts[g]++ == 0) {
      if (metCount == met.length) {
        met = Arrays.copyOf(met, metCount * 2);
      }
      met[metCount++] = g;
    }
  }

  /** The bucket's one batch: counted per group, then each value read and put in its place. */
  private void placeWhole(int[] ids, DoubleBuffer dense, int[] rows, int count) {
    if (count > placed.length) {
      int size = Math.max(count, placed.length * 2);
      values = new double[size];
      groupOf = new int[size];
      placed = new double[size];
    }
    for (int i = 0; i < count; i++) {
      count(ids[i]);
    }
    Arrays.sort(met, 0, metCount);
    // counts become each group's start in placed, then its end as values are placed
    int start = 0;
    for (int k = 0; k < metCount; k++) {
      int c = counts[met[k]];
      counts[met[k]] = start;
      start += c;
    }
    for (int i = 0; i < count; i++) {
      placed[counts[ids[i]]++] = dense.get(rows[i]);
    }
    n = count;
    placedWhole = true;
  }

  /**
   * Places the values of each group met since the last drain together and starts the next bucket.
   *
   * @return how many groups were met; {@link #group}, {@link #quantile} and {@link #state} give
   *     them in ascending group id until the next {@link #add}
   */
  public int drain() {
    if (starts.length <= metCount) {
      starts = new int[met.length + 1];
    }
    if (placedWhole) {
      // counts hold each group's end in placed
      int start = 0;
      for (int k = 0; k < metCount; k++) {
        starts[k] = start;
        start = counts[met[k]];
        counts[met[k]] = 0;
      }
    } else {
      Arrays.sort(met, 0, metCount);
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
        starts[k] = counts[met[k]];
        counts[met[k]] = 0;
      }
    }
    starts[metCount] = n;
    placedWhole = false;
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
   * @return the k-th group's quantile in the bucket, final where no other segment shares it
   */
  public double quantile(int k) {
    int count = starts[k + 1] - starts[k];
    if (2 * count > work.length) {
      work = Selection.work(Math.max(count, work.length));
    }
    return Selection.quantile(placed, starts[k], count, level, work);
  }

  /**
   * @param k from 0 to what {@link #drain} returned, less one
   * @return a quantile state holding the k-th group's values, to merge with other segments'
   */
  public AggState state(int k) {
    return AggState.Quantile.of(level, Arrays.copyOfRange(placed, starts[k], starts[k + 1]));
  }

  /**
   * @return the bytes of the arrays held, for the query's memory budget
   */
  public long bytes() {
    return 20L * values.length + 8L * work.length + 4L * counts.length + 8L * met.length;
  }
}
