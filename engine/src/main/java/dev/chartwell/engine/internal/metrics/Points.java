package dev.chartwell.engine.internal.metrics;

import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.agg.GroupKeys;
import dev.chartwell.engine.internal.agg.ValueReader;
import dev.chartwell.engine.internal.search.ColumnValues;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * The points of one metric series read from every segment: for each, its time series (attributes
 * and group values), time, arrival order, value (a gauge's or counter's {@code Value}, a
 * histogram's {@code Count}), temporality, and for histograms its bucket counts and bounds. Points
 * without a usable value are skipped.
 */
final class Points {
  /** Heap one point costs, claimed against the query's budget. */
  static final long POINT_BYTES = 48;

  private static final int CHECK_EVERY = 1024;

  int size;
  int[] series = new int[64];
  long[] time = new long[64];
  long[] order = new long[64];
  double[] value = new double[64];
  boolean[] delta = new boolean[64];
  int[] bounds = new int[64];
  double[][] counts;

  /** The group values of each time series. */
  final List<List<String>> groups = new ArrayList<>();

  /** Every distinct bounds array, by id. */
  final List<double[]> boundsById = new ArrayList<>();

  private final Map<String, Integer> seriesIds = new HashMap<>();
  private final Map<List<Double>, Integer> boundsIds = new HashMap<>();
  private final NumberArrays arrays = new NumberArrays();
  private final MetricPlan plan;
  private final QueryControl control;
  private final boolean histogram;
  private final boolean quantiles;

  private Points(MetricPlan plan) {
    this.plan = plan;
    this.control = plan.control();
    this.histogram = plan.metric().type() == MetricType.HISTOGRAM;
    this.quantiles = histogram && plan.fn().isQuantile();
    this.counts = quantiles ? new double[64][] : null;
  }

  /**
   * @param plan the series
   * @param segments the snapshot's segments
   * @return the matching points of the range (and of the look-back before it)
   */
  static Points collect(MetricPlan plan, List<Segment> segments) {
    Points p = new Points(plan);
    long from = plan.readFrom();
    for (Segment s : segments) {
      if (s.rows() > 0 && s.maxTimestamp() >= from && s.minTimestamp() <= plan.endTime()) {
        plan.control().checkpoint();
        if (s.verify() == null) { // a damaged file is never read
          p.read(s, from);
        }
      }
    }
    return p;
  }

  private void read(Segment s, long from) {
    int lo = s.firstRowAtOrAfter(from);
    int hi = plan.endTime() == Long.MAX_VALUE ? s.rows() : s.firstRowAtOrAfter(plan.endTime() + 1);
    if (lo >= hi) {
      return;
    }
    ImmutableRoaringBitmap matched =
        plan.filter()
            .apply(s, MutableRoaringBitmap.bitmapOfRange(lo, hi), plan.useIndexes(), control);
    if (matched.isEmpty()) {
      return;
    }
    // Identity columns in name order, so that a time series has one key in every segment.
    Map<String, Column> identity = new TreeMap<>();
    s.columns()
        .forEach(
            (name, c) -> {
              if (MetricSpec.identifies(name)) {
                identity.put(name, c);
              }
            });
    List<Column> groupColumns = new ArrayList<>();
    for (String g : plan.groupBy()) {
      groupColumns.add(s.column(g));
    }
    ValueReader values =
        ValueReader.of(s.column(histogram ? MetricSpec.COUNT_COLUMN : MetricSpec.VALUE_COLUMN));
    ValueReader temporality = ValueReader.of(s.column(MetricSpec.TEMPORALITY_COLUMN));
    IntIterator rows = matched.getIntIterator();
    StringBuilder key = new StringBuilder();
    for (int seen = 0; rows.hasNext(); seen++) {
      if ((seen & (CHECK_EVERY - 1)) == 0) {
        control.checkpoint();
      }
      int row = rows.next();
      double v = values.number(row);
      double[] c = null;
      int b = -1;
      if (histogram) {
        double[] bs = arrays.parse(text(s, MetricSpec.BOUNDS_COLUMN, row));
        c = quantiles ? arrays.parse(text(s, MetricSpec.BUCKET_COUNTS_COLUMN, row)) : null;
        if (bs == null || (quantiles ? c == null : Double.isNaN(v))) {
          continue;
        }
        b = boundsId(bs);
      } else if (Double.isNaN(v)) {
        continue;
      }
      key.setLength(0);
      identity.forEach(
          (name, col) -> {
            if (col.isPresent(row)) {
              key.append(name).append('\u0001').append(GroupKeys.text(col, row)).append('\u0002');
            }
          });
      List<String> group = new ArrayList<>(groupColumns.size());
      for (Column g : groupColumns) {
        group.add(GroupKeys.text(g, row));
      }
      key.append('\u0003').append(String.join("\u0001", group));
      add(
          seriesId(key.toString(), group),
          s.timestamp(row),
          s.orderKey(row),
          v,
          temporality.number(row) == 1,
          b,
          c);
    }
  }

  private static String text(Segment s, String column, int row) {
    Object v = ColumnValues.read(s, column, row);
    return v instanceof String t ? t : null;
  }

  private int seriesId(String key, List<String> group) {
    Integer id = seriesIds.get(key);
    if (id == null) {
      control.claim(96 + 2L * key.length());
      id = groups.size();
      seriesIds.put(key, id);
      groups.add(List.copyOf(group));
    }
    return id;
  }

  private int boundsId(double[] b) {
    List<Double> k = Arrays.stream(b).boxed().toList();
    Integer id = boundsIds.get(k);
    if (id == null) {
      control.claim(64 + 24L * b.length);
      id = boundsById.size();
      boundsIds.put(k, id);
      boundsById.add(b);
    }
    return id;
  }

  private void add(int s, long t, long o, double v, boolean d, int b, double[] c) {
    control.claim(POINT_BYTES + (c == null ? 0 : 16 + 8L * c.length));
    if (size == series.length) {
      int n = size * 2;
      series = Arrays.copyOf(series, n);
      time = Arrays.copyOf(time, n);
      order = Arrays.copyOf(order, n);
      value = Arrays.copyOf(value, n);
      delta = Arrays.copyOf(delta, n);
      bounds = Arrays.copyOf(bounds, n);
      if (counts != null) {
        counts = Arrays.copyOf(counts, n);
      }
    }
    series[size] = s;
    time[size] = t;
    order[size] = o;
    value[size] = v;
    delta[size] = d;
    bounds[size] = b;
    if (counts != null) {
      counts[size] = c;
    }
    size++;
  }

  /**
   * @return the points' indexes by time series, then time, then arrival
   */
  int[] sorted() {
    Integer[] idx = new Integer[size];
    for (int i = 0; i < size; i++) {
      idx[i] = i;
    }
    Arrays.sort(
        idx,
        (a, b) -> {
          int c = Integer.compare(series[a], series[b]);
          if (c != 0) {
            return c;
          }
          c = Long.compare(time[a], time[b]);
          return c != 0 ? c : Long.compare(order[a], order[b]);
        });
    control.checkpoint();
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = idx[i];
    }
    return out;
  }
}
