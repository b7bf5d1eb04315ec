package dev.chartwell.server.prometheus;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.Arrays;

/**
 * One series' samples as a selection reads them, segment after segment; put in time order at the
 * end, where of two samples at the same millisecond the one read later (the later write) is kept.
 */
final class SampleBuffer {
  private long[] times = new long[0];
  private double[] values = new double[0];
  private int size;
  private boolean sorted = true;

  /** The newest time read, for a selection without samples. */
  long newest = Long.MIN_VALUE;

  /** Whether remote write stored the series. */
  boolean remote;

  /** Samples counted for this series and not yet given room ({@link #reserve}). */
  int expected;

  int size() {
    return size;
  }

  /** The times, with room for {@link #reserve reserved} samples past {@link #size}. */
  long[] times() {
    return times;
  }

  /** The values, with room for {@link #reserve reserved} samples past {@link #size}. */
  double[] values() {
    return values;
  }

  /** Makes room for the {@link #expected} samples. */
  void reserve() {
    if (size + expected > times.length) {
      times = Arrays.copyOf(times, size + expected);
      values = Arrays.copyOf(values, size + expected);
    }
    expected = 0;
  }

  /**
   * Adds one sample, for series made by translation (an OTLP histogram's buckets, {@code
   * target_info}) rather than read from a column.
   *
   * @param time the sample's time
   * @param value its value
   */
  void add(long time, double value) {
    if (size == times.length) {
      int capacity = Math.max(16, size * 2);
      times = Arrays.copyOf(times, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    times[size] = time;
    values[size] = value;
    appended(size + 1);
  }

  /**
   * Takes samples written into the reserved room: each run appended is in time order, but may start
   * before the samples of an earlier segment end, or repeat a millisecond.
   *
   * @param newSize the size now
   */
  void appended(int newSize) {
    for (int i = Math.max(1, size); i < newSize && sorted; i++) {
      sorted = times[i] > times[i - 1];
    }
    size = newSize;
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
