package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import java.nio.LongBuffer;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * 64-bit integers, frame-of-reference bit-packed, with the minimum and maximum of the present
 * values as the zone map. A column with few distinct values (status codes, enums) also keeps the
 * rows of each value as a bitmap, like a string column, so that filters on it need no scan; each
 * row then holds its value's position among them (3 bits for 8 status codes where their range took
 * 9), as dictionary ids do.
 *
 * @param values by row: values, frame-of-reference (absent rows hold the minimum); or, when {@code
 *     ordinals}, positions in the index's values (absent rows hold 0)
 * @param presence rows with a value, {@code null} when all
 * @param presentCount number of rows with a value
 * @param min smallest present value (undefined when none)
 * @param max largest present value (undefined when none)
 * @param index the rows of each distinct value, or {@code null} when there are many values
 * @param ordinals whether {@code values} holds positions in the index (segment format 4 on)
 */
public record LongColumn(
    PackedLongs values,
    ImmutableRoaringBitmap presence,
    int presentCount,
    long min,
    long max,
    ValueIndex index,
    boolean ordinals)
    implements Column {

  /** Checks that positions come with an index. */
  public LongColumn {
    if (ordinals && index == null) {
      throw new IllegalArgumentException("positions in a value index that is not there");
    }
  }

  /** Most distinct values a long column may have to get a {@link ValueIndex}. */
  public static final int MAX_INDEXED_VALUES = 256;

  /**
   * The distinct values of a low-cardinality long column and the rows of each.
   *
   * @param values distinct values, ascending
   * @param postings per value: the rows holding it
   */
  public record ValueIndex(LongBuffer values, BitmapList postings) {
    long bytes() {
      return 32 + 8L * values.capacity() + postings.bytes();
    }
  }

  @Override
  public ColumnType type() {
    return ColumnType.LONG;
  }

  /**
   * @param row a row
   * @return its value (meaningful only when the row is present)
   */
  public long get(int row) {
    return ordinals ? index.values().get((int) values.get(row)) : values.get(row);
  }

  @Override
  public long bytes() {
    return 48
        + values.bytes()
        + Segment.bitmapBytes(presence)
        + (index == null ? 0 : index.bytes());
  }
}
