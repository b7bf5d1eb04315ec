package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.internal.segment.Segment;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The times at which a segment is the only one of a series' segments to hold events: strictly after
 * {@code after} and strictly before {@code before}. A bucket inside it gets rows from this segment
 * alone, so its states need no merging with other segments' and may be finished at once, while
 * their values are still in the cache, instead of being kept for the merge (a p95 per minute and
 * service over a day keeps 14,400 arrays of values otherwise).
 *
 * <p>The span is found from the segments' time ranges alone, conservatively: everything up to the
 * latest end of the segments that start no later than this one, and everything from the earliest
 * start of those that start after it, is shared.
 *
 * @param after the last shared time before the span
 * @param before the first shared time after it
 */
record SoleSpan(long after, long before) {
  /** A segment that shares all its times. */
  static final SoleSpan NONE = new SoleSpan(Long.MAX_VALUE, Long.MIN_VALUE);

  /**
   * @param from a first time
   * @param to a last time, inclusive
   * @return whether every time from {@code from} to {@code to} is in the span
   */
  boolean covers(long from, long to) {
    return from > after && to < before;
  }

  /**
   * @param segments a series' segments
   * @return each one's span, in the same order
   */
  static List<SoleSpan> of(List<Segment> segments) {
    int n = segments.size();
    Integer[] byStart = new Integer[n];
    for (int i = 0; i < n; i++) {
      byStart[i] = i;
    }
    Arrays.sort(byStart, Comparator.comparingLong(i -> segments.get(i).minTimestamp()));
    SoleSpan[] spans = new SoleSpan[n];
    // the two latest ends among the segments started so far, so that each can leave itself out
    long firstEnd = Long.MIN_VALUE;
    int firstOwner = -1;
    long secondEnd = Long.MIN_VALUE;
    int k = 0;
    while (k < n) {
      long start = segments.get(byStart[k]).minTimestamp();
      int groupEnd = k;
      while (groupEnd < n && segments.get(byStart[groupEnd]).minTimestamp() == start) {
        long end = segments.get(byStart[groupEnd]).maxTimestamp();
        if (end > firstEnd) {
          secondEnd = firstEnd;
          firstEnd = end;
          firstOwner = byStart[groupEnd];
        } else if (end > secondEnd) {
          secondEnd = end;
        }
        groupEnd++;
      }
      long before = groupEnd < n ? segments.get(byStart[groupEnd]).minTimestamp() : Long.MAX_VALUE;
      for (int j = k; j < groupEnd; j++) {
        int i = byStart[j];
        spans[i] = new SoleSpan(i == firstOwner ? secondEnd : firstEnd, before);
      }
      k = groupEnd;
    }
    return List.of(spans);
  }
}
