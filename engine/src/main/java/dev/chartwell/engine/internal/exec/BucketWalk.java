package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.internal.segment.BucketRows;
import dev.chartwell.engine.internal.segment.Segment;

/**
 * A segment's buckets of one granularity, one after another over a range of its rows: read from the
 * segment's {@link BucketRows} when it keeps them for the granularity (the engine's own lengths),
 * else found by searching its timestamps.
 */
final class BucketWalk {
  private final Segment segment;
  private final Granularity granularity;
  private final int hi;
  private final BucketRows table;
  private int index = -1;

  /** The buckets' length in milliseconds. */
  final long length;

  /** The start time of the current bucket. */
  long start;

  /** One past the current bucket's last row within the walk's rows. */
  int end;

  /**
   * @param segment the segment
   * @param granularity the buckets
   * @param hi one past the last row walked
   */
  BucketWalk(Segment segment, Granularity granularity, int hi) {
    this.segment = segment;
    this.granularity = granularity;
    this.hi = hi;
    this.length = granularity.millis();
    // Only the engine's own lengths are kept with the segment (a library caller may make any).
    this.table = granularity.builtIn() ? BucketRows.of(segment, length) : null;
  }

  /** Moves to the bucket holding row {@code r}. */
  void at(int r) {
    if (table != null) {
      index = index >= 0 && table.end(index) == r ? index + 1 : table.indexOf(r);
      start = table.start(index);
      end = Math.min(hi, table.end(index));
    } else {
      start = granularity.bucketStart(segment.timestamp(r));
      end = Math.min(hi, segment.firstRowAtOrAfter(start + length));
    }
  }
}
