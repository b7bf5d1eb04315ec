package dev.chartwell.engine.internal.segment;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Front coding of sorted byte strings, as Lucene's terms dictionary does it: entries are grouped in
 * blocks of {@link #BLOCK}; the first entry of a block is stored whole, every other one as the
 * length of the prefix it shares with the entry before it and the bytes after that prefix. Sorted
 * values of a templated text (log bodies, URLs, paths) share most of their bytes with their
 * neighbour, so a block holds a fraction of their length.
 *
 * <p>Layout of a block: {@code vint(length) bytes}, then for each further entry {@code vint(shared)
 * vint(suffixLength) suffix}. Where each block starts is kept beside the data (bit-packed), so an
 * entry is found by decoding at most {@code BLOCK - 1} entries before it.
 */
final class FrontCoding {
  /** Entries per block. */
  static final int BLOCK = 16;

  private FrontCoding() {}

  /** The encoded entries and where each block starts (one more offset: the end). */
  record Encoded(byte[] data, long[] blockStarts) {}

  /**
   * @param entries sorted entries
   * @return the bytes the entries take front-coded
   */
  static long size(Utf8Strings entries) {
    long size = 0;
    for (int i = 0; i < entries.size(); i++) {
      int length = entries.length(i);
      if (i % BLOCK == 0) {
        size += vintSize(length) + length;
      } else {
        int shared = entries.shared(i - 1, i);
        size += vintSize(shared) + vintSize(length - shared) + length - shared;
      }
    }
    return size;
  }

  /**
   * @param entries sorted entries
   * @return them front-coded
   */
  static Encoded encode(Utf8Strings entries) {
    long size = size(entries);
    if (size > Integer.MAX_VALUE) {
      throw new IllegalStateException("a dictionary larger than 2 GiB in one segment");
    }
    byte[] data = new byte[(int) size];
    long[] starts = new long[blocks(entries.size()) + 1];
    int pos = 0;
    for (int i = 0; i < entries.size(); i++) {
      int length = entries.length(i);
      int shared = 0;
      if (i % BLOCK == 0) {
        starts[i / BLOCK] = pos;
      } else {
        shared = entries.shared(i - 1, i);
        pos = putVint(data, pos, shared);
      }
      pos = putVint(data, pos, length - shared);
      System.arraycopy(entries.data(), entries.start(i) + shared, data, pos, length - shared);
      pos += length - shared;
    }
    starts[starts.length - 1] = pos;
    return new Encoded(data, starts);
  }

  /**
   * @param entries how many entries
   * @return how many blocks hold them
   */
  static int blocks(int entries) {
    return (entries + BLOCK - 1) / BLOCK;
  }

  private static int vintSize(int v) {
    return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
  }

  private static int putVint(byte[] out, int pos, int v) {
    while ((v & ~0x7F) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
  }

  /**
   * Compares the first entry of a block (stored whole) with a key, in {@link String#compareTo}
   * order, where it lies: the lookup's binary search over blocks copies nothing.
   *
   * @param data the encoded entries
   * @param blockStart where the block starts
   * @param key UTF-8 bytes
   * @return negative, zero or positive as the entry is less than, equal to or greater than the key
   */
  static int compareFirst(ByteBuffer data, int blockStart, byte[] key) {
    int pos = blockStart;
    int length = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = data.get(pos++);
      length |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    int n = Math.min(length, key.length);
    for (int i = 0; i < n; i++) {
      byte a = data.get(pos + i);
      if (a != key[i]) {
        return Utf8Order.utf16Rank(a & 0xFF) - Utf8Order.utf16Rank(key[i] & 0xFF);
      }
    }
    return Integer.compare(length, key.length);
  }

  /**
   * Reads the entries of a front-coded dictionary in order from the start of a block. Not
   * thread-safe: one reader per thread (it keeps the entry it decoded last).
   */
  static final class Reader {
    private final ByteBuffer data;
    private byte[] entry = new byte[64];
    private int length;
    private int pos;

    /**
     * @param data the encoded entries
     * @param blockStart where the block starts
     */
    Reader(ByteBuffer data, int blockStart) {
      this.data = data;
      this.pos = blockStart;
    }

    /** Decodes the first entry of the block. */
    void first() {
      length = 0;
      append(vint());
    }

    /** Decodes the entry after the one decoded last, in the same block. */
    void next() {
      length = vint();
      append(vint());
    }

    /**
     * @return the bytes of the entry decoded last (valid up to {@link #length()})
     */
    byte[] entry() {
      return entry;
    }

    /**
     * @return the length of the entry decoded last
     */
    int length() {
      return length;
    }

    private void append(int suffix) {
      int end = length + suffix;
      if (end > entry.length) {
        entry = Arrays.copyOf(entry, Math.max(end, 2 * entry.length));
      }
      data.get(pos, entry, length, suffix);
      pos += suffix;
      length = end;
    }

    private int vint() {
      int v = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = data.get(pos++);
        v |= (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
    }
  }
}
