package dev.chartwell.engine.internal.agg;

import dev.chartwell.engine.internal.segment.StringDictionary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The distinct strings of one (bucket, group) across segments, kept as each segment's sorted
 * dictionary ids rather than as {@link String}s: 4 bytes per value and segment, no object per
 * value. The count is a merge of the segments' sorted dictionaries, two at a time, comparing 8-byte
 * prefix keys and, where they tie, UTF-8 bytes.
 */
final class DistinctStrings {
  /** The most strings a merged run holds: 16 MiB. */
  private static final int MAX_RUN = 1 << 20;

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
    return count(MAX_RUN);
  }

  /**
   * Three parts or more merge two at a time, smallest first, into runs, so that every step is the
   * two-way loop: a heap over the parts (or a tree of merging objects) costs about twice as much
   * per string, in mispredicted comparisons and calls. A run costs 16 bytes per string while the
   * query finishes, so runs stop growing at {@code maxRun} strings and what is left of the parts
   * goes through the heap.
   *
   * @param maxRun the most strings a run may hold
   */
  long count(int maxRun) {
    if (parts.size() <= 1) {
      return parts.isEmpty() ? 0 : parts.get(0).ids().length;
    }
    List<Part> bySize = new ArrayList<>(parts);
    bySize.sort(Comparator.comparingInt(p -> p.ids().length));
    int last = bySize.size() - 1;
    Cursor merged = new Cursor(bySize.get(0));
    int next = 1;
    while (next < last && merged.left() + bySize.get(next).ids().length <= maxRun) {
      merged = union(merged, new Cursor(bySize.get(next++))).cursor();
    }
    if (next == last) {
      return countTwo(merged, new Cursor(bySize.get(last)));
    }
    List<Cursor> rest = new ArrayList<>();
    rest.add(merged);
    for (Part p : bySize.subList(next, bySize.size())) {
      rest.add(new Cursor(p));
    }
    return countMany(rest);
  }

  /** Counts the union of several cursors' strings through a heap. */
  private static long countMany(List<Cursor> cursors) {
    Merge merge = new Merge(cursors);
    long distinct = 0;
    boolean first = true;
    int lastId = -1;
    StringDictionary lastDictionary = null;
    long lastKey = 0;
    while (!merge.isEmpty()) {
      Cursor c = merge.top();
      int id = c.id();
      long key = c.key();
      StringDictionary dictionary = c.dictionary();
      if (first
          || key != lastKey // different prefixes: different strings, no need to compare them
          || dictionary.compare(id, lastDictionary, lastId) != 0) {
        distinct++;
      }
      first = false;
      lastId = id;
      lastDictionary = dictionary;
      lastKey = key;
      merge.advanceTop();
    }
    return distinct;
  }

  /**
   * Counts the union of two cursors' strings. One comparison of prefix keys per step, whose outcome
   * moves one cursor or the other without a branch to mispredict; only tied keys compare bytes.
   */
  private static long countTwo(Cursor a, Cursor b) {
    long distinct = 0;
    while (!a.done() && !b.done()) {
      int c = compare(a, b);
      distinct++;
      a.advance(c <= 0 ? 1 : 0);
      b.advance(c >= 0 ? 1 : 0);
    }
    return distinct + a.left() + b.left();
  }

  /**
   * The union of two cursors' strings, each once, in order. Three parts or more merge two at a
   * time, smallest first, into such runs, so that every step is the two-way loop: a heap over the
   * parts (or a tree of merging objects) costs about three times as much per string, in
   * mispredicted comparisons and calls. The price is 16 bytes per string of the runs, while the
   * query finishes.
   */
  private static Run union(Cursor a, Cursor b) {
    int capacity = a.left() + b.left();
    long[] keys = new long[capacity];
    long[] refs = new long[capacity];
    int n = 0;
    int bOwners = a.dictionaries.length;
    while (!a.done() && !b.done()) {
      int c = compare(a, b);
      long takeA = c <= 0 ? -1L : 0L;
      keys[n] = (a.key() & takeA) | (b.key() & ~takeA);
      refs[n] = (a.ref(0) & takeA) | (b.ref(bOwners) & ~takeA);
      n++;
      a.advance(c <= 0 ? 1 : 0);
      b.advance(c >= 0 ? 1 : 0);
    }
    for (; !a.done(); a.advance(1)) {
      keys[n] = a.key();
      refs[n++] = a.ref(0);
    }
    for (; !b.done(); b.advance(1)) {
      keys[n] = b.key();
      refs[n++] = b.ref(bOwners);
    }
    StringDictionary[] dictionaries =
        Arrays.copyOf(a.dictionaries, bOwners + b.dictionaries.length);
    System.arraycopy(b.dictionaries, 0, dictionaries, bOwners, b.dictionaries.length);
    return new Run(dictionaries, keys, refs, n);
  }

  /** Orders two cursors' current strings: by prefix key, and by bytes only where the keys tie. */
  private static int compare(Cursor a, Cursor b) {
    long x = a.key();
    long y = b.key();
    if (x != y) {
      return (x + Long.MIN_VALUE) < (y + Long.MIN_VALUE) ? -1 : 1;
    }
    return a.dictionary().compare(a.id(), b.dictionary(), b.id());
  }

  /**
   * Distinct strings of several parts, merged and in order: each as its prefix key and a reference
   * (the index of its dictionary in the high 32 bits, its id in the low).
   */
  private record Run(StringDictionary[] dictionaries, long[] keys, long[] refs, int size) {
    Cursor cursor() {
      return new Cursor(dictionaries, keys, refs, size);
    }
  }

  /**
   * Strings in order with their {@link StringDictionary#prefix} keys, so that most comparisons are
   * one comparison of two longs already at hand. Over one part, the keys are computed a block at a
   * time; over a {@link Run}, they are the run's.
   */
  private static final class Cursor {
    private static final int BLOCK = 1024;

    final StringDictionary[] dictionaries;
    private final int[] ids; // one part's, or null over a run
    private final long[] refs; // a run's, or null over one part
    private final long[] keys;
    private final int size;
    private int position;
    private int blockStart;

    Cursor(Part part) {
      this.dictionaries = new StringDictionary[] {part.dictionary()};
      this.ids = part.ids();
      this.refs = null;
      this.size = ids.length;
      this.keys = new long[Math.min(BLOCK, size)];
      fill(0);
    }

    Cursor(StringDictionary[] dictionaries, long[] keys, long[] refs, int size) {
      this.dictionaries = dictionaries;
      this.ids = null;
      this.refs = refs;
      this.keys = keys;
      this.size = size;
    }

    boolean done() {
      return position == size;
    }

    int left() {
      return size - position;
    }

    long key() {
      return keys[position - blockStart];
    }

    int id() {
      return ids != null ? ids[position] : (int) refs[position];
    }

    StringDictionary dictionary() {
      return ids != null ? dictionaries[0] : dictionaries[(int) (refs[position] >>> 32)];
    }

    /**
     * This string's reference in a run whose dictionaries hold this cursor's from {@code first}.
     */
    long ref(int first) {
      long ref = ids != null ? ids[position] : refs[position];
      return ref + ((long) first << 32);
    }

    /** Moves on by {@code step} (0 or 1) strings. */
    void advance(int step) {
      position += step;
      if (ids != null && position - blockStart == keys.length && position < size) {
        fill(position);
      }
    }

    private void fill(int from) {
      blockStart = from;
      StringDictionary dictionary = dictionaries[0];
      for (int i = 0, n = Math.min(keys.length, size - from); i < n; i++) {
        keys[i] = dictionary.prefix(ids[from + i]);
      }
    }
  }

  /** A binary min-heap of cursors ordered by their current string. */
  private static final class Merge {
    private final Cursor[] heap;
    private int size;

    Merge(List<Cursor> cursors) {
      this.heap = new Cursor[cursors.size()];
      for (Cursor c : cursors) {
        if (!c.done()) {
          heap[size++] = c;
        }
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

    /** Moves the top cursor to its next string, or drops it when it has none left. */
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

    private void siftDown(int i) {
      Cursor p = heap[i];
      while (true) {
        int child = 2 * i + 1;
        if (child >= size) {
          break;
        }
        if (child + 1 < size && compare(heap[child + 1], heap[child]) < 0) {
          child++;
        }
        if (compare(heap[child], p) >= 0) {
          break;
        }
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = p;
    }
  }
}
