package dev.chartwell.engine.agg;

import dev.chartwell.engine.segment.StringDictionary;
import java.util.ArrayList;
import java.util.List;

/**
 * The distinct strings of one (bucket, group) across segments, kept as each segment's sorted
 * dictionary ids rather than as {@link String}s: 4 bytes per value and segment, no object per
 * value. The count is a k-way merge of the segments' sorted dictionaries, comparing UTF-8 bytes.
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
    Merge merge = new Merge(parts);
    long distinct = 0;
    int lastPart = -1;
    int lastId = -1;
    long lastKey = 0;
    while (!merge.isEmpty()) {
      int p = merge.top();
      int id = merge.currentId(p);
      long key = merge.key(p);
      if (lastPart < 0
          || key != lastKey // different prefixes: different strings, no need to compare them
          || merge.dictionary(p).compare(id, merge.dictionary(lastPart), lastId) != 0) {
        distinct++;
      }
      lastPart = p;
      lastId = id;
      lastKey = key;
      merge.advanceTop();
    }
    return distinct;
  }

  /**
   * A binary min-heap of parts ordered by their current entry, each with the entry's {@link
   * StringDictionary#prefix} so that most comparisons are one comparison of two longs.
   */
  private static final class Merge {
    private final Part[] parts;
    private final int[] position;
    private final long[] keys;
    private final int[] heap;
    private int size;

    Merge(List<Part> parts) {
      this.parts = parts.toArray(new Part[0]);
      this.position = new int[this.parts.length];
      this.keys = new long[this.parts.length];
      this.heap = new int[this.parts.length];
      for (int p = 0; p < this.parts.length; p++) {
        keys[p] = dictionary(p).prefix(currentId(p));
        heap[size++] = p;
      }
      for (int i = size / 2 - 1; i >= 0; i--) {
        siftDown(i);
      }
    }

    boolean isEmpty() {
      return size == 0;
    }

    int top() {
      return heap[0];
    }

    StringDictionary dictionary(int part) {
      return parts[part].dictionary();
    }

    int currentId(int part) {
      return parts[part].ids()[position[part]];
    }

    long key(int part) {
      return keys[part];
    }

    /** Moves the top part to its next id, or drops it when it has none left. */
    void advanceTop() {
      int p = heap[0];
      if (++position[p] == parts[p].ids().length) {
        heap[0] = heap[--size];
      } else {
        keys[p] = dictionary(p).prefix(currentId(p));
      }
      if (size > 0) {
        siftDown(0);
      }
    }

    private boolean less(int a, int b) {
      int c = Long.compareUnsigned(keys[a], keys[b]);
      if (c == 0) {
        c = dictionary(a).compare(currentId(a), dictionary(b), currentId(b));
      }
      return c < 0;
    }

    private void siftDown(int i) {
      int p = heap[i];
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
