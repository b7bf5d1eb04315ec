package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.EventBatch;

/** A long column's values in arrival order. */
final class HeadLongs extends HeadWords {
  HeadLongs(int capacity) {
    super(capacity);
  }

  @Override
  HeadWords empty() {
    return new HeadLongs(0);
  }

  @Override
  void set(int row, Object value) {
    values[row] = (Long) value;
    markPresent(row);
  }

  @Override
  void set(EventBatch batch, int field, int row, int r) {
    values[r] = batch.longAt(field, row);
    markPresent(r);
  }

  @Override
  Column build(int[] order, int rows) {
    PresenceBits p = presence(present, order, rows);
    if (p.count() == 0) {
      return null;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long[] sorted = new long[rows];
    for (int i = 0; i < rows; i++) {
      int src = source(order, i);
      if (bit(present, src)) {
        sorted[i] = values[src];
        min = Math.min(min, sorted[i]);
        max = Math.max(max, sorted[i]);
      }
    }
    for (int i = 0; i < rows; i++) {
      if (!bit(present, source(order, i))) {
        sorted[i] = min; // keeps the packed range tight
      }
    }
    int[] positions = new int[rows];
    LongColumn.ValueIndex index = valueIndex(sorted, rows, order, positions);
    if (index != null) {
      for (int i = 0; i < rows; i++) {
        sorted[i] = Math.max(0, positions[i]); // positions in the index (0 where absent)
      }
    }
    return new LongColumn(
        PackedLongs.pack(sorted, rows), p.bitmap(), p.count(), min, max, index, index != null);
  }

  /**
   * Postings per distinct value when there are at most {@link LongColumn#MAX_INDEXED_VALUES}.
   *
   * @param positions receives each row's position among the distinct values, -1 where absent (set
   *     only when the index is made)
   */
  private LongColumn.ValueIndex valueIndex(long[] sorted, int rows, int[] order, int[] positions) {
    long[] distinct = new long[LongColumn.MAX_INDEXED_VALUES];
    int n = 0;
    for (int i = 0; i < rows; i++) {
      if (!bit(present, source(order, i))) {
        continue;
      }
      long v = sorted[i];
      int pos = java.util.Arrays.binarySearch(distinct, 0, n, v);
      if (pos < 0) {
        if (n == distinct.length) {
          return null; // too many values to be worth an index
        }
        pos = -pos - 1;
        System.arraycopy(distinct, pos, distinct, pos + 1, n - pos);
        distinct[pos] = v;
        n++;
      }
    }
    long[] values = java.util.Arrays.copyOf(distinct, n);
    for (int i = 0; i < rows; i++) {
      positions[i] =
          bit(present, source(order, i)) ? java.util.Arrays.binarySearch(values, sorted[i]) : -1;
    }
    return new LongColumn.ValueIndex(
        java.nio.LongBuffer.wrap(values), BitmapList.of(GroupedRows.of(positions, rows, n)));
  }
}
