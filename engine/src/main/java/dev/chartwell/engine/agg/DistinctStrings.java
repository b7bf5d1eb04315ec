package dev.chartwell.engine.agg;

import dev.chartwell.engine.segment.StringDictionary;
import java.util.ArrayList;
import java.util.List;

/**
 * The distinct strings of one (bucket, group) across segments, kept as each segment's sorted
 * dictionary ids rather than as {@link String}s: 4 bytes per value and segment, no object per
 * value. The count is a merge of the segments' sorted dictionaries (a loop for two, a heap for
 * more), comparing 8-byte prefix keys and, where they tie, UTF-8 bytes.
 */
final class DistinctStrings {
  /** One segment's part: sorted ids of entries of its dictionary. */
  private record Part(StringDictionary dictionary, int[] ids) {}

  private final List<Part> parts = new ArrayList<>(2);

  /**
   * @param dictionary a segment's dictionary
   * @param bits one bit per dictionary id, set for the ids seen
   */
  void addIds(StringDictionary dictionary, long[] bits) {
    int n = 0;
    for (long word : bits) {
      n += Long.bitCount(word);
    }
    if (n == 0) {
      return;
    }
    int[] ids = new int[n];
    int k = 0;
    for (int w = 0; w < bits.length; w++) {
      long word = bits[w];
      while (word != 0) {
        ids[k++] = (w << 6) + Long.numberOfTrailingZeros(word);
        word &= word - 1;
      }
    }
    parts.add(new Part(dictionary, ids));
  }

  /**
   * @param other another set, which must not be used afterwards
   */
  void addAll(DistinctStrings other) {
    parts.addAll(other.parts);
  }

  boolean isEmpty() {
    return parts.isEmpty();
  }

  /**
   * @return an estimate of the heap the parts hold
   */
  long retainedBytes() {
    long bytes = 0;
    for (Part p : parts) {
      bytes += 32 + 4L * p.ids().length;
    }
    return bytes;
  }

  /**
   * @return the number of distinct strings over all parts
   */
  long count() {
    if (parts.size() == 1) {
      return parts.get(0).ids().length;
    }
    if (parts.size() == 2) {
      return countTwo(new Cursor(parts.get(0)), new Cursor(parts.get(1)));
    }
    Merge merge = new Merge(parts);
    long distinct = 0;
    Cursor last = null;
    int lastId = -1;
    long lastKey = 0;
    while (!merge.isEmpty()) {
      Cursor c = merge.top();
      int id = c.id();
      long key = c.key();
      if (last == null
          || key != lastKey // different prefixes: different strings, no need to compare them
          || c.dictionary.compare(id, last.dictionary, lastId) != 0) {
        distinct++;
      }
      last = c;
      lastId = id;
      lastKey = key;
      merge.advanceTop();
    }
    return distinct;
  }

  /**
   * Two parts (an hour over two segments, the usual case) merge without a heap: one comparison of
   * prefix keys per step, whose outcome moves one cursor or the other without a branch to
   * mispredict.
   */
  private static long countTwo(Cursor a, Cursor b) {
    long distinct = 0;
    while (!a.done() && !b.done()) {
      long x = a.key();
      long y = b.key();
      distinct++;
      if (x != y) {
        int aFirst = (x + Long.MIN_VALUE) < (y + Long.MIN_VALUE) ? 1 : 0;
        a.advance(aFirst);
        b.advance(1 - aFirst);
      } else {
        int c = a.dictionary.compare(a.id(), b.dictionary, b.id());
        a.advance(c <= 0 ? 1 : 0);
        b.advance(c >= 0 ? 1 : 0);
      }
    }
    return distinct + a.left() + b.left();
  }

  /**
   * One part's ids in order with their {@link StringDictionary#prefix} keys, computed a block at a
   * time, so that most comparisons are one comparison of two longs already at hand.
   */
  private static final class Cursor {
    private static final int BLOCK = 1024;

    final StringDictionary dictionary;
    private final int[] ids;
    private final long[] keys;
    private int position;
    private int blockStart;

    Cursor(Part part) {
      this.dictionary = part.dictionary();
      this.ids = part.ids();
      this.keys = new long[Math.min(BLOCK, ids.length)];
      fill(0);
    }

    boolean done() {
      return position == ids.length;
    }

    int left() {
      return ids.length - position;
    }

    int id() {
      return ids[position];
    }

    long key() {
      return keys[position - blockStart];
    }

    /** Moves on by {@code step} (0 or 1) ids. */
    void advance(int step) {
      position += step;
      if (position - blockStart == keys.length && position < ids.length) {
        fill(position);
      }
    }

    private void fill(int from) {
      blockStart = from;
      for (int i = 0, n = Math.min(keys.length, ids.length - from); i < n; i++) {
        keys[i] = dictionary.prefix(ids[from + i]);
      }
    }
  }

  /** A binary min-heap of parts' cursors ordered by their current entry. */
  private static final class Merge {
    private final Cursor[] heap;
    private int size;

    Merge(List<Part> parts) {
      this.heap = new Cursor[parts.size()];
      for (Part p : parts) {
        heap[size++] = new Cursor(p);
      }
      for (int i = size / 2 - 1; i >= 0; i--) {
        siftDown(i);
      }
    }

    boolean isEmpty() {
      return size == 0;
    }

    Cursor top() {
      return heap[0];
    }

    /** Moves the top part to its next id, or drops it when it has none left. */
    void advanceTop() {
      Cursor c = heap[0];
      c.advance(1);
      if (c.done()) {
        heap[0] = heap[--size];
      }
      if (size > 0) {
        siftDown(0);
      }
    }

    private static boolean less(Cursor a, Cursor b) {
      int c = Long.compareUnsigned(a.key(), b.key());
      if (c == 0) {
        c = a.dictionary.compare(a.id(), b.dictionary, b.id());
      }
      return c < 0;
    }

    private void siftDown(int i) {
      Cursor p = heap[i];
      while (true) {
        int child = 2 * i + 1;
        if (child >= size) {
          break;
        }
        if (child + 1 < size && less(heap[child + 1], heap[child])) {
          child++;
        }
        if (!less(heap[child], p)) {
          break;
        }
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = p;
    }
  }
}
