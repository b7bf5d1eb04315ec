package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.EventBatch;

/** A double column's values in arrival order, as their bits. */
final class HeadDoubles extends HeadWords {
  HeadDoubles(int capacity) {
    super(capacity);
  }

  @Override
  HeadWords empty() {
    return new HeadDoubles(0);
  }

  @Override
  void set(int row, Object value) {
    values[row] = Double.doubleToRawLongBits((Double) value);
    markPresent(row);
  }

  @Override
  void set(EventBatch batch, int field, int row, int r) {
    values[r] = Double.doubleToRawLongBits(batch.doubleAt(field, row));
    markPresent(r);
  }

  @Override
  Column build(int[] order, int rows) {
    PresenceBits p = presence(present, order, rows);
    if (p.count() == 0) {
      return null;
    }
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double[] sorted = new double[rows];
    for (int i = 0; i < rows; i++) {
      int src = source(order, i);
      if (bit(present, src)) {
        sorted[i] = Double.longBitsToDouble(values[src]);
        min = Math.min(min, sorted[i]);
        max = Math.max(max, sorted[i]);
      }
    }
    return new DoubleColumn(java.nio.DoubleBuffer.wrap(sorted), p.bitmap(), p.count(), min, max);
  }
}
