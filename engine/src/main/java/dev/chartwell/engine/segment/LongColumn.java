package dev.chartwell.engine.segment;

import dev.chartwell.engine.source.ColumnType;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * 64-bit integers, frame-of-reference bit-packed, with the minimum and maximum of the present
 * values as the zone map.
 *
 * @param values values by row (absent rows hold the minimum)
 * @param presence rows with a value, {@code null} when all
 * @param presentCount number of rows with a value
 * @param min smallest present value (undefined when none)
 * @param max largest present value (undefined when none)
 */
public record LongColumn(
    PackedLongs values, ImmutableRoaringBitmap presence, int presentCount, long min, long max)
    implements Column {

  @Override
  public ColumnType type() {
    return ColumnType.LONG;
  }

  /**
   * @param row a row
   * @return its value (meaningful only when the row is present)
   */
  public long get(int row) {
    return values.get(row);
  }

  @Override
  public long bytes() {
    return 48 + values.bytes() + Segment.bitmapBytes(presence);
  }
}
