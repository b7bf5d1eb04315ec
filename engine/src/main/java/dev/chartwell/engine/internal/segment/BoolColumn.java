package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Booleans as two bitmaps: the rows that are true and the rows that are false.
 *
 * @param trueRows rows whose value is true
 * @param falseRows rows whose value is false
 * @param rows rows in the segment
 */
public record BoolColumn(
    ImmutableRoaringBitmap trueRows, ImmutableRoaringBitmap falseRows, int rows) implements Column {

  @Override
  public ColumnType type() {
    return ColumnType.BOOL;
  }

  @Override
  public ImmutableRoaringBitmap presence() {
    int present = presentCount();
    return present == rows ? null : MutableRoaringBitmap.or(trueRows, falseRows);
  }

  @Override
  public boolean isPresent(int row) {
    return trueRows.contains(row) || falseRows.contains(row);
  }

  @Override
  public int presentCount() {
    return trueRows.getCardinality() + falseRows.getCardinality();
  }

  /**
   * @param row a present row
   * @return its value
   */
  public boolean get(int row) {
    return trueRows.contains(row);
  }

  @Override
  public long bytes() {
    return 48 + Segment.bitmapBytes(trueRows) + Segment.bitmapBytes(falseRows);
  }
}
