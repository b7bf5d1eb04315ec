package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.EventBatch;
import java.util.Arrays;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/** A boolean column's values in arrival order. */
final class HeadBools extends HeadColumn {
  /** 0 absent, 1 false, 2 true. */
  byte[] values;

  HeadBools(int capacity) {
    values = new byte[capacity];
  }

  @Override
  void grow(int capacity) {
    values = Arrays.copyOf(values, capacity);
  }

  @Override
  void set(int row, Object value) {
    values[row] = (byte) (((Boolean) value) ? 2 : 1);
  }

  @Override
  void set(EventBatch batch, int field, int row, int r) {
    values[r] = (byte) (batch.tag(field, row) == EventBatch.TRUE ? 2 : 1);
  }

  @Override
  HeadColumn copy(int from, int to) {
    HeadBools c = new HeadBools(0);
    c.values = Arrays.copyOfRange(values, from, to);
    return c;
  }

  @Override
  long bytes() {
    return 16 + values.length;
  }

  @Override
  Column build(int[] order, int rows) {
    var trues = new MutableRoaringBitmap();
    var falses = new MutableRoaringBitmap();
    for (int i = 0; i < rows; i++) {
      byte v = values[source(order, i)];
      if (v == 2) {
        trues.add(i);
      } else if (v == 1) {
        falses.add(i);
      }
    }
    if (trues.isEmpty() && falses.isEmpty()) {
      return null;
    }
    trues.runOptimize();
    falses.runOptimize();
    return new BoolColumn(trues, falses, rows);
  }
}
