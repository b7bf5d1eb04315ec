package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Dictionary-encoded strings: a sorted dictionary of the segment's distinct values, each row's
 * value id bit-packed (stored as id + 1, 0 for an absent row), and the rows of every value as a
 * bitmap. A string predicate is evaluated once per dictionary entry and its matching values'
 * bitmaps are OR-ed; a group key is a value id.
 *
 * <p>A nearly unique column (more distinct values than half its rows: trace ids, log bodies) keeps
 * no bitmaps: they would mostly repeat the ids the other way round, a single row per value at 2.4
 * bytes a row. Its predicates read each candidate row's id instead (a lookup of one trace id reads
 * the ids of the segments whose dictionary holds it), and {@link #rows} reads all of them.
 *
 * @param dictionary distinct values, sorted
 * @param ordinals per row: value id + 1, or 0 when absent
 * @param postings per value id: the rows holding it; {@code null} for a nearly unique column
 *     ({@link #keepsPostings})
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

  /**
   * @param values distinct values
   * @param present rows with a value
   * @return whether a column of so many values keeps posting lists: unless it is nearly unique
   */
  public static boolean keepsPostings(int values, int present) {
    return 2L * values <= present;
  }

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
   * @return the rows holding that value (read from every row's id when the column keeps no bitmaps)
   */
  public ImmutableRoaringBitmap rows(int id) {
    if (postings != null) {
      return postings.get(id);
    }
    org.roaringbitmap.buffer.MutableRoaringBitmap rows =
        new org.roaringbitmap.buffer.MutableRoaringBitmap();
    for (int row = 0; row < ordinals.size(); row++) {
      if (ordinals.get(row) == id + 1L) {
        rows.add(row);
      }
    }
    return rows;
  }

  @Override
  public long bytes() {
    return 64
        + dictionary.bytes()
        + ordinals.bytes()
        + (postings == null ? 0 : postings.bytes())
        + Segment.bitmapBytes(presence);
  }
}
