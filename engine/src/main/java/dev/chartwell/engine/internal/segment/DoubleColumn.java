package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import java.nio.DoubleBuffer;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * 64-bit floats with the minimum and maximum of the present values as the zone map.
 *
 * @param values values by row (absent rows hold 0): an array, or a view of a mapped segment file
 * @param presence rows with a value, {@code null} when all
 * @param presentCount number of rows with a value
 * @param min smallest present value (undefined when none)
 * @param max largest present value (undefined when none)
 */
public record DoubleColumn(
    DoubleBuffer values, ImmutableRoaringBitmap presence, int presentCount, double min, double max)
    implements Column {

  @Override
  public ColumnType type() {
    return ColumnType.DOUBLE;
  }

  /**
   * @param row a row
   * @return its value (meaningful only when the row is present)
   */
  public double get(int row) {
    return values.get(row);
  }

  @Override
  public long bytes() {
    return 48 + 16 + 8L * values.capacity() + Segment.bitmapBytes(presence);
  }
}
