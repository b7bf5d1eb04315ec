package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * One column of a sealed {@link Segment}, in the segment's (time) row order. A row may lack a
 * value; {@link #presence()} says which rows have one.
 */
public sealed interface Column permits LongColumn, DoubleColumn, BoolColumn, StringColumn {
  /**
   * @return the column type
   */
  ColumnType type();

  /**
   * @return the rows that have a value, or {@code null} when every row has one
   */
  ImmutableRoaringBitmap presence();

  /**
   * @param row a row of the segment
   * @return whether the row has a value
   */
  default boolean isPresent(int row) {
    ImmutableRoaringBitmap p = presence();
    return p == null || p.contains(row);
  }

  /**
   * @return the number of rows that have a value
   */
  int presentCount();

  /**
   * @return bytes used by this column (on the heap, or in its segment file when mapped)
   */
  long bytes();
}
