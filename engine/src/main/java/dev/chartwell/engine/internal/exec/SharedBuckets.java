package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.internal.segment.Segment;
import java.util.Arrays;
import java.util.List;

/**
 * The buckets of one series' query that more than one of its segments holds rows in. A bucket held
 * by one segment alone gets rows from that segment alone, so its states need no merging with other
 * segments' and may be finished at once, while their values are still in the cache, instead of
 * being kept for the merge (a p95 per minute and service over a day keeps 14,400 arrays of values
 * otherwise).
 *
 * <p>Found from the buckets each segment holds within the query's times, walked as its task walks
 * them ({@link BucketWalk}: the bucket table the segment keeps, or a search of its timestamps per
 * bucket); one step per bucket a segment holds, not per row. Segments that overlap in time (the
 * events of several connections interleaved, late arrivals) share only the buckets both hold rows
 * in, where their time ranges alone would share every bucket from the later first event to the
 * earlier last one. A segment whose file is not verified yet is not read here: every bucket between
 * its first and last event counts as shared, its own included.
 */
final class SharedBuckets {
  /** Every bucket shared: none is finished in a task. */
  static final SharedBuckets ALL = new SharedBuckets(null, new long[0]);

  private final long[] shared; // sorted bucket starts held by two segments or more; null: all
  private final long[] ranges; // first and last times of the segments not read, in pairs

  private SharedBuckets(long[] shared, long[] ranges) {
    this.shared = shared;
    this.ranges = ranges;
  }

  /**
   * @param bucketStart a bucket's start
   * @param length the buckets' length in milliseconds
   * @return whether only one segment holds rows in the bucket
   */
  boolean sole(long bucketStart, long length) {
    if (shared == null || Arrays.binarySearch(shared, bucketStart) >= 0) {
      return false;
    }
    long last = bucketStart + length - 1;
    for (int i = 0; i < ranges.length; i += 2) {
      if (ranges[i] <= last && ranges[i + 1] >= bucketStart) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param segments a series' segments
   * @param startTime the query's first time
   * @param endTime its last time, inclusive ({@link Long#MAX_VALUE}: no end)
   * @param granularity its buckets
   * @return the buckets more than one of the segments holds rows in, between those times
   */
  static SharedBuckets of(
      List<Segment> segments, long startTime, long endTime, Granularity granularity) {
    long[] starts = new long[64];
    int n = 0;
    long[] ranges = new long[0];
    for (Segment s : segments) {
      if (!s.isVerified() || s.verify() != null) {
        // Its timestamps are not known to be sound yet: its whole range, conservatively.
        ranges = Arrays.copyOf(ranges, ranges.length + 2);
        ranges[ranges.length - 2] = s.minTimestamp();
        ranges[ranges.length - 1] = s.maxTimestamp();
        continue;
      }
      int lo = s.firstRowAtOrAfter(startTime);
      int hi = endTime == Long.MAX_VALUE ? s.rows() : s.firstRowAtOrAfter(endTime + 1);
      BucketWalk buckets = new BucketWalk(s, granularity, hi);
      for (int r = lo; r < hi; r = buckets.end) {
        buckets.at(r);
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, 2 * n);
        }
        starts[n++] = buckets.start;
      }
    }
    Arrays.sort(starts, 0, n);
    long[] shared = new long[n / 2];
    int m = 0;
    for (int k = 1; k < n; k++) {
      if (starts[k] == starts[k - 1] && (m == 0 || shared[m - 1] != starts[k])) {
        shared[m++] = starts[k];
      }
    }
    return new SharedBuckets(Arrays.copyOf(shared, m), ranges);
  }
}
