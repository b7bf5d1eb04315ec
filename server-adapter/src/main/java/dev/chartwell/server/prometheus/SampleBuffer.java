package dev.chartwell.server.prometheus;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.Arrays;

/**
 * One series' samples as a selection reads them, segment after segment; put in time order at the
 * end, where of two samples at the same millisecond the one read later (the later write) is kept.
 */
final class SampleBuffer {
  private long[] times = new long[16];
  private double[] values = new double[16];
  private int size;
  private boolean sorted = true;

  /** The newest time read, for a selection without samples. */
  long newest = Long.MIN_VALUE;

  /** Whether remote write stored the series. */
  boolean remote;

  int size() {
    return size;
  }

  void add(long t, double v) {
    if (size == times.length) {
      times = Arrays.copyOf(times, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    if (size > 0 && t <= times[size - 1]) {
      sorted = false;
    }
    times[size] = t;
    values[size++] = v;
  }

  SeriesData finish(Labels labels) {
    if (!sorted) {
      sortKeepingLast();
    }
    return new SeriesData(
        labels,
        size == times.length ? times : Arrays.copyOf(times, size),
        size == values.length ? values : Arrays.copyOf(values, size));
  }

  /** Stable sort by time, then of equal times the last one read (the later write). */
  private void sortKeepingLast() {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
    long[] t = new long[size];
    double[] v = new double[size];
    int n = 0;
    for (int i = 0; i < size; i++) {
      int o = order[i];
      if (n > 0 && t[n - 1] == times[o]) {
        v[n - 1] = values[o];
      } else {
        t[n] = times[o];
        v[n++] = values[o];
      }
    }
    times = t;
    values = v;
    size = n;
    sorted = true;
  }
}
