package dev.chartwell.engine.segment;

import java.nio.LongBuffer;

/**
 * The timestamps of a segment, in row order (ascending), frame-of-reference coded per block of
 * {@link #BLOCK} rows: each block keeps its first value and the bits its span needs, and each row
 * its distance from that first value. A block of sorted timestamps spans a second or so where the
 * whole segment spans hours, so a row takes about half the bits one frame for the segment gives it
 * (as Lucene's block-packed doc values do). Random access stays one lookup per block and one
 * unpacking.
 *
 * <p>Segment files of format versions 1 and 2 hold one frame for the whole segment ({@link
 * PackedLongs}); they are read through {@link #flat}.
 */
final class Timestamps {
  /** Rows per block. */
  static final int BLOCK = 128;

  private static final int SHIFT = 7;

  private final PackedLongs flat; // versions 1 and 2, else null
  private final PackedLongs firsts; // per block: its first (smallest) value
  private final PackedLongs blocks; // per block: bit position of its values << 7 | bits per value
  private final LongBuffer words;
  private final int size;

  private Timestamps(
      PackedLongs flat, PackedLongs firsts, PackedLongs blocks, LongBuffer words, int size) {
    this.flat = flat;
    this.firsts = firsts;
    this.blocks = blocks;
    this.words = words;
    this.size = size;
  }

  /**
   * @param values ascending timestamps (not modified)
   * @param size how many of them
   * @return them block-coded
   */
  static Timestamps pack(long[] values, int size) {
    int blockCount = (size + BLOCK - 1) >>> SHIFT;
    long[] firsts = new long[blockCount];
    long[] blocks = new long[blockCount];
    long bitPos = 0;
    for (int b = 0; b < blockCount; b++) {
      int from = b << SHIFT;
      int to = Math.min(size, from + BLOCK);
      long first = values[from];
      long span = 0;
      for (int i = from; i < to; i++) {
        if (values[i] < first) {
          throw new IllegalArgumentException("timestamps are not ascending at row " + i);
        }
        long distance = values[i] - first; // unsigned: a block may span more than 2^63
        if (Long.compareUnsigned(distance, span) > 0) {
          span = distance;
        }
      }
      int bits = 64 - Long.numberOfLeadingZeros(span);
      firsts[b] = first;
      blocks[b] = bitPos << SHIFT | bits;
      bitPos += (long) bits * (to - from);
    }
    long[] words = new long[(int) ((bitPos + 63) >>> 6)];
    for (int b = 0; b < blockCount; b++) {
      int bits = (int) (blocks[b] & (BLOCK - 1));
      long pos = blocks[b] >>> SHIFT;
      for (int i = b << SHIFT, to = Math.min(size, i + BLOCK); i < to; i++, pos += bits) {
        if (bits > 0) {
          long delta = values[i] - firsts[b];
          int w = (int) (pos >>> 6);
          int shift = (int) (pos & 63);
          words[w] |= delta << shift;
          if (shift + bits > 64) {
            words[w + 1] |= delta >>> (64 - shift);
          }
        }
      }
    }
    return new Timestamps(
        null,
        PackedLongs.pack(firsts, blockCount),
        PackedLongs.pack(blocks, blockCount),
        LongBuffer.wrap(words),
        size);
  }

  /**
   * @param packed the timestamps of a version 1 or 2 file: one frame for the segment
   * @return them
   */
  static Timestamps flat(PackedLongs packed) {
    return new Timestamps(packed, null, null, null, packed.size());
  }

  /**
   * Reads block-coded timestamps back from their parts, as {@link SegmentFile} stores them.
   *
   * @param firsts the first value of each block
   * @param blocks each block's bit position and bits per value, as {@link #blocks()} returns them
   * @param words the packed distances
   * @param size how many timestamps
   * @return the timestamps
   * @throws IllegalArgumentException when the parts do not fit together (checked from their sizes
   *     alone; the content is verified by its checksum before a query reads it)
   */
  static Timestamps of(PackedLongs firsts, PackedLongs blocks, LongBuffer words, int size) {
    int blockCount = (size + BLOCK - 1) >>> SHIFT;
    if (size < 0 || firsts.size() != blockCount || blocks.size() != blockCount) {
      throw new IllegalArgumentException(
          "timestamps of " + size + " rows need " + blockCount + " blocks");
    }
    return new Timestamps(null, firsts, blocks, words, size);
  }

  /**
   * @param row a row from 0 to {@code size() - 1}
   * @return its timestamp
   */
  long get(int row) {
    if (flat != null) {
      return flat.get(row);
    }
    int b = row >>> SHIFT;
    long block = blocks.get(b);
    int bits = (int) (block & (BLOCK - 1));
    long first = firsts.get(b);
    if (bits == 0) {
      return first;
    }
    long pos = (block >>> SHIFT) + (long) (row & (BLOCK - 1)) * bits;
    int w = (int) (pos >>> 6);
    int shift = (int) (pos & 63);
    long v = words.get(w) >>> shift;
    if (shift + bits > 64) {
      v |= words.get(w + 1) << (64 - shift);
    }
    return first + (bits == 64 ? v : v & ((1L << bits) - 1));
  }

  /**
   * @return these timestamps block-coded (themselves unless read from a version 1 or 2 file)
   */
  Timestamps blockCoded() {
    if (flat == null) {
      return this;
    }
    long[] values = new long[size];
    for (int i = 0; i < size; i++) {
      values[i] = flat.get(i);
    }
    return pack(values, size);
  }

  /**
   * @return how many timestamps
   */
  int size() {
    return size;
  }

  /**
   * @return the single frame of a version 1 or 2 file, else {@code null}
   */
  PackedLongs flat() {
    return flat;
  }

  /**
   * @return the first value of each block
   */
  PackedLongs firsts() {
    return firsts;
  }

  /**
   * @return per block, the bit position of its values shifted left by 7, or'ed with its bits per
   *     value
   */
  PackedLongs blocks() {
    return blocks;
  }

  /**
   * @return the packed distances (read them with absolute gets)
   */
  LongBuffer words() {
    return words;
  }

  /**
   * @return bytes of the timestamps and what describes them
   */
  long bytes() {
    return flat != null
        ? flat.bytes()
        : 32L + firsts.bytes() + blocks.bytes() + 8L * words.capacity();
  }
}
