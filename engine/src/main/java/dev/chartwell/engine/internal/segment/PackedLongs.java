package dev.chartwell.engine.internal.segment;

import java.nio.LongBuffer;

/**
 * Immutable longs stored frame-of-reference: each value as its unsigned distance from the minimum,
 * bit-packed with just enough bits for the largest distance. Timestamps of a segment (sorted, close
 * together) and low-range columns such as HTTP status codes take a few bits per value instead of
 * 64.
 *
 * <p>The packed words live in a {@link LongBuffer}: a Java array for a segment built in memory, or
 * a view of a memory-mapped segment file (see {@link SegmentFile}).
 */
public final class PackedLongs {
  private final long min;
  private final int bits;
  private final long mask;
  private final LongBuffer words;
  private final int size;

  private PackedLongs(long min, int bits, LongBuffer words, int size) {
    this.min = min;
    this.bits = bits;
    this.mask = bits == 64 ? -1L : (1L << bits) - 1;
    this.words = words;
    this.size = size;
  }

  /**
   * @param values the values (not modified)
   * @param size how many of them to pack
   * @return the packed values
   */
  public static PackedLongs pack(long[] values, int size) {
    if (size == 0) {
      return new PackedLongs(0, 0, LongBuffer.allocate(0), 0);
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < size; i++) {
      min = Math.min(min, values[i]);
      max = Math.max(max, values[i]);
    }
    int bits = 64 - Long.numberOfLeadingZeros(max - min); // unsigned distance
    long[] words = new long[wordCount(size, bits)];
    if (bits > 0) {
      for (int i = 0; i < size; i++) {
        long delta = values[i] - min;
        long bitPos = (long) i * bits;
        int w = (int) (bitPos >>> 6);
        int shift = (int) (bitPos & 63);
        words[w] |= delta << shift;
        if (shift + bits > 64) {
          words[w + 1] |= delta >>> (64 - shift);
        }
      }
    }
    return new PackedLongs(min, bits, LongBuffer.wrap(words), size);
  }

  /**
   * Reads packed values back from their parts, as {@link SegmentFile} stores them.
   *
   * @param min the minimum
   * @param bits bits per value, 0 to 64
   * @param size the number of values
   * @param words the words, exactly {@link #wordCount} of them
   * @return the values
   * @throws IllegalArgumentException when the parts do not fit together
   */
  static PackedLongs of(long min, int bits, int size, LongBuffer words) {
    if (bits < 0 || bits > 64 || size < 0 || words.capacity() != wordCount(size, bits)) {
      throw new IllegalArgumentException(
          "packed longs of "
              + size
              + " values at "
              + bits
              + " bits need "
              + wordCount(size, bits)
              + " words, found "
              + words.capacity());
    }
    return new PackedLongs(min, bits, words, size);
  }

  /**
   * @param size values
   * @param bits bits per value
   * @return the words they take
   */
  static int wordCount(int size, int bits) {
    return (int) (((long) size * bits + 63) >>> 6);
  }

  /**
   * @param index a position from 0 to {@code size() - 1}
   * @return the value there
   */
  public long get(int index) {
    if (bits == 0) {
      return min;
    }
    long bitPos = (long) index * bits;
    int w = (int) (bitPos >>> 6);
    int shift = (int) (bitPos & 63);
    long v = words.get(w) >>> shift;
    if (shift + bits > 64) {
      v |= words.get(w + 1) << (64 - shift);
    }
    return min + (v & mask);
  }

  /**
   * Decodes a run of values that fit in an int (ids, ordinals): sequential, without per-value
   * multiplication.
   *
   * @param from first position
   * @param to one past the last position
   * @param out receives the values from index 0
   */
  public void getInts(int from, int to, int[] out) {
    if (bits == 0) {
      java.util.Arrays.fill(out, 0, to - from, (int) min);
      return;
    }
    LongBuffer words = this.words;
    long bitPos = (long) from * bits;
    for (int i = 0, n = to - from; i < n; i++, bitPos += bits) {
      int w = (int) (bitPos >>> 6);
      int shift = (int) (bitPos & 63);
      long v = words.get(w) >>> shift;
      if (shift + bits > 64) {
        v |= words.get(w + 1) << (64 - shift);
      }
      out[i] = (int) (min + (v & mask));
    }
  }

  /**
   * @return the number of values
   */
  public int size() {
    return size;
  }

  /**
   * @return the minimum, from which every value is an unsigned distance
   */
  long min() {
    return min;
  }

  /**
   * @return bits per value
   */
  int bits() {
    return bits;
  }

  /**
   * @return the packed words (read them with absolute gets; do not move the position)
   */
  LongBuffer words() {
    return words;
  }

  /**
   * @return bytes of the packed words and the fields that describe them
   */
  public long bytes() {
    return 16L + 8L * words.capacity() + 32;
  }
}
