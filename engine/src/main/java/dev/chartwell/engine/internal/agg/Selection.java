package dev.chartwell.engine.internal.agg;

/**
 * Exact quantiles of n doubles without a full sort. A rank near either end (the p95 and p99 that
 * dashboards ask for most) is found among the m largest (or smallest) values: the two extremes in
 * branch-free chains; a few more kept in a heap, where nearly every value costs one well-predicted
 * comparison, among the values at or above a bound taken without a branch per value; from {@link
 * #SELECT_AMONG} on, by quickselect among those values. Any other rank by quickselect over all,
 * with median-of-three pivots, in expected linear time but with a mispredicted branch for about
 * every other comparison.
 *
 * <p>The work arrays (the values at or above a bound, the blocks' maxima, the heap) come from a
 * caller's {@link #work} array when it gives one (else from the thread's {@link Scratch}), so that
 * a caller selecting in many small groups one after another (a bucket's groups) allocates nothing
 * per group: fresh arrays per group were the quarter of a grouped p95's allocations and made groups
 * of 60–120 values take twice as long.
 */
final class Selection {
  /** The heap is used for at most this many values, or a sixteenth of them if that is more. */
  static final int TAIL = 16;

  /**
   * From this many of the largest values on (at most a quarter of the values), the two ranks are
   * selected by quickselect among the values at or above a bound instead of kept in a heap.
   */
  static final int SELECT_AMONG = 32;

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
    return quantile(a, 0, n, level, null);
  }

  /**
   * @param n the most values a selection with it takes
   * @return a work array for selections among up to n values
   */
  static double[] work(int n) {
    return new double[2 * n];
  }

  /**
   * {@link #quantile(double[], int, double)} of the n values from {@code a[from]}.
   *
   * @param a the values in places from to from + n - 1, finite; those places may be reordered
   * @param from the first value's place
   * @param n how many, at least 1
   * @param level between 0 and 1
   * @param work at least {@code 2 n} places the selection may overwrite ({@link #work}), apart from
   *     {@code a}; or {@code null} for this thread's {@link Scratch} room when the selection needs
   *     one (a caller selecting in a {@link Scratch} array passes its own)
   * @return the quantile
   */
  static double quantile(double[] a, int from, int n, double level, double[] work) {
    double h = (n - 1) * level;
    int lo = (int) Math.floor(h);
    boolean between = lo + 1 < n && h != lo;
    int kept = Math.max(TAIL, n >>> 4);
    double low;
    double next;
    if (n - lo <= 2 || lo == 0) {
      // ranks lo and lo + 1 are among the two largest (or the two smallest)
      boolean top = n - lo <= 2;
      double[] two = twoExtremes(a, from, n, top);
      low = top && lo == n - 2 ? two[1] : two[0];
      next = between ? two[top ? 0 : 1] : low;
    } else if (n - lo >= SELECT_AMONG && n >= 4 * (n - lo)) {
      // many of the largest: ranks lo and lo + 1 by quickselect among the values at or above
      // the bound (a few times n - lo of them), where a heap would sift most of them down
      work = orNew(work, n);
      int k = atOrAboveBound(a, from, n, n - lo, work);
      int at = k - (n - lo);
      low = select(work, 0, k - 1, at);
      next = between ? leastOf(work, at + 1, k) : low;
    } else if (n - lo <= kept) {
      // ranks lo to n - 1: the heap's least is rank lo, the lesser of its children rank lo + 1
      int m = n - lo;
      work = orNew(work, n);
      int heap = largestOf(a, from, n, m, work);
      low = work[heap];
      next = between ? secondOf(work, heap, m, false) : low;
    } else if (lo + 2 <= kept) {
      // ranks 0 to lo (+ 1): the heap's greatest is the last of them
      int m = between ? lo + 2 : lo + 1;
      work = orNew(work, n);
      heapOfLargest(a, from, n, m, true, work, 0);
      next = -work[0];
      low = between ? -secondOf(work, 0, m, false) : next;
    } else {
      low = select(a, from, from + n - 1, from + lo);
      next = low;
      if (between) {
        // After selecting rank lo, every element right of it is at least as large: rank lo + 1 is
        // their minimum.
        next = leastOf(a, from + lo + 1, from + n);
      }
    }
    return between ? low + (h - lo) * (next - low) : low;
  }

  /** The caller's work array, or this thread's {@link Scratch} room for one. */
  private static double[] orNew(double[] work, int n) {
    return work != null ? work : Scratch.values(2 * n);
  }

  /**
   * The m largest of the n values from a[from] in a min-heap in {@code work}, as {@link
   * #heapOfLargest} gives them, found among the values at or above the bound of {@link
   * #atOrAboveBound} rather than among all.
   *
   * @return where in {@code work} the heap starts
   */
  private static int largestOf(double[] a, int from, int n, int m, double[] work) {
    if (m < 3 || n < 4 * m) {
      heapOfLargest(a, from, n, m, false, work, 0);
      return 0;
    }
    int k = atOrAboveBound(a, from, n, m, work);
    heapOfLargest(work, 0, k, m, false, work, n);
    return n;
  }

  /**
   * Copies the values among which the m largest of the n values from a[from] are (1 ≤ m, 4m ≤ n) to
   * the start of {@code out}: those at or above a bound. The values fall into m interleaved blocks,
   * and the least of the blocks' maxima is at most the m-th largest value (the m maxima are m of
   * the values), so every one of the m largest is at or above it, and only a few times m of the
   * values are (for random values in blocks of 15, about 2m; in blocks of 20, about 5m). The bound
   * and the copy cost no branch per value.
   *
   * @param out at least n + m places: the values go to the first n, the blocks' maxima are kept
   *     after them
   * @return how many were copied, at least m
   */
  private static int atOrAboveBound(double[] a, int from, int n, int m, double[] out) {
    int end = from + n;
    int maxima = n; // out[n, n + m)
    System.arraycopy(a, from, out, maxima, m);
    int base = from + m;
    for (; base + m <= end; base += m) {
      for (int j = 0; j < m; j++) {
        out[maxima + j] = Math.max(out[maxima + j], a[base + j]);
      }
    }
    for (int j = 0; base + j < end; j++) {
      out[maxima + j] = Math.max(out[maxima + j], a[base + j]);
    }
    double bound = out[maxima];
    for (int j = 1; j < m; j++) {
      bound = Math.min(bound, out[maxima + j]);
    }
    int k = 0;
    for (int i = from; i < end; i++) {
      double v = a[i];
      out[k] = v;
      // v - bound is +0.0 or positive exactly when v >= bound (-0.0 against +0.0 is left out)
      k += 1 - (int) (Double.doubleToRawLongBits(v - bound) >>> 63);
    }
    if (k >= m) {
      return k;
    }
    // Only when some of the m largest are -0.0 at a bound of +0.0 (or the reverse): take all.
    System.arraycopy(a, from, out, 0, n);
    return n;
  }

  /** The least of the values in places from to end - 1 (at least one). */
  private static double leastOf(double[] a, int from, int end) {
    double least = a[from];
    for (int i = from + 1; i < end; i++) {
      least = Math.min(least, a[i]);
    }
    return least;
  }

  /**
   * The largest and second largest of the n values from a[from] (or the smallest and second
   * smallest), found in two interleaved chains of {@code max} and {@code min} without a branch per
   * value: a group of a few dozen values otherwise mispredicts its comparisons for about every
   * fifth value.
   *
   * @return the two, the most extreme first; with one value, the second is infinite
   */
  private static double[] twoExtremes(double[] a, int from, int n, boolean largest) {
    double s = largest ? 1 : -1; // values are compared as s × value
    double a1 = Double.NEGATIVE_INFINITY;
    double a2 = Double.NEGATIVE_INFINITY;
    double b1 = Double.NEGATIVE_INFINITY;
    double b2 = Double.NEGATIVE_INFINITY;
    int end = from + n;
    int i = from;
    for (; i + 1 < end; i += 2) {
      double v = s * a[i];
      double w = s * a[i + 1];
      a2 = Math.max(a2, Math.min(a1, v));
      a1 = Math.max(a1, v);
      b2 = Math.max(b2, Math.min(b1, w));
      b1 = Math.max(b1, w);
    }
    if (i < end) {
      double v = s * a[i];
      a2 = Math.max(a2, Math.min(a1, v));
      a1 = Math.max(a1, v);
    }
    return new double[] {s * Math.max(a1, b1), s * Math.max(Math.min(a1, b1), Math.max(a2, b2))};
  }

  /**
   * Puts the m largest of the n values from a[from] (or of their negations), 1 ≤ m ≤ n, in a
   * min-heap at {@code heap[at, at + m)}, apart from the values read: its first is the least.
   */
  static void heapOfLargest(
      double[] a, int from, int n, int m, boolean negate, double[] heap, int at) {
    for (int i = 0; i < m; i++) {
      heap[at + i] = negate ? -a[from + i] : a[from + i];
    }
    for (int i = m / 2 - 1; i >= 0; i--) {
      siftDown(heap, at, m, i);
    }
    double least = heap[at];
    for (int i = from + m; i < from + n; i++) {
      double v = negate ? -a[i] : a[i];
      if (v > least) {
        heap[at] = v;
        siftDown(heap, at, m, 0);
        least = heap[at];
      }
    }
  }

  /** Sifts place i of the heap {@code heap[at, at + m)} down. */
  private static void siftDown(double[] heap, int at, int m, int i) {
    double v = heap[at + i];
    while (true) {
      int c = 2 * i + 1;
      if (c >= m) {
        break;
      }
      if (c + 1 < m && heap[at + c + 1] < heap[at + c]) {
        c++;
      }
      if (heap[at + c] >= v) {
        break;
      }
      heap[at + i] = heap[at + c];
      i = c;
    }
    heap[at + i] = v;
  }

  /**
   * The second of the heap {@code heap[at, at + m)} of at least two values: the lesser (or greater)
   * of the first's children.
   */
  private static double secondOf(double[] heap, int at, int m, boolean greatest) {
    if (m == 2) {
      return heap[at + 1];
    }
    return greatest ? Math.max(heap[at + 1], heap[at + 2]) : Math.min(heap[at + 1], heap[at + 2]);
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
