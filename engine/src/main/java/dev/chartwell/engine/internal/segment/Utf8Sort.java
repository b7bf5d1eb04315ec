package dev.chartwell.engine.internal.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Orders UTF-8 byte strings as {@link String#compareTo} orders their text, several bytes at a time,
 * without decoding them, and numbers the distinct ones: a most-significant-digit radix sort whose
 * digit is a window of bytes packed into the high bits of a {@code long}, above the item's position
 * in its group, so that each window is one primitive sort (a radix sort for large groups). Items
 * that tie on a window move on to the next; a short group is finished by comparing. Which items are
 * equal comes out of the sort itself: items in different groups differ, a group whose window
 * reached the end of its strings is one string.
 *
 * <p>Each byte becomes a 9-bit digit: its {@link Utf8Order#utf16Rank rank} plus one, 0 past the end
 * of the string, so that a proper prefix sorts first. Ranks order UTF-8 as UTF-16 (the
 * supplementary characters before U+E000); ASCII bytes are their own rank.
 *
 * <p>Sealing sorts a segment's distinct strings (log bodies, trace ids, tokens), hundreds of
 * thousands per segment, straight from the head's bytes.
 */
final class Utf8Sort {
  /** Groups at most this long are finished by insertion sort. */
  private static final int SMALL = 16;

  /** Groups at least this long sort their keys by radix instead of comparison. */
  private static final int RADIX = 2048;

  private static final int DIGIT_BITS = 9;

  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final byte[] data;
  private final int[] bounds;
  private final int[] items;
  private final long[] keys;
  private final int[] moved;
  private final boolean[] same; // same[k]: items[k] holds the same string as items[k - 1]
  private long[] scratch;

  private Utf8Sort(byte[] data, int[] bounds, int[] items, int n) {
    this.data = data;
    this.bounds = bounds;
    this.items = items;
    this.keys = new long[n];
    this.moved = new int[n];
    this.same = new boolean[n];
  }

  /**
   * Sorts items in place by their strings, then numbers them by their distinct strings and copies
   * those strings, in order, into one array.
   *
   * @param data the bytes of every string
   * @param bounds item {@code i}'s string is {@code data[bounds[i], bounds[i + 1])}
   * @param items the items to order (indexes into {@code bounds}); left sorted, equal strings
   *     adjacent
   * @param n how many of {@code items} to order (the first {@code n})
   * @param idOf receives each item's number: {@code idOf[items[k]]} is the position of its string
   *     among the distinct ones
   * @return the distinct strings, sorted
   */
  static Utf8Strings sortDistinct(byte[] data, int[] bounds, int[] items, int n, int[] idOf) {
    Utf8Sort sort = new Utf8Sort(data, bounds, items, n);
    sort.sort(n);
    return sort.distinct(n, idOf);
  }

  private void sort(int n) {
    ArrayDeque<int[]> work = new ArrayDeque<>();
    work.push(new int[] {0, n, 0});
    while (!work.isEmpty()) {
      int[] range = work.pop();
      sortWindow(range[0], range[1], range[2], work);
    }
  }

  private Utf8Strings distinct(int n, int[] idOf) {
    long total = 0;
    int distinct = 0;
    for (int k = 0; k < n; k++) {
      int item = items[k];
      if (k == 0 || !same[k]) {
        total += bounds[item + 1] - bounds[item];
        distinct++;
      }
      idOf[item] = distinct - 1;
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("more than 2 GiB of distinct strings in one segment");
    }
    byte[] out = new byte[(int) total];
    int[] starts = new int[distinct + 1];
    int pos = 0;
    int id = 0;
    for (int k = 0; k < n; k++) {
      if (k == 0 || !same[k]) {
        int item = items[k];
        int length = bounds[item + 1] - bounds[item];
        starts[id++] = pos;
        System.arraycopy(data, bounds[item], out, pos, length);
        pos += length;
      }
    }
    starts[distinct] = pos;
    return new Utf8Strings(out, starts, distinct);
  }

  /**
   * Sorts {@code items[from, to)}, whose strings share their first {@code depth} bytes, by the next
   * window of bytes, and queues each group that ties on it.
   */
  private void sortWindow(int from, int to, int depth, ArrayDeque<int[]> work) {
    int size = to - from;
    if (size <= SMALL) {
      insertionSort(from, to, depth);
      return;
    }
    if (depth > 0) {
      // Skip the bytes the whole group shares (a template's words), however many windows long;
      // a group that shares everything is one string repeated.
      int shared = commonPrefix(from, to, depth);
      if (shared < 0) {
        Arrays.fill(same, from + 1, to, true);
        return;
      }
      depth = shared;
    }
    int indexBits = 32 - Integer.numberOfLeadingZeros(size - 1);
    int digits = (63 - indexBits) / DIGIT_BITS; // the sign bit stays clear: keys sort as signed
    for (int i = from; i < to; i++) {
      keys[i] = window(items[i], depth, digits) << indexBits | (i - from);
    }
    if (size >= RADIX) {
      if (scratch == null) {
        scratch = new long[keys.length];
      }
      RadixSort.sort(keys, from, to, indexBits, indexBits + digits * DIGIT_BITS, scratch);
    } else {
      Arrays.sort(keys, from, to);
    }
    System.arraycopy(items, from, moved, from, size);
    long indexMask = (1L << indexBits) - 1;
    for (int i = from; i < to; i++) {
      items[i] = moved[from + (int) (keys[i] & indexMask)];
    }
    long lastDigit = (1L << DIGIT_BITS) - 1;
    int start = from;
    for (int i = from + 1; i <= to; i++) {
      if (i < to && keys[i] >>> indexBits == keys[start] >>> indexBits) {
        continue;
      }
      if (i - start > 1) {
        if (((keys[start] >>> indexBits) & lastDigit) == 0) {
          Arrays.fill(same, start + 1, i, true); // the window ended their strings: one string
        } else {
          work.push(new int[] {start, i, depth + digits});
        }
      }
      start = i;
    }
  }

  /** An item's bytes {@code [depth, depth + digits)} as {@code digits} 9-bit digits. */
  private long window(int item, int depth, int digits) {
    int start = bounds[item] + depth;
    int available = Math.min(bounds[item + 1] - start, digits);
    long key = 0;
    if (start + 8 <= data.length) {
      long word = (long) BIG_ENDIAN_LONG.get(data, start);
      long mine = available >= 8 ? -1L : ~(-1L >>> (8 * available)); // the string's bytes
      if ((word & mine & 0x8080808080808080L) == 0) { // ASCII: each byte is its own rank
        for (int d = 0; d < digits; d++) {
          key = key << DIGIT_BITS | (d < available ? ((word >>> (56 - 8 * d)) & 0xFF) + 1 : 0);
        }
        return key;
      }
    }
    for (int d = 0; d < digits; d++) {
      int digit = d < available ? Utf8Order.utf16Rank(data[start + d] & 0xFF) + 1 : 0;
      key = key << DIGIT_BITS | digit;
    }
    return key;
  }

  /**
   * How many leading bytes every string of the group shares, at least {@code depth} (which they are
   * known to share); -1 when they are all the same string. Stops at the first string that shares
   * nothing more.
   */
  private int commonPrefix(int from, int to, int depth) {
    int first = items[from];
    int firstFrom = bounds[first] + depth;
    int firstLength = bounds[first + 1] - firstFrom;
    int shared = firstLength;
    boolean sameLength = true;
    for (int i = from + 1; i < to; i++) {
      int item = items[i];
      int itemFrom = bounds[item] + depth;
      int itemLength = bounds[item + 1] - itemFrom;
      sameLength &= itemLength == firstLength;
      int n = Math.min(shared, itemLength);
      int m = Arrays.mismatch(data, firstFrom, firstFrom + n, data, itemFrom, itemFrom + n);
      shared = m < 0 ? n : m;
      if (shared == 0) {
        return depth;
      }
    }
    return sameLength && shared == firstLength ? -1 : depth + shared;
  }

  /** Sorts a short group whose strings share {@code depth} bytes and marks its duplicates. */
  private void insertionSort(int from, int to, int depth) {
    for (int i = from + 1; i < to; i++) {
      int item = items[i];
      int j = i - 1;
      while (j >= from && compare(items[j], item, depth) > 0) {
        items[j + 1] = items[j];
        j--;
      }
      items[j + 1] = item;
    }
    for (int i = from + 1; i < to; i++) {
      same[i] = compare(items[i - 1], items[i], depth) == 0;
    }
  }

  /** Compares two strings known to share their first {@code depth} bytes. */
  private int compare(int a, int b, int depth) {
    int aFrom = bounds[a] + depth;
    int aLength = bounds[a + 1] - aFrom;
    int bFrom = bounds[b] + depth;
    int bLength = bounds[b + 1] - bFrom;
    int n = Math.min(aLength, bLength);
    int i = Arrays.mismatch(data, aFrom, aFrom + n, data, bFrom, bFrom + n);
    if (i >= 0) {
      return Utf8Order.utf16Rank(data[aFrom + i] & 0xFF)
          - Utf8Order.utf16Rank(data[bFrom + i] & 0xFF);
    }
    return Integer.compare(aLength, bLength);
  }
}
