package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import java.util.Arrays;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * One column of a {@link SegmentBuilder}: its values in arrival order, in a growable buffer of the
 * column's type ({@link HeadLongs}, {@link HeadDoubles}, {@link HeadBools}, {@link HeadStrings}),
 * built into the sealed {@link Column} in time order.
 */
abstract class HeadColumn {
  /** Rows that have a value, one bit each (numeric buffers; others encode absence inline). */
  long[] present = new long[0];

  void growPresence(int capacity) {
    present = Arrays.copyOf(present, (capacity + 63) >>> 6);
  }

  void markPresent(int row) {
    present[row >>> 6] |= 1L << row;
  }

  static HeadColumn of(ColumnType type, int capacity) {
    return switch (type) {
      case LONG -> new HeadLongs(capacity);
      case DOUBLE -> new HeadDoubles(capacity);
      case BOOL -> new HeadBools(capacity);
      case STRING -> new HeadStrings(capacity);
    };
  }

  abstract void grow(int capacity);

  abstract void set(int row, Object value);

  /**
   * Sets the values one batch field has for the events of {@code [from, to)} that are not skipped,
   * to rows from {@code firstRow} on.
   */
  void append(EventBatch batch, int field, boolean[] skipped, int from, int to, int firstRow) {
    for (int row = from, r = firstRow; row < to; row++) {
      if (skipped != null && skipped[row]) {
        continue;
      }
      if (batch.tag(field, row) != EventBatch.ABSENT) {
        set(batch, field, row, r);
      }
      r++;
    }
  }

  /** Sets row {@code r} to the value of a batch field for one event (it has one). */
  abstract void set(EventBatch batch, int field, int row, int r);

  /** The values of rows {@code [from, to)}, renumbered from 0. */
  abstract HeadColumn copy(int from, int to);

  abstract long bytes();

  /** The column in sorted row order, or {@code null} when no row has a value. */
  abstract Column build(int[] order, int rows);

  static int source(int[] order, int i) {
    return order == null ? i : order[i];
  }

  /** Bits {@code [from, to)} of {@code bits}, shifted down to start at bit 0. */
  static long[] bitRange(long[] bits, int from, int to) {
    int n = to - from;
    long[] out = new long[(n + 63) >>> 6];
    int shift = from & 63;
    for (int w = 0, word = from >>> 6; w < out.length; w++, word++) {
      long low = word < bits.length ? bits[word] >>> shift : 0;
      long high = shift != 0 && word + 1 < bits.length ? bits[word + 1] << (64 - shift) : 0;
      out[w] = low | high;
    }
    if ((n & 63) != 0) {
      out[out.length - 1] &= (1L << n) - 1;
    }
    return out;
  }

  static boolean bit(long[] bits, int row) {
    return (bits[row >>> 6] & (1L << row)) != 0;
  }

  static PresenceBits presence(long[] bits, int[] order, int rows) {
    int count = 0;
    for (int w = 0; w < rows >>> 6; w++) {
      count += Long.bitCount(bits[w]);
    }
    if ((rows & 63) != 0) {
      count += Long.bitCount(bits[rows >>> 6] & ((1L << rows) - 1));
    }
    if (count == rows) {
      return new PresenceBits(null, count); // the usual case: no rows to list
    }
    int[] present = new int[count];
    for (int i = 0, p = 0; i < rows; i++) {
      if (bit(bits, source(order, i))) {
        present[p++] = i;
      }
    }
    MutableRoaringBitmap bitmap = BitmapList.ofAscending(present, 0, count);
    bitmap.runOptimize();
    return new PresenceBits(bitmap, count);
  }

  /** The rows that have a value (none listed when all do) and how many. */
  record PresenceBits(MutableRoaringBitmap bitmap, int count) {}
}
