package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Selectors over all steps at once: each series' samples are walked once with two pointers (the
 * lookback or range window slides forward with the steps).
 */
final class Selectors {
  private Selectors() {}

  /**
   * An instant vector selector: per step, the latest sample in {@code [ref - lookback, ref]} unless
   * it is a staleness marker.
   *
   * @param timestamps answer the samples' timestamps in seconds instead of their values
   */
  static Val.Vec instant(Expr.VectorSelector vs, Steps steps, boolean timestamps) {
    long lookback = steps.settings.lookbackDeltaMs();
    List<Row> rows = new ArrayList<>();
    for (SeriesData s : steps.load(vs, lookback)) {
      steps.checkCancelled();
      long[] ts = s.timestamps();
      double[] vals = s.values();
      double[] out = Val.absentArray(steps.n);
      boolean any = false;
      int j = -1;
      for (int i = 0; i < steps.n; i++) {
        long ref = steps.refTime(vs, i);
        if (j >= 0 && ts[j] > ref) {
          j = -1; // reference times only move backwards with a negative offset change; restart
        }
        while (j + 1 < ts.length && ts[j + 1] <= ref) {
          j++;
        }
        if (j < 0 || ts[j] < ref - lookback || SeriesData.isStale(vals[j])) {
          continue;
        }
        out[i] = timestamps ? ts[j] / 1000.0 : Val.sampleValue(vals[j]);
        any = true;
      }
      if (any) {
        rows.add(new Row(s.labels(), out));
      }
    }
    return new Val.Vec(rows);
  }

  /** A series' samples without staleness markers (a range window never holds them). */
  static SeriesData withoutStale(SeriesData s) {
    double[] v = s.values();
    int stale = 0;
    for (double x : v) {
      if (SeriesData.isStale(x)) {
        stale++;
      }
    }
    if (stale == 0) {
      return s;
    }
    long[] nt = new long[v.length - stale];
    double[] nv = new double[v.length - stale];
    int k = 0;
    for (int i = 0; i < v.length; i++) {
      if (!SeriesData.isStale(v[i])) {
        nt[k] = s.timestamps()[i];
        nv[k++] = Val.sampleValue(v[i]);
      }
    }
    return new SeriesData(s.labels(), nt, nv);
  }

  /** Computes one step's value from the samples {@code [lo, hi)} of a window. */
  interface WindowFunction {
    /**
     * @return the value, or {@link Val#ABSENT} for none
     */
    double apply(long[] ts, double[] v, int lo, int hi, long rangeStart, long rangeEnd, int step);

    /**
     * @return the function to use on another thread: this one, unless it keeps state between calls
     */
    default WindowFunction forAnotherThread() {
      return this;
    }
  }

  /**
   * A function of a range vector, per series and step over the window {@code [ref - range, ref]}.
   * Large selections are shared with a helper thread ({@link Parallel}); the rows keep the series'
   * order, so the answer is the same to the bit.
   *
   * @param keepName keep {@code __name__} (last_over_time); the others drop it
   */
  static Val.Vec range(Expr.MatrixSelector ms, Steps steps, boolean keepName, WindowFunction f) {
    List<SeriesData> loaded = steps.load(ms.selector(), ms.rangeMs());
    Row[] rows = new Row[loaded.size()];
    Parallel.forEach(
        rows.length,
        (long) rows.length * steps.n,
        () -> {
          WindowFunction own = f.forAnotherThread();
          return k -> rows[k] = rangeRow(ms, steps, keepName, own, loaded.get(k));
        });
    List<Row> out = new ArrayList<>(rows.length);
    for (Row r : rows) {
      if (r != null) {
        out.add(r);
      }
    }
    return new Val.Vec(Rows.merge(out));
  }

  /** One series' row of {@link #range}, or null when no step has a value. */
  private static Row rangeRow(
      Expr.MatrixSelector ms, Steps steps, boolean keepName, WindowFunction f, SeriesData raw) {
    Expr.VectorSelector vs = ms.selector();
    long range = ms.rangeMs();
    steps.checkCancelled();
    SeriesData s = withoutStale(raw);
    long[] ts = s.timestamps();
    double[] v = s.values();
    double[] out = Val.absentArray(steps.n);
    boolean any = false;
    int lo = 0;
    int hi = 0;
    for (int i = 0; i < steps.n; i++) {
      long ref = steps.refTime(vs, i);
      long from = ref - range;
      if (lo > 0 && ts[lo - 1] >= from) {
        lo = 0;
        hi = 0;
      }
      while (lo < ts.length && ts[lo] < from) {
        lo++;
      }
      if (hi < lo) {
        hi = lo;
      }
      while (hi < ts.length && ts[hi] <= ref) {
        hi++;
      }
      if (hi == lo) {
        continue;
      }
      double r = f.apply(ts, v, lo, hi, from, ref, i);
      if (!Val.absent(r)) {
        out[i] = r;
        any = true;
      }
    }
    return any ? new Row(keepName ? s.labels() : Rows.dropName(s.labels()), out) : null;
  }

  /** The raw samples of a range vector selector at one time (an instant query of {@code x[5m]}). */
  static List<SeriesData> matrix(Expr.MatrixSelector ms, Steps steps) {
    long ref = steps.refTime(ms.selector(), 0);
    long from = ref - ms.rangeMs();
    List<SeriesData> out = new ArrayList<>();
    for (SeriesData raw : steps.load(ms.selector(), ms.rangeMs())) {
      SeriesData s = withoutStale(raw);
      int lo = 0;
      while (lo < s.size() && s.timestamps()[lo] < from) {
        lo++;
      }
      int hi = lo;
      while (hi < s.size() && s.timestamps()[hi] <= ref) {
        hi++;
      }
      if (hi > lo) {
        out.add(
            new SeriesData(
                s.labels(),
                java.util.Arrays.copyOfRange(s.timestamps(), lo, hi),
                java.util.Arrays.copyOfRange(s.values(), lo, hi)));
      }
    }
    out.sort((a, b) -> a.labels().compareTo(b.labels()));
    return out;
  }

  /** Whether any series of the selector has a sample in the window, per step (absent_over_time). */
  static boolean[] anyInWindow(Expr.MatrixSelector ms, Steps steps) {
    boolean[] any = new boolean[steps.n];
    Val.Vec counts = range(ms, steps, true, (ts, v, lo, hi, a, b, i) -> 1);
    for (Row r : counts.rows()) {
      for (int i = 0; i < steps.n; i++) {
        any[i] |= !Val.absent(r.v()[i]);
      }
    }
    return any;
  }
}
