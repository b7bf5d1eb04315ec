package dev.chartwell.engine.internal.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Sorts and numbers a column's values when every one is lowercase hexadecimal of one even length of
 * at least 16 digits (trace and span ids): each is packed two digits to a byte, in row order, and
 * sorted by its first eight packed bytes as one number (a radix sort of {@code long}s); values that
 * tie on those (a trace's events, ids that differ only further on) are compared whole. The packed
 * values, in order, are the entries of a {@code HEX} {@link StringDictionary} as they stand, so
 * neither the text is copied in order nor packed a second time. Lowercase hex digits sort as their
 * values do, so this is the order {@link Utf8Sort} gives, at a fraction of its reads: {@code
 * Utf8Sort} reads each string again for each window of digits and to copy it out, in an order
 * unrelated to where it lies.
 */
final class HexSort {
  /** Tied runs up to this long are ordered by insertion. */
  private static final int SMALL_RUN = 16;

  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private HexSort() {}

  /**
   * @param data the bytes of every string
   * @param bounds item {@code i}'s string is {@code data[bounds[i], bounds[i + 1])}
   * @param items the items to order (indexes into {@code bounds}), at least one
   * @param n how many of {@code items} to order (the first {@code n})
   * @param idOf receives each item's number: {@code idOf[items[k]]} is the position of its value
   *     among the distinct ones
   * @return the distinct values, sorted, as a {@code HEX} dictionary; {@code null} when the values
   *     are not all lowercase hex of one even length of 16 digits or more
   */
  static StringDictionary sortDistinct(byte[] data, int[] bounds, int[] items, int n, int[] idOf) {
    int digits = bounds[items[0] + 1] - bounds[items[0]];
    if (digits < 16 || (digits & 1) != 0) {
      return null;
    }
    int width = digits / 2;
    byte[] packed = new byte[Math.multiplyExact(n, width)];
    for (int k = 0; k < n; k++) {
      int item = items[k];
      if (bounds[item + 1] - bounds[item] != digits
          || !HexDigits.pack(data, bounds[item], packed, k * width, width)) {
        return null;
      }
    }
    int indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(n - 1));
    long[] keys = new long[n];
    for (int k = 0; k < n; k++) {
      // The leading 63 - indexBits bits, as a non-negative number, above the value's place.
      long first = (long) BIG_ENDIAN_LONG.get(packed, k * width);
      keys[k] = (first >>> (indexBits + 1)) << indexBits | k;
    }
    RadixSort.sort(keys, 0, n, indexBits, 63, new long[n]);
    int[] order = new int[n];
    long indexMask = (1L << indexBits) - 1;
    for (int i = 0; i < n; i++) {
      order[i] = (int) (keys[i] & indexMask);
    }
    boolean[] same = new boolean[n]; // same[i]: order[i] holds the value of order[i - 1]
    for (int start = 0; start < n; ) {
      int end = start + 1;
      while (end < n && keys[end] >>> indexBits == keys[start] >>> indexBits) {
        end++;
      }
      if (end - start > 1) {
        orderTie(packed, width, order, start, end, same);
      }
      start = end;
    }
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (!same[i]) {
        distinct++;
      }
    }
    byte[] entries = new byte[Math.multiplyExact(distinct, width)];
    int id = -1;
    for (int i = 0; i < n; i++) {
      int k = order[i];
      if (!same[i]) {
        id++;
        System.arraycopy(packed, k * width, entries, id * width, width);
      }
      idOf[items[k]] = id;
    }
    return StringDictionary.hex(entries, width, distinct);
  }

  /**
   * Orders a run of values that tie on their leading bits and marks which repeat the one before.
   */
  private static void orderTie(
      byte[] packed, int width, int[] order, int from, int to, boolean[] same) {
    boolean allSame = true; // one id repeated (a trace's events): the common tie
    for (int i = from + 1; i < to && allSame; i++) {
      allSame = compare(packed, width, order[from], order[i]) == 0;
    }
    if (!allSame) {
      sortRun(packed, width, order, from, to, new int[to - from]);
    }
    for (int i = from + 1; i < to; i++) {
      same[i] = allSame || compare(packed, width, order[i - 1], order[i]) == 0;
    }
  }

  /**
   * Sorts {@code order[from, to)} by the whole packed values: by insertion when short, else by
   * merging halves (sequential ids tie in long runs).
   */
  private static void sortRun(
      byte[] packed, int width, int[] order, int from, int to, int[] scratch) {
    if (to - from <= SMALL_RUN) {
      for (int i = from + 1; i < to; i++) {
        int k = order[i];
        int j = i - 1;
        while (j >= from && compare(packed, width, order[j], k) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = k;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    sortRun(packed, width, order, from, mid, scratch);
    sortRun(packed, width, order, mid, to, scratch);
    System.arraycopy(order, from, scratch, 0, mid - from);
    int a = 0;
    int aEnd = mid - from;
    int b = mid;
    int o = from;
    while (a < aEnd && b < to) {
      order[o++] = compare(packed, width, scratch[a], order[b]) <= 0 ? scratch[a++] : order[b++];
    }
    System.arraycopy(scratch, a, order, o, aEnd - a);
  }

  private static int compare(byte[] packed, int width, int a, int b) {
    return Arrays.compareUnsigned(
        packed, a * width, a * width + width, packed, b * width, b * width + width);
  }
}
