package dev.chartwell.engine.internal.agg;

import dev.chartwell.engine.internal.segment.PackedLongs;
import dev.chartwell.engine.internal.segment.StringColumn;
import java.util.Arrays;

/**
 * The set of value ids in each block of {@link #ROWS} rows of a string column with at most {@link
 * #MAX_IDS} values, as a bitset, so that counting distinct values over a long row range ORs one
 * bitset per whole block and decodes only the rows of the two partial blocks at its ends. Derived
 * once per segment and column (at most {@code MAX_IDS} bits per block: 0.125 bytes per row) and
 * kept with the segment.
 */
final class IdBlocks {
  /** Rows per block. */
  static final int ROWS = 4096;

  /** The largest dictionary summarized: beyond it the bitsets would outweigh the rows. */
  static final int MAX_IDS = 4096;

  private final PackedLongs ordinals;
  private final int blocks;
  private final int words;
  private final long[] bits;

  private IdBlocks(PackedLongs ordinals, int blocks, int words, long[] bits) {
    this.ordinals = ordinals;
    this.blocks = blocks;
    this.words = words;
    this.bits = bits;
  }

  /**
   * @param column a string column with at most {@link #MAX_IDS} values
   * @param rows the segment's rows
   * @return the column's block summaries
   */
  static IdBlocks of(StringColumn column, int rows) {
    int words = (column.dictionary().size() + 63) >>> 6;
    int blocks = rows / ROWS; // a last partial block is decoded row by row
    long[] bits = new long[blocks * words];
    int[] scratch = new int[ROWS];
    long[] block = new long[words];
    for (int b = 0; b < blocks; b++) {
      Arrays.fill(block, 0);
      addIds(column.ordinals(), b * ROWS, (b + 1) * ROWS, block, scratch);
      System.arraycopy(block, 0, bits, b * words, words);
    }
    return new IdBlocks(column.ordinals(), blocks, words, bits);
  }

  /**
   * Sets the bit of each value id present in a row range.
   *
   * @param out one bit per value id
   * @param from first row
   * @param to one past the last row
   */
  void addIds(long[] out, int from, int to) {
    int first = (from + ROWS - 1) / ROWS;
    int last = Math.min(to / ROWS, blocks);
    if (first >= last) {
      addIds(ordinals, from, to, out, Scratch.ordinals());
      return;
    }
    int[] scratch = Scratch.ordinals();
    addIds(ordinals, from, first * ROWS, out, scratch);
    for (int b = first; b < last; b++) {
      for (int w = 0, at = b * words; w < words; w++) {
        out[w] |= bits[at + w];
      }
    }
    addIds(ordinals, last * ROWS, to, out, scratch);
  }

  /**
   * Sets the bit of each value id present in a row range, decoding its rows.
   *
   * @param ordinals a string column's ordinals (id + 1, 0 when absent)
   * @param from first row
   * @param to one past the last row
   * @param out one bit per value id
   * @param scratch room for decoded ordinals
   */
  static void addIds(PackedLongs ordinals, int from, int to, long[] out, int[] scratch) {
    for (int start = from; start < to; start += scratch.length) {
      int end = Math.min(to, start + scratch.length);
      ordinals.getInts(start, end, scratch);
      for (int i = 0, n = end - start; i < n; i++) {
        int id = scratch[i] - 1; // ordinal 0: absent
        if (id >= 0) {
          out[id >>> 6] |= 1L << id;
        }
      }
    }
  }
}
