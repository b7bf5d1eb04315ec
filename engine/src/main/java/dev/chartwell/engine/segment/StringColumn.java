package dev.chartwell.engine.segment;

import dev.chartwell.engine.source.ColumnType;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Dictionary-encoded strings: a sorted dictionary of the segment's distinct values, each row's
 * value id bit-packed (stored as id + 1, 0 for an absent row), and the rows of every value as a
 * bitmap. A string predicate is evaluated once per dictionary entry and its matching values'
 * bitmaps are OR-ed; a group key is a value id.
 *
 * @param dictionary distinct values, sorted
 * @param ordinals per row: value id + 1, or 0 when absent
 * @param postings per value id: the rows holding it
 * @param presence rows with a value, {@code null} when all
 * @param presentCount number of rows with a value
 */
public record StringColumn(
    StringDictionary dictionary,
    PackedLongs ordinals,
    BitmapList postings,
    ImmutableRoaringBitmap presence,
    int presentCount)
    implements Column {

  @Override
  public ColumnType type() {
    return ColumnType.STRING;
  }

  /**
   * @param row a row
   * @return the value id, or -1 when the row has no value
   */
  public int id(int row) {
    return (int) ordinals.get(row) - 1;
  }

  /**
   * @param row a row
   * @return the value, or {@code null} when absent
   */
  public String get(int row) {
    int id = id(row);
    return id < 0 ? null : dictionary.get(id);
  }

  /**
   * @param id a value id
   * @return the rows holding that value
   */
  public ImmutableRoaringBitmap rows(int id) {
    return postings.get(id);
  }

  @Override
  public long bytes() {
    return 64
        + dictionary.bytes()
        + ordinals.bytes()
        + postings.bytes()
        + Segment.bitmapBytes(presence);
  }
}
