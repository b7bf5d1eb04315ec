package dev.chartwell.engine.internal.segment;

import java.util.Arrays;

/**
 * Where each time bucket of one length starts in a segment's rows: the start of every bucket that
 * holds a row, and that bucket's first row. Rows are in time order, so a query walks its buckets
 * from one entry to the next instead of searching the timestamps for each bucket's end, which for a
 * short query over many segments was half of its time once other queries had evicted the timestamps
 * from the caches.
 *
 * <p>Derived once per segment and bucket length ({@link Segment#derived}) and kept with the
 * segment: 12 bytes per non-empty bucket. Queries ask only for the engine's fixed granularities, so
 * a segment keeps at most one table per granularity. A length that cuts the segment into more than
 * {@link #maxBuckets} buckets is not kept ({@link #of} returns {@code null}, and the caller
 * searches).
 */
public final class BucketRows {
  private final long[] starts; // the start time of each non-empty bucket, ascending
  private final int[] firstRows; // each bucket's first row; one more entry: the segment's rows

  private BucketRows(long[] starts, int[] firstRows) {
    this.starts = starts;
    this.firstRows = firstRows;
  }

  /**
   * @param segment a segment
   * @param length the bucket length in milliseconds; buckets start at multiples of it
   * @return the segment's buckets of that length, or {@code null} when there are too many to keep
   */
  public static BucketRows of(Segment segment, long length) {
    Object rows = segment.derived("buckets:" + length, s -> build(s, length, maxBuckets(s.rows())));
    return rows instanceof BucketRows b ? b : null;
  }

  /** At most one bucket per 16 rows (and at least 64 buckets) are kept. */
  static int maxBuckets(int rows) {
    return Math.max(64, rows / 16);
  }

  /**
   * @return the segment's buckets, or {@link Boolean#FALSE} when more than {@code max} (so that the
   *     attempt is not repeated)
   */
  static Object build(Segment segment, long length, int max) {
    int rows = segment.rows();
    long[] starts = new long[Math.min(16, max)];
    int[] firstRows = new int[starts.length + 1];
    int n = 0;
    for (int r = 0; r < rows; ) {
      if (n == max) {
        return Boolean.FALSE;
      }
      if (n == starts.length) {
        starts = Arrays.copyOf(starts, Math.min(max, 2 * n));
        firstRows = Arrays.copyOf(firstRows, starts.length + 1);
      }
      long start = Math.floorDiv(segment.timestamp(r), length) * length;
      starts[n] = start;
      firstRows[n++] = r;
      r = segment.firstRowAtOrAfter(start + length);
    }
    firstRows[n] = rows;
    return new BucketRows(Arrays.copyOf(starts, n), Arrays.copyOf(firstRows, n + 1));
  }

  /**
   * @param row a row of the segment
   * @return the index of the bucket holding it
   */
  public int indexOf(int row) {
    int i = Arrays.binarySearch(firstRows, 0, starts.length, row);
    return i >= 0 ? i : -i - 2;
  }

  /**
   * @param i a bucket's index
   * @return its start time
   */
  public long start(int i) {
    return starts[i];
  }

  /**
   * @param i a bucket's index
   * @return one past its last row: the next bucket's first row, or the segment's rows
   */
  public int end(int i) {
    return firstRows[i + 1];
  }

  /**
   * @return the number of non-empty buckets
   */
  public int size() {
    return starts.length;
  }
}
