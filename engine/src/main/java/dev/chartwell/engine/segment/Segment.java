package dev.chartwell.engine.segment;

import java.util.Map;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * An immutable, time-sorted block of events in columnar form. Rows are numbered in timestamp order,
 * so a time range is a row range found by binary search, never a scan. A segment is either sealed
 * (part of a source's history) or a frozen view of the source's head taken for one query.
 */
public final class Segment {
  private final long id;
  private final int rows;
  private final PackedLongs timestamps;
  private final Map<String, Column> columns;
  private final String implicitColumn;
  private final TokenIndex tokenIndex;
  private final long bytes;

  Segment(
      long id,
      int rows,
      PackedLongs timestamps,
      Map<String, Column> columns,
      String implicitColumn,
      TokenIndex tokenIndex) {
    this.id = id;
    this.rows = rows;
    this.timestamps = timestamps;
    this.columns = Map.copyOf(columns);
    this.implicitColumn = implicitColumn;
    this.tokenIndex = tokenIndex;
    long total = 64 + timestampBytes() + tokenIndexBytes();
    for (Column c : this.columns.values()) {
      total += c.bytes();
    }
    this.bytes = total;
  }

  /**
   * @return an id unique within its source, increasing in sealing order
   */
  public long id() {
    return id;
  }

  /**
   * @return number of rows
   */
  public int rows() {
    return rows;
  }

  /**
   * @param row a row
   * @return its timestamp, epoch milliseconds
   */
  public long timestamp(int row) {
    return timestamps.get(row);
  }

  /**
   * @return the earliest timestamp (undefined when empty)
   */
  public long minTimestamp() {
    return timestamps.get(0);
  }

  /**
   * @return the latest timestamp (undefined when empty)
   */
  public long maxTimestamp() {
    return timestamps.get(rows - 1);
  }

  /**
   * @param ts a timestamp
   * @return the first row whose timestamp is at least {@code ts} ({@link #rows()} when none)
   */
  public int firstRowAtOrAfter(long ts) {
    int lo = 0;
    int hi = rows;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (timestamps.get(mid) < ts) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * @param name a column name
   * @return the column, or {@code null} when no event of this segment has the field
   */
  public Column column(String name) {
    return columns.get(name);
  }

  /**
   * @return every column by name
   */
  public Map<String, Column> columns() {
    return columns;
  }

  /**
   * @return the name of the implicit (full-text) column, or {@code null}
   */
  public String implicitColumn() {
    return implicitColumn;
  }

  /**
   * @return the token index of the implicit column, or {@code null} when it has no values here
   */
  public TokenIndex tokenIndex() {
    return tokenIndex;
  }

  /**
   * @return heap bytes of the timestamps
   */
  public long timestampBytes() {
    return timestamps.bytes();
  }

  /**
   * @return heap bytes of the token index
   */
  public long tokenIndexBytes() {
    return tokenIndex == null ? 0 : tokenIndex.bytes();
  }

  /**
   * @return heap bytes of the whole segment
   */
  public long bytes() {
    return bytes;
  }

  static long bitmapBytes(ImmutableRoaringBitmap b) {
    return b == null ? 0 : 32 + b.serializedSizeInBytes();
  }
}
