package dev.chartwell.engine.internal.exec;

import org.roaringbitmap.BatchIterator;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * The matching rows of a segment in ascending order, handed out in batches that stop at a bucket's
 * end: either a plain row range or the rows of a bitmap, read with Roaring's batch iterator rather
 * than one row at a time.
 */
final class RowCursor {
  private final BatchIterator bits;
  private final int[] buffer;
  private int position;
  private int length;
  private int nextRow;
  private final int end;

  private RowCursor(ImmutableRoaringBitmap rows, int from, int to, int batch) {
    this.bits = rows == null ? null : rows.getBatchIterator();
    this.buffer = rows == null ? null : new int[batch];
    this.nextRow = from;
    this.end = to;
  }

  /**
   * @param rows matching rows, or {@code null} when every row of the range matches
   * @param from first row of the range
   * @param to one past the last row of the range
   * @param batch batch size
   * @return the cursor
   */
  static RowCursor of(ImmutableRoaringBitmap rows, int from, int to, int batch) {
    return new RowCursor(rows, from, to, batch);
  }

  /**
   * Fills {@code out} with the next matching rows below {@code limit}.
   *
   * @param out receives rows
   * @param limit rows at or beyond it are left for later
   * @return how many rows were written: fewer than {@code out} holds only when none remain below
   *     the limit (0 when none did), so that a caller knows a bucket's last batch when it gets it
   */
  int next(int[] out, int limit) {
    int n = 0;
    if (bits == null) {
      int stop = Math.min(limit, end);
      while (n < out.length && nextRow < stop) {
        out[n++] = nextRow++;
      }
      return n;
    }
    while (n < out.length) {
      if (position == length) {
        if (!bits.hasNext()) {
          break;
        }
        length = bits.nextBatch(buffer);
        position = 0;
        if (length == 0) {
          break;
        }
      }
      // the rows below the limit, found by binary search when the limit falls inside the batch
      int available = Math.min(length - position, out.length - n);
      int below = available;
      if (buffer[position + available - 1] >= limit) {
        int lo = position;
        int hi = position + available - 1;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (buffer[mid] >= limit) {
            hi = mid;
          } else {
            lo = mid + 1;
          }
        }
        below = lo - position;
      }
      System.arraycopy(buffer, position, out, n, below);
      n += below;
      position += below;
      if (below < available) {
        break;
      }
    }
    return n;
  }
}
