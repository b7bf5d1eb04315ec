package dev.chartwell.engine.internal.agg;

/**
 * Exact quantiles of n doubles without a full sort. A rank near either end (the p95 and p99 that
 * dashboards ask for most) is found in one pass that keeps the m largest (or smallest) values seen
 * in a heap, where nearly every value costs one well-predicted comparison; any other rank by
 * quickselect with median-of-three pivots, in expected linear time but with a mispredicted branch
 * for about every other comparison.
 */
final class Selection {
  /** The heap is used for at most this many values, or a sixteenth of them if that is more. */
  static final int TAIL = 16;

  private Selection() {}

  /**
   * The quantile with linear interpolation between the closest ranks: rank h = (n - 1) × level,
   * between the values of ranks ⌊h⌋ and ⌊h⌋ + 1.
   *
   * @param a the values in its first n places, finite; may be reordered
   * @param n how many, at least 1
   * @param level between 0 and 1
   * @return the quantile
   */
  static double quantile(double[] a, int n, double level) {
    return quantile(a, 0, n, level);
  }

  /**
   * {@link #quantile(double[], int, double)} of the n values from {@code a[from]}.
   *
   * @param a the values in places from to from + n - 1, finite; those places may be reordered
   * @param from the first value's place
   * @param n how many, at least 1
   * @param level between 0 and 1
   * @return the quantile
   */
  static double quantile(double[] a, int from, int n, double level) {
    double h = (n - 1) * level;
    int lo = (int) Math.floor(h);
    boolean between = lo + 1 < n && h != lo;
    int kept = Math.max(TAIL, n >>> 4);
    double low;
    double next;
    if (n - lo <= kept) {
      // ranks lo to n - 1: the heap's least is rank lo, the lesser of its children rank lo + 1
      double[] top = heapOfLargest(a, from, n, n - lo, false);
      low = top[0];
      next = between ? secondOf(top, false) : low;
    } else if (lo + 2 <= kept) {
      // ranks 0 to lo (+ 1): the heap's greatest is the last of them
      double[] bottom = heapOfLargest(a, from, n, between ? lo + 2 : lo + 1, true);
      next = -bottom[0];
      low = between ? -secondOf(bottom, false) : next;
    } else {
      low = select(a, from, from + n - 1, from + lo);
      next = low;
      if (between) {
        // After selecting rank lo, every element right of it is at least as large: rank lo + 1 is
        // their minimum.
        next = a[from + lo + 1];
        for (int i = from + lo + 2; i < from + n; i++) {
          next = Math.min(next, a[i]);
        }
      }
    }
    return between ? low + (h - lo) * (next - low) : low;
  }

  /**
   * @return the m largest of the n values from a[from] (or of their negations), 1 ≤ m ≤ n, in a
   *     min-heap: its first is the least
   */
  static double[] heapOfLargest(double[] a, int from, int n, int m, boolean negate) {
    double[] heap = new double[m];
    for (int i = 0; i < m; i++) {
      heap[i] = negate ? -a[from + i] : a[from + i];
    }
    for (int i = m / 2 - 1; i >= 0; i--) {
      siftDown(heap, m, i);
    }
    double least = heap[0];
    for (int i = from + m; i < from + n; i++) {
      double v = negate ? -a[i] : a[i];
      if (v > least) {
        heap[0] = v;
        siftDown(heap, m, 0);
        least = heap[0];
      }
    }
    return heap;
  }

  private static void siftDown(double[] heap, int m, int i) {
    double v = heap[i];
    while (true) {
      int c = 2 * i + 1;
      if (c >= m) {
        break;
      }
      if (c + 1 < m && heap[c + 1] < heap[c]) {
        c++;
      }
      if (heap[c] >= v) {
        break;
      }
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = v;
  }

  /**
   * The second of a heap of at least two values: the lesser (or greater) of the first's children.
   */
  private static double secondOf(double[] heap, boolean greatest) {
    if (heap.length == 2) {
      return heap[1];
    }
    return greatest ? Math.max(heap[1], heap[2]) : Math.min(heap[1], heap[2]);
  }

  /**
   * Finds the value of rank k among places lo to hi (inclusive) by quickselect with a
   * median-of-three pivot, rearranging them so that everything left of k is no larger and
   * everything right of it no smaller.
   */
  private static double select(double[] a, int lo, int hi, int k) {
    while (hi > lo) {
      int mid = (lo + hi) >>> 1;
      // median of three to the middle
      if (a[mid] < a[lo]) {
        swap(a, mid, lo);
      }
      if (a[hi] < a[lo]) {
        swap(a, hi, lo);
      }
      if (a[hi] < a[mid]) {
        swap(a, hi, mid);
      }
      double pivot = a[mid];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          swap(a, i++, j--);
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return a[k];
      }
    }
    return a[k];
  }

  private static void swap(double[] a, int i, int j) {
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
