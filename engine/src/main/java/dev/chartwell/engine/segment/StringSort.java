package dev.chartwell.engine.segment;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Orders strings as {@link String#compareTo} does, several characters at a time: a most-significant
 * -digit radix sort whose digit is a window of characters packed into the high bits of a {@code
 * long}, with the string's position in the low bits, so that each window is one primitive sort.
 * Strings that tie on a window move on to the next one; a short group is finished by comparing.
 *
 * <p>Sealing sorts a segment's distinct strings (log bodies, trace ids, tokens), hundreds of
 * thousands per segment; comparing {@code String} objects pointer by pointer made that the largest
 * single cost of ingestion. Here most strings are placed by one or two windows.
 */
final class StringSort {
  /** Groups at most this long are finished by insertion sort. */
  private static final int SMALL = 16;

  private StringSort() {}

  /**
   * @param values the strings
   * @param n how many of them to order (the first {@code n})
   * @return the positions {@code 0..n-1} in {@link String#compareTo} order of their strings; equal
   *     strings are adjacent
   */
  static int[] order(String[] values, int n) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    long[] keys = new long[n];
    int[] moved = new int[n];
    ArrayDeque<int[]> work = new ArrayDeque<>();
    work.push(new int[] {0, n, 0});
    while (!work.isEmpty()) {
      int[] range = work.pop();
      sortWindow(values, order, keys, moved, range[0], range[1], range[2], work);
    }
    return order;
  }

  /**
   * Sorts {@code order[from, to)}, whose strings share their first {@code depth} characters, by the
   * next window of characters, and queues each group that ties on it.
   */
  private static void sortWindow(
      String[] values,
      int[] order,
      long[] keys,
      int[] moved,
      int from,
      int to,
      int depth,
      ArrayDeque<int[]> work) {
    int size = to - from;
    if (size <= SMALL) {
      insertionSort(values, order, from, to);
      return;
    }
    int indexBits = 32 - Integer.numberOfLeadingZeros(size - 1);
    int keyBits = 63 - indexBits; // the sign bit stays clear: the keys sort as signed longs
    int width = 8;
    if (!pack(values, order, keys, from, to, depth, indexBits, width, keyBits / width)) {
      width = 17;
      if (keyBits < width) {
        insertionSort(values, order, from, to);
        return;
      }
      pack(values, order, keys, from, to, depth, indexBits, width, keyBits / width);
    }
    int chars = keyBits / width;
    Arrays.sort(keys, from, to);
    System.arraycopy(order, from, moved, from, size);
    long indexMask = (1L << indexBits) - 1;
    for (int i = from; i < to; i++) {
      order[i] = moved[from + (int) (keys[i] & indexMask)];
    }
    long lastChar = (1L << width) - 1;
    int start = from;
    for (int i = from + 1; i <= to; i++) {
      if (i < to && keys[i] >>> indexBits == keys[start] >>> indexBits) {
        continue;
      }
      // A window whose last character is 0 ended its strings: the whole group is one string.
      if (i - start > 1 && ((keys[start] >>> indexBits) & lastChar) != 0) {
        work.push(new int[] {start, i, depth + chars});
      }
      start = i;
    }
  }

  /**
   * Packs each string's characters {@code [depth, depth + chars)} as {@code width}-bit digits
   * (character + 1, 0 past the end) above its position in the range.
   *
   * @return false when a character does not fit {@code width} bits
   */
  private static boolean pack(
      String[] values,
      int[] order,
      long[] keys,
      int from,
      int to,
      int depth,
      int indexBits,
      int width,
      int chars) {
    int limit = (1 << width) - 1;
    for (int i = from; i < to; i++) {
      String s = values[order[i]];
      int end = Math.min(s.length(), depth + chars);
      long key = 0;
      for (int p = depth; p < end; p++) {
        int digit = s.charAt(p) + 1;
        if (digit > limit) {
          return false;
        }
        key = key << width | digit;
      }
      key <<= (long) width * (depth + chars - Math.max(end, depth));
      keys[i] = key << indexBits | (i - from);
    }
    return true;
  }

  private static void insertionSort(String[] values, int[] order, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      int o = order[i];
      String s = values[o];
      int j = i - 1;
      while (j >= from && values[order[j]].compareTo(s) > 0) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = o;
    }
  }
}
