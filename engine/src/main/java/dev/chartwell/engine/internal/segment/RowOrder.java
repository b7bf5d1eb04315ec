package dev.chartwell.engine.internal.segment;

/**
 * The permutation that sorts rows by timestamp, stable (rows with equal timestamps keep their
 * arrival order). Arrival order is usually almost sorted, so an already sorted run is detected in
 * one pass and costs no sort at all.
 */
final class RowOrder {
  private RowOrder() {}

  /**
   * @param keys timestamps in arrival order
   * @param n how many rows
   * @return row indexes in timestamp order, or {@code null} when arrival order is already sorted
   */
  static int[] sortedOrNull(long[] keys, int n) {
    boolean sorted = true;
    for (int i = 1; i < n && sorted; i++) {
      sorted = keys[i - 1] <= keys[i];
    }
    if (sorted) {
      return null;
    }
    int[] order = new int[n];
    int[] tmp = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // Bottom-up merge sort: stable, O(n log n), no boxing.
    for (int width = 1; width < n; width <<= 1) {
      for (int lo = 0; lo < n; lo += width << 1) {
        int mid = Math.min(lo + width, n);
        int hi = Math.min(lo + (width << 1), n);
        if (mid >= hi || keys[order[mid - 1]] <= keys[order[mid]]) {
          System.arraycopy(order, lo, tmp, lo, hi - lo);
          continue;
        }
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
          tmp[k++] = keys[order[j]] < keys[order[i]] ? order[j++] : order[i++];
        }
        while (i < mid) {
          tmp[k++] = order[i++];
        }
        while (j < hi) {
          tmp[k++] = order[j++];
        }
      }
      int[] t = order;
      order = tmp;
      tmp = t;
    }
    return order;
  }

  /**
   * Where the rows of consecutive runs of arrival order go when the runs are sorted as one: the
   * stable order of all their rows by timestamp. Each run's rows are given in their own stable
   * order, so a run's rows keep their order and a tie between runs goes to the earlier run (its
   * rows arrived first).
   *
   * @param runs each run's timestamps, ascending, runs in arrival order
   * @return per run, per row of it, its row among all
   */
  static int[][] mergedRows(long[][] runs) {
    int k = runs.length;
    int[][] out = new int[k][];
    int[] next = new int[k];
    int total = 0;
    for (int i = 0; i < k; i++) {
      out[i] = new int[runs[i].length];
      total += runs[i].length;
    }
    for (int row = 0; row < total; row++) {
      int best = -1;
      for (int i = 0; i < k; i++) {
        if (next[i] < runs[i].length && (best < 0 || runs[i][next[i]] < runs[best][next[best]])) {
          best = i; // strictly less: the earlier run wins a tie
        }
      }
      out[best][next[best]++] = row;
    }
    return out;
  }
}
