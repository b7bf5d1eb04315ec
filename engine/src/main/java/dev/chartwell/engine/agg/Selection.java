package dev.chartwell.engine.agg;

/**
 * Finds the k-th smallest of n doubles in expected linear time (quickselect with median-of-three
 * pivots), rearranging the array so that everything left of k is no larger and everything right of
 * it no smaller. Exact quantiles need this, not a full sort.
 */
final class Selection {
  private Selection() {}

  static double select(double[] a, int n, int k) {
    int lo = 0;
    int hi = n - 1;
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
