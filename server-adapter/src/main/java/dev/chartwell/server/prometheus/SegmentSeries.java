package dev.chartwell.server.prometheus;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The series of one metric name in one segment, decoded once and laid out series after series: the
 * samples of series {@code i} are {@code times[start[i] .. start[i + 1])} (strictly increasing; of
 * two rows at one millisecond the later is kept) and the same range of {@code values}. A segment
 * never changes, so neither does this: {@link SeriesCache} keeps it for the next query, which then
 * refers to the ranges it needs instead of decoding and scattering the segment's rows again.
 */
final class SegmentSeries {
  /** Bytes counted per series besides its samples: its labels and the arrays' headers. */
  private static final long SERIES_BYTES = 200;

  private final Labels[] labels;
  private final int[] start;
  private final long[] times;
  private final double[] values;

  /** The earliest and the latest sample time of all series. */
  private final long earliest;

  private final long latest;

  private SegmentSeries(Labels[] labels, int[] start, long[] times, double[] values) {
    this.labels = labels;
    this.start = start;
    this.times = times;
    this.values = values;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < labels.length; i++) {
      if (start[i + 1] > start[i]) {
        min = Math.min(min, times[start[i]]);
        max = Math.max(max, times[start[i + 1] - 1]);
      }
    }
    this.earliest = min;
    this.latest = max;
  }

  /**
   * Reads every row of a segment whose series is named {@code name} ({@link SegmentScan}).
   *
   * @param table the segment's table
   * @param segment the segment (the caller holds a reference)
   * @param name a Prometheus metric name
   * @param direct the most series keys made by arithmetic alone ({@link SeriesKeys#DIRECT})
   * @return its series
   */
  static SegmentSeries decode(OtelTable table, Segment segment, String name, long direct) {
    Map<Labels, SampleBuffer> found = new HashMap<>();
    SegmentScan scan =
        new SegmentScan(
            table,
            segment,
            new SegmentScan.Gathered(
                List.of(List.of(new LabelMatcher(Labels.NAME, LabelMatcher.Type.EQUAL, name))),
                true,
                found,
                Long.MAX_VALUE,
                direct,
                new long[1]),
            Long.MIN_VALUE,
            Long.MAX_VALUE);
    scan.count();
    found.values().forEach(SampleBuffer::reserve);
    scan.fill();
    List<SeriesData> series = new ArrayList<>(found.size());
    int total = 0;
    for (Map.Entry<Labels, SampleBuffer> e : found.entrySet()) {
      if (e.getValue().samples() > 0) {
        SeriesData s = e.getValue().finish(e.getKey());
        series.add(s);
        total += s.size();
      }
    }
    Labels[] labels = new Labels[series.size()];
    int[] start = new int[series.size() + 1];
    long[] times = new long[total];
    double[] values = new double[total];
    for (int i = 0; i < labels.length; i++) {
      SeriesData s = series.get(i);
      labels[i] = s.labels();
      System.arraycopy(s.timestamps(), 0, times, start[i], s.size());
      System.arraycopy(s.values(), 0, values, start[i], s.size());
      start[i + 1] = start[i] + s.size();
    }
    return new SegmentSeries(labels, start, times, values);
  }

  /**
   * @return the heap it takes, about
   */
  long bytes() {
    return 64 + 16L * times.length + SERIES_BYTES * labels.length;
  }

  /**
   * The part of a selection this segment gives: the samples in a time range of the series a
   * selector matches, referred to from each series' buffer ({@link SampleBuffer#refer}).
   *
   * @param matchers the selector
   * @param minTime the earliest time read
   * @param maxTime the latest time read
   * @param into where the selection's series are gathered
   * @return the read, to count then fill
   */
  SegmentRead read(
      List<LabelMatcher> matchers, long minTime, long maxTime, SegmentScan.Gathered into) {
    return new SegmentRead() {
      private final SampleBuffer[] buffers = new SampleBuffer[labels.length];
      private final int[] from = new int[labels.length];
      private final int[] to = new int[labels.length];
      private int n;

      @Override
      public void count() {
        boolean whole = earliest >= minTime && latest <= maxTime;
        long total = 0;
        for (int i = 0; i < labels.length; i++) {
          if (!labels[i].matches(matchers)) {
            continue;
          }
          int lo = whole ? start[i] : firstAtOrAfter(minTime, start[i], start[i + 1]);
          int hi =
              whole || maxTime == Long.MAX_VALUE
                  ? start[i + 1]
                  : firstAtOrAfter(maxTime + 1, lo, start[i + 1]);
          if (hi > lo) {
            buffers[n] = into.found().computeIfAbsent(labels[i], l -> new SampleBuffer());
            from[n] = lo;
            to[n++] = hi;
            total += hi - lo;
          }
        }
        into.read()[0] += total;
        if (into.read()[0] > into.maxSamples()) {
          throw new MetricStore.TooManySamples(into.maxSamples());
        }
      }

      @Override
      public void fill() {
        for (int k = 0; k < n; k++) {
          buffers[k].refer(times, values, from[k], to[k]);
        }
      }
    };
  }

  /** The first index in [from, to) whose time is at least {@code time}, or {@code to}. */
  private int firstAtOrAfter(long time, int from, int to) {
    int i = Arrays.binarySearch(times, from, to, time);
    if (i < 0) {
      return -i - 1;
    }
    return i; // times of one series are distinct
  }
}
