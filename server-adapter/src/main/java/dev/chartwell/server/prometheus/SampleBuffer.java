package dev.chartwell.server.prometheus;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One series' samples as a selection reads them, segment after segment, as pieces in reading order:
 * runs written into its own arrays (rows scanned from a segment, or samples added one by one), and
 * ranges of a segment's decoded series ({@link SegmentSeries}), referred to rather than copied.
 * {@link #finish} joins the pieces into one series in time order, where of two samples at the same
 * millisecond the one read later (the later write) is kept; a selection joins each series only when
 * it is asked for, so that a query holds one joined series at a time.
 */
final class SampleBuffer {
  private long[] times = new long[0];
  private double[] values = new double[0];
  private int size;
  private int samples;

  /** Whether each piece is in strict time order (an own run may not be: a rewrite, a late row). */
  private boolean piecesOrdered = true;

  /** The pieces: a range of {@code pieceTimes[k]}, or of the own arrays where that is null. */
  private final List<long[]> pieceTimes = new ArrayList<>(4);

  private final List<double[]> pieceValues = new ArrayList<>(4);
  private int[] pieceFrom = new int[4];
  private int[] pieceTo = new int[4];

  /** The newest time read, for a selection without samples. */
  long newest = Long.MIN_VALUE;

  /** Whether remote write stored the series. */
  boolean remote;

  /** Samples counted for the own arrays and not yet given room ({@link #reserve}). */
  int expected;

  /**
   * @return the samples in the own arrays
   */
  int size() {
    return size;
  }

  /**
   * @return the samples of every piece
   */
  int samples() {
    return samples;
  }

  /** The own times, with room for {@link #reserve reserved} samples past {@link #size}. */
  long[] times() {
    return times;
  }

  /** The own values, with room for {@link #reserve reserved} samples past {@link #size}. */
  double[] values() {
    return values;
  }

  /** Makes room in the own arrays for the {@link #expected} samples. */
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
   * Takes samples written into the reserved room of the own arrays: each run appended is in time
   * order, but may start before the samples of an earlier segment end, or repeat a millisecond.
   *
   * @param newSize the size now
   */
  void appended(int newSize) {
    if (newSize == size) {
      return;
    }
    int last = pieceTimes.size() - 1;
    boolean extend = last >= 0 && pieceTimes.get(last) == null && pieceTo[last] == size;
    for (int i = extend ? size : size + 1; i < newSize && piecesOrdered; i++) {
      piecesOrdered = times[i] > times[i - 1];
    }
    if (extend) {
      pieceTo[last] = newSize;
    } else {
      piece(null, null, size, newSize);
    }
    samples += newSize - size;
    size = newSize;
  }

  /**
   * Takes a range of samples in strict time order that stays where it is (a kept segment's decoded
   * series): it is copied only when the series is {@link #finish joined}.
   *
   * @param t times, strictly increasing over {@code [from, to)}
   * @param v values
   * @param from first index
   * @param to one past the last, greater than {@code from}
   */
  void refer(long[] t, double[] v, int from, int to) {
    piece(t, v, from, to);
    samples += to - from;
  }

  private void piece(long[] t, double[] v, int from, int to) {
    int k = pieceTimes.size();
    if (k == pieceFrom.length) {
      pieceFrom = Arrays.copyOf(pieceFrom, 2 * k);
      pieceTo = Arrays.copyOf(pieceTo, 2 * k);
    }
    pieceTimes.add(t);
    pieceValues.add(v);
    pieceFrom[k] = from;
    pieceTo[k] = to;
  }

  /**
   * The series: its pieces joined in reading order, then put in time order keeping the last sample
   * of one millisecond. Leaves this buffer as it is, so it may be asked again.
   *
   * @param labels the series' labels
   * @return the series
   */
  SeriesData finish(Labels labels) {
    if (pieceTimes.size() == 1 && pieceTimes.get(0) == null && piecesOrdered) {
      return new SeriesData(
          labels,
          size == times.length ? times : Arrays.copyOf(times, size),
          size == values.length ? values : Arrays.copyOf(values, size));
    }
    long[] t = new long[samples];
    double[] v = new double[samples];
    boolean ordered = piecesOrdered;
    int n = 0;
    for (int k = 0; k < pieceTimes.size(); k++) {
      long[] pt = pieceTimes.get(k) == null ? times : pieceTimes.get(k);
      double[] pv = pieceTimes.get(k) == null ? values : pieceValues.get(k);
      int from = pieceFrom[k];
      int length = pieceTo[k] - from;
      System.arraycopy(pt, from, t, n, length);
      System.arraycopy(pv, from, v, n, length);
      ordered &= n == 0 || t[n] > t[n - 1];
      n += length;
    }
    return ordered ? new SeriesData(labels, t, v) : sortedKeepingLast(labels, t, v);
  }

  /** Stable sort by time, then of equal times the last one read (the later write). */
  private static SeriesData sortedKeepingLast(Labels labels, long[] times, double[] values) {
    int size = times.length;
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
    return new SeriesData(labels, Arrays.copyOf(t, n), Arrays.copyOf(v, n));
  }
}
