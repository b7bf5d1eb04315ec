package dev.chartwell.engine.internal.segment;

import java.nio.LongBuffer;

/**
 * The timestamps of a segment, in row order (ascending), coded per block of {@link #BLOCK} rows as
 * Lucene's monotonic doc values are: each block keeps its first value and the slope of the line to
 * its last, and each row how far it lies from that line, in the bits the block's deviations need.
 * Events arrive at a roughly steady rate, so a row's time strays from that line by a few arrivals
 * (a hundred milliseconds or so) where its distance from the block's first value runs up to the
 * block's whole span (seconds): about half the bits again. Random access stays one lookup per
 * block, a multiplication (the slope is fixed-point, so no division) and one unpacking.
 *
 * <p>Segment files of format version 3 keep each row's distance from its block's first value
 * ({@code steps} absent); versions 1 and 2 hold one frame for the whole segment ({@link
 * PackedLongs}), read through {@link #flat}.
 */
final class Timestamps {
  /** Rows per block. */
  static final int BLOCK = 128;

  private static final int SHIFT = 7;

  private final PackedLongs flat; // versions 1 and 2, else null
  private final PackedLongs firsts; // per block: its first (smallest) value
  private final PackedLongs blocks; // per block: bit position of its values << 7 | bits per value
  private final PackedLongs steps; // per block: the line's slope << 16 (version 4 on, else null)
  private final PackedLongs lows; // per block: minus the lowest deviation (version 4 on)
  private final LongBuffer words;
  private final int size;

  private Timestamps(
      PackedLongs flat,
      PackedLongs firsts,
      PackedLongs blocks,
      PackedLongs steps,
      PackedLongs lows,
      LongBuffer words,
      int size) {
    this.flat = flat;
    this.firsts = firsts;
    this.blocks = blocks;
    this.steps = steps;
    this.lows = lows;
    this.words = words;
    this.size = size;
  }

  /** Fractional bits of a block's slope. */
  private static final int FRACTION = 16;

  /** Spans from this one on keep plain distances from the block's first value (no line). */
  private static final long MAX_SPAN = 1L << 46;

  /**
   * Where the line from a block's first value with the given slope puts row {@code i} of it: a
   * function of the three numbers alone, so that writing and reading agree to the unit.
   */
  private static long line(long first, long step, int i) {
    return first + ((step * i) >> FRACTION);
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
    long[] steps = new long[blockCount];
    long[] lows = new long[blockCount];
    long[] deviations = new long[Math.min(size, BLOCK)];
    long bitPos = 0;
    for (int b = 0; b < blockCount; b++) {
      int from = b << SHIFT;
      int to = Math.min(size, from + BLOCK);
      long first = values[from];
      for (int i = from + 1; i < to; i++) {
        if (values[i] < values[i - 1]) {
          throw new IllegalArgumentException("timestamps are not ascending at row " + i);
        }
      }
      // A span past 2^46 (not a time in milliseconds, but the format takes any longs) keeps plain
      // distances from the first value, unsigned, with no line.
      long span = values[to - 1] - first;
      long step =
          to - from > 1 && span > 0 && span < MAX_SPAN ? (span << FRACTION) / (to - from - 1) : 0;
      long low = 0;
      long high = 0;
      for (int i = from; i < to; i++) {
        long deviation = values[i] - line(first, step, i - from);
        if (step == 0) {
          high = Long.compareUnsigned(deviation, high) > 0 ? deviation : high;
        } else {
          low = Math.min(low, deviation);
          high = Math.max(high, deviation);
        }
      }
      int bits = 64 - Long.numberOfLeadingZeros(high - low);
      firsts[b] = first;
      steps[b] = step;
      lows[b] = -low;
      blocks[b] = bitPos << SHIFT | bits;
      bitPos += (long) bits * (to - from);
    }
    long[] words = new long[(int) ((bitPos + 63) >>> 6)];
    for (int b = 0; b < blockCount; b++) {
      int bits = (int) (blocks[b] & (BLOCK - 1));
      long pos = blocks[b] >>> SHIFT;
      int from = b << SHIFT;
      int to = Math.min(size, from + BLOCK);
      for (int i = from; i < to && bits > 0; i++, pos += bits) {
        long v = values[i] - line(firsts[b], steps[b], i - from) + lows[b];
        int w = (int) (pos >>> 6);
        int shift = (int) (pos & 63);
        words[w] |= v << shift;
        if (shift + bits > 64) {
          words[w + 1] |= v >>> (64 - shift);
        }
      }
    }
    return new Timestamps(
        null,
        PackedLongs.pack(firsts, blockCount),
        PackedLongs.pack(blocks, blockCount),
        PackedLongs.pack(steps, blockCount),
        PackedLongs.pack(lows, blockCount),
        LongBuffer.wrap(words),
        size);
  }

  /**
   * @param packed the timestamps of a version 1 or 2 file: one frame for the segment
   * @return them
   */
  static Timestamps flat(PackedLongs packed) {
    return new Timestamps(packed, null, null, null, null, null, packed.size());
  }

  /**
   * Reads block-coded timestamps back from their parts, as {@link SegmentFile} stores them.
   *
   * @param firsts the first value of each block
   * @param blocks each block's bit position and bits per value, as {@link #blocks()} returns them
   * @param steps each block's slope, or {@code null} (format version 3: distances from the first)
   * @param lows minus each block's lowest deviation, or {@code null} with {@code steps}
   * @param words the packed deviations (or distances)
   * @param size how many timestamps
   * @return the timestamps
   * @throws IllegalArgumentException when the parts do not fit together (checked from their sizes
   *     alone; the content is verified by its checksum before a query reads it)
   */
  static Timestamps of(
      PackedLongs firsts,
      PackedLongs blocks,
      PackedLongs steps,
      PackedLongs lows,
      LongBuffer words,
      int size) {
    int blockCount = (size + BLOCK - 1) >>> SHIFT;
    if (size < 0
        || firsts.size() != blockCount
        || blocks.size() != blockCount
        || (steps == null) != (lows == null)
        || (steps != null && (steps.size() != blockCount || lows.size() != blockCount))) {
      throw new IllegalArgumentException(
          "timestamps of " + size + " rows need " + blockCount + " blocks");
    }
    return new Timestamps(null, firsts, blocks, steps, lows, words, size);
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
    long v = 0;
    if (bits > 0) {
      long pos = (block >>> SHIFT) + (long) (row & (BLOCK - 1)) * bits;
      int w = (int) (pos >>> 6);
      int shift = (int) (pos & 63);
      v = words.get(w) >>> shift;
      if (shift + bits > 64) {
        v |= words.get(w + 1) << (64 - shift);
      }
      v = bits == 64 ? v : v & ((1L << bits) - 1);
    }
    if (steps == null) {
      return first + v;
    }
    return line(first, steps.get(b), row & (BLOCK - 1)) + v - lows.get(b);
  }

  /**
   * Decodes a run of rows, block by block: each block's first value, slope and width read once, not
   * per row as {@link #get} does.
   *
   * @param from first row
   * @param to one past the last row
   * @param out receives the timestamps from index 0
   */
  void get(int from, int to, long[] out) {
    if (flat != null) {
      for (int row = from; row < to; row++) {
        out[row - from] = flat.get(row);
      }
      return;
    }
    int row = from;
    while (row < to) {
      int b = row >>> SHIFT;
      int end = Math.min(to, (b + 1) << SHIFT);
      long block = blocks.get(b);
      int bits = (int) (block & (BLOCK - 1));
      long first = firsts.get(b);
      long step = steps == null ? 0 : steps.get(b);
      long base = steps == null ? first : first - lows.get(b);
      long mask = bits == 64 ? -1L : (1L << bits) - 1;
      long pos = (block >>> SHIFT) + (long) (row & (BLOCK - 1)) * bits;
      for (; row < end; row++, pos += bits) {
        long v = 0;
        if (bits > 0) {
          int w = (int) (pos >>> 6);
          int shift = (int) (pos & 63);
          v = words.get(w) >>> shift;
          if (shift + bits > 64) {
            v |= words.get(w + 1) << (64 - shift);
          }
          v &= mask;
        }
        out[row - from] = base + ((step * (row & (BLOCK - 1))) >> FRACTION) + v;
      }
    }
  }

  /**
   * @return these timestamps coded as this build writes them (themselves unless read from a file of
   *     an earlier format)
   */
  Timestamps blockCoded() {
    if (steps != null) {
      return this;
    }
    long[] values = new long[size];
    for (int i = 0; i < size; i++) {
      values[i] = get(i);
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
   * @return per block, the slope of its line, with 16 fractional bits
   */
  PackedLongs steps() {
    return steps;
  }

  /**
   * @return per block, minus the lowest deviation from its line
   */
  PackedLongs lows() {
    return lows;
  }

  /**
   * @return the packed deviations (read them with absolute gets)
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
        : 32L
            + firsts.bytes()
            + blocks.bytes()
            + (steps == null ? 0 : steps.bytes() + lows.bytes())
            + 8L * words.capacity();
  }
}
