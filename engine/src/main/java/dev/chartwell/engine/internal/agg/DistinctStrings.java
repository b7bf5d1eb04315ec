package dev.chartwell.engine.internal.agg;

import dev.chartwell.engine.internal.segment.StringDictionary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The distinct strings of one (bucket, group) across segments, kept as each segment's dictionary
 * ids rather than as {@link String}s: a bitset of the ids seen, or their sorted list where that is
 * smaller (4 bytes per id), no object per value. The count is a merge of the segments' sorted
 * dictionaries, two at a time, comparing 8-byte prefix keys and, where they tie, UTF-8 bytes.
 *
 * <p>Nothing here allocates in proportion to the strings but the parts themselves: a part keeps the
 * bitset its state filled when that is no larger than the list of its ids, and the merge streams
 * through blocks of {@link Cursor#BLOCK} strings, so that a count of many strings makes no array
 * that the collector would place in regions of its own (G1's humongous objects, from half a region:
 * 512 KiB with 1 MiB regions), each of which starts a collection.
 */
final class DistinctStrings {
  /** The most strings a chain of two-way merges takes in before the rest go through a heap. */
  private static final int MAX_RUN = 1 << 20;

  /**
   * One segment's part: the ids of entries of its dictionary that were seen, in ascending order, as
   * a bitset ({@code bits}) or a list ({@code ids}), the other {@code null}.
   */
  private record Part(StringDictionary dictionary, long[] bits, int[] ids, int size) {
    /** The heap the part holds. */
    long bytes() {
      return 32 + (bits != null ? 8L * bits.length : 4L * ids.length);
    }
  }

  private final List<Part> parts = new ArrayList<>(2);

  /**
   * Adds a segment's part, keeping {@code bits} itself where it is no larger than the list of its
   * ids would be (more than one id in 32 is set), else listing the ids.
   *
   * @param dictionary a segment's dictionary
   * @param bits one bit per dictionary id, set for the ids seen; kept, so that the caller must not
   *     change it afterwards
   */
  void addIds(StringDictionary dictionary, long[] bits) {
    int n = 0;
    for (long word : bits) {
      n += Long.bitCount(word);
    }
    if (n == 0) {
      return;
    }
    if (n >= 2L * bits.length) { // 4 * n bytes as a list, 8 per word as a bitset
      parts.add(new Part(dictionary, bits, null, n));
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
    parts.add(new Part(dictionary, null, ids, n));
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
      bytes += p.bytes();
    }
    return bytes;
  }

  /**
   * @return a measure of the work of {@link #count}: 4 bytes per id of every part, what the parts
   *     would hold as lists
   */
  long countingWork() {
    long bytes = 0;
    for (Part p : parts) {
      bytes += 32 + 4L * p.size();
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
   * Three parts or more merge two at a time, smallest first, in a chain of merging cursors, so that
   * every step is the two-way loop: a heap over the parts costs about twice as much per string, in
   * mispredicted comparisons and calls. Each merge fills a block of strings at a time (not one call
   * per string, and not the whole union at once). The chain stops growing at {@code maxRun}
   * strings, and what is left of the parts goes through the heap.
   *
   * @param maxRun the most strings a chain of merges may take in
   */
  long count(int maxRun) {
    if (parts.size() <= 1) {
      return parts.isEmpty() ? 0 : parts.get(0).size();
    }
    List<Part> bySize = new ArrayList<>(parts);
    bySize.sort(Comparator.comparingInt(Part::size));
    int last = bySize.size() - 1;
    Cursor merged = new Cursor(bySize.get(0));
    long taken = merged.bound;
    int next = 1;
    while (next < last && taken + bySize.get(next).size() <= maxRun) {
      Cursor part = new Cursor(bySize.get(next++));
      taken += part.bound;
      merged = new Cursor(merged, part);
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
    return distinct + a.drain() + b.drain();
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
   * Strings in order with their {@link StringDictionary#prefix} keys, a block at a time, so that
   * most comparisons are one comparison of two longs already at hand. Over one part, a block holds
   * the next ids decoded from the part and their keys; over the union of two cursors, the next
   * strings of the union, each once, with their keys and references (the index of the string's
   * dictionary in {@link #dictionaries} in the high 32 bits, its id in the low).
   */
  private static final class Cursor {
    /** Strings per block: 12 or 16 KiB of arrays per cursor. */
    static final int BLOCK = 1024;

    final StringDictionary[] dictionaries;

    /** The most strings this cursor yields: all of its part's, or the sum of its two cursors'. */
    final long bound;

    private final Part part; // over one part, else null
    private final Cursor a; // over a union, else null
    private final Cursor b;
    private final int[] ids; // the block's ids, over one part
    private final long[] refs; // the block's references, over a union
    private final long[] keys;
    private int at; // the current string's index in the block
    private int filled; // strings in the block; the cursor is done when it is 0
    private int decoded; // over one part: the strings decoded so far
    private int word; // over a part's bitset: the word being decoded, and its bits left
    private long wordBits;

    Cursor(Part part) {
      this.dictionaries = new StringDictionary[] {part.dictionary()};
      this.bound = part.size();
      this.part = part;
      this.a = null;
      this.b = null;
      int block = Math.min(BLOCK, part.size());
      this.ids = new int[block];
      this.refs = null;
      this.keys = new long[block];
      if (part.bits() != null) {
        wordBits = part.bits()[0];
      }
      fill();
    }

    Cursor(Cursor a, Cursor b) {
      this.dictionaries =
          Arrays.copyOf(a.dictionaries, a.dictionaries.length + b.dictionaries.length);
      System.arraycopy(
          b.dictionaries, 0, dictionaries, a.dictionaries.length, b.dictionaries.length);
      this.bound = a.bound + b.bound;
      this.part = null;
      this.a = a;
      this.b = b;
      int block = (int) Math.min(BLOCK, bound);
      this.ids = null;
      this.refs = new long[block];
      this.keys = new long[block];
      fill();
    }

    boolean done() {
      return at == filled;
    }

    long key() {
      return keys[at];
    }

    int id() {
      return part != null ? ids[at] : (int) refs[at];
    }

    StringDictionary dictionary() {
      return part != null ? dictionaries[0] : dictionaries[(int) (refs[at] >>> 32)];
    }

    /**
     * This string's reference in a union whose dictionaries hold this cursor's from {@code first}.
     */
    long ref(int first) {
      long ref = part != null ? ids[at] : refs[at];
      return ref + ((long) first << 32);
    }

    /** Moves on by {@code step} (0 or 1) strings. */
    void advance(int step) {
      at += step;
      if (at == filled && filled > 0) {
        fill();
      }
    }

    /**
     * @return how many strings are left, this one included; the cursor is done afterwards
     */
    long drain() {
      long n = 0;
      while (!done()) {
        n += filled - at;
        if (part != null) { // the rest of the part need not be decoded
          n += part.size() - decoded;
          at = filled = 0;
          break;
        }
        at = filled;
        fill();
      }
      return n;
    }

    /** Fills the next block; none is left when it stays empty. */
    private void fill() {
      at = 0;
      filled = part != null ? fillFromPart() : fillFromUnion();
    }

    private int fillFromPart() {
      int n = Math.min(ids.length, part.size() - decoded);
      if (part.ids() != null) {
        System.arraycopy(part.ids(), decoded, ids, 0, n);
      } else {
        long[] bits = part.bits();
        int w = word;
        long left = wordBits;
        for (int i = 0; i < n; i++) {
          while (left == 0) {
            left = bits[++w];
          }
          ids[i] = (w << 6) + Long.numberOfTrailingZeros(left);
          left &= left - 1;
        }
        word = w;
        wordBits = left;
      }
      decoded += n;
      StringDictionary dictionary = dictionaries[0];
      for (int i = 0; i < n; i++) {
        keys[i] = dictionary.prefix(ids[i]);
      }
      return n;
    }

    /**
     * The next strings of the union of the two cursors, each once: one comparison of prefix keys
     * per step, whose outcome picks the string and moves one cursor or the other without a branch
     * to mispredict; only tied keys compare bytes.
     */
    private int fillFromUnion() {
      int n = 0;
      int bOwners = a.dictionaries.length;
      while (n < keys.length && !a.done() && !b.done()) {
        int c = compare(a, b);
        long takeA = c <= 0 ? -1L : 0L;
        keys[n] = (a.key() & takeA) | (b.key() & ~takeA);
        refs[n] = (a.ref(0) & takeA) | (b.ref(bOwners) & ~takeA);
        n++;
        a.advance(c <= 0 ? 1 : 0);
        b.advance(c >= 0 ? 1 : 0);
      }
      for (; n < keys.length && !a.done(); a.advance(1)) {
        keys[n] = a.key();
        refs[n++] = a.ref(0);
      }
      for (; n < keys.length && !b.done(); b.advance(1)) {
        keys[n] = b.key();
        refs[n++] = b.ref(bOwners);
      }
      return n;
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
