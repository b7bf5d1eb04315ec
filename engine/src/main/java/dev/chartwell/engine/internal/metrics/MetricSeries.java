package dev.chartwell.engine.internal.metrics;

import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.segment.Segment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes a metric series over a snapshot's segments, as HyperDX does over the ClickHouse
 * exporter's tables:
 *
 * <ul>
 *   <li>gauge: each time series' last value in the bucket; the series' aggregation then runs over
 *       those values (one per time series);
 *   <li>sum: each point's increase over the previous point of its time series ({@code 0} for the
 *       first one, a drop (counter reset) counts as {@code 0}; a delta point's value is its
 *       increase), summed per time series and bucket, then aggregated across time series;
 *   <li>histogram: each point's bucket-count deltas (the first point of a cumulative time series
 *       counts nothing; after a reset, a change of bounds or for delta points the counts themselves
 *       count), summed over the time series of the (bucket, group); a quantile is interpolated in
 *       the bucket that holds its rank ({@link HistogramQuantile}), {@code count} sums the deltas
 *       of {@code Count} (a drop: the new count).
 * </ul>
 *
 * Counters and histograms read one bucket before the range, so that the first point in the range
 * has a predecessor; only points in the range make buckets.
 */
public final class MetricSeries {
  /**
   * One (bucket, group) of the series.
   *
   * @param bucket bucket start
   * @param group group values
   * @param value the value
   */
  public record Row(long bucket, List<String> group, Number value) {}

  private record Key(long bucket, List<String> group) {}

  private MetricSeries() {}

  /**
   * @param plan the series
   * @param segments the snapshot's segments
   * @return one row per (bucket, group) with a value, in no particular order
   */
  public static List<Row> compute(MetricPlan plan, List<Segment> segments) {
    Points p = Points.collect(plan, segments);
    int[] sorted = p.sorted();
    MetricType type = plan.metric().type();
    if (type == MetricType.HISTOGRAM) {
      return plan.fn().isQuantile() ? quantiles(plan, p, sorted) : histogramCounts(plan, p, sorted);
    }
    return perSeriesValues(plan, p, sorted, type == MetricType.SUM);
  }

  /** Gauges (last value) and counters (summed increase) per time series and bucket. */
  private static List<Row> perSeriesValues(
      MetricPlan plan, Points p, int[] sorted, boolean counter) {
    Granularity g = plan.granularity();
    QueryControl control = plan.control();
    Map<Key, CrossSeries> cells = new HashMap<>();
    int i = 0;
    while (i < sorted.length) {
      control.checkpoint();
      int series = p.series[sorted[i]];
      double previous = Double.NaN;
      boolean open = false;
      long bucket = 0;
      double value = 0;
      int lastPoint = -1;
      for (; i < sorted.length && p.series[sorted[i]] == series; i++) {
        int k = sorted[i];
        double v = p.value[k];
        double contribution =
            !counter ? v : p.delta[k] ? v : Double.isNaN(previous) ? 0 : Math.max(v - previous, 0);
        previous = v;
        if (p.time[k] < plan.startTime()) {
          continue; // the look-back: a predecessor only
        }
        long b = g.bucketStart(p.time[k]);
        if (open && b != bucket) {
          cell(cells, bucket, p, series, control).add(value, p.time[lastPoint], p.order[lastPoint]);
          open = false;
        }
        if (!open) {
          open = true;
          bucket = b;
          value = 0;
        }
        value = counter ? value + contribution : v;
        lastPoint = k;
      }
      if (open) {
        cell(cells, bucket, p, series, control).add(value, p.time[lastPoint], p.order[lastPoint]);
      }
    }
    List<Row> rows = new ArrayList<>(cells.size());
    cells.forEach(
        (key, c) ->
            rows.add(
                new Row(key.bucket(), key.group(), c.finish(plan.fn(), plan.level(), g.millis()))));
    return rows;
  }

  private static CrossSeries cell(
      Map<Key, CrossSeries> cells, long bucket, Points p, int series, QueryControl control) {
    return cells.computeIfAbsent(
        new Key(bucket, p.groups.get(series)),
        k -> {
          control.claim(new CrossSeries().bytes());
          return new CrossSeries();
        });
  }

  /** Histogram quantiles: count deltas summed per (bucket, group, bounds), then interpolated. */
  private static List<Row> quantiles(MetricPlan plan, Points p, int[] sorted) {
    Granularity g = plan.granularity();
    Map<Key, Map<Integer, double[]>> cells = new HashMap<>();
    int i = 0;
    while (i < sorted.length) {
      plan.control().checkpoint();
      int series = p.series[sorted[i]];
      double[] previous = null;
      int previousBounds = -1;
      for (; i < sorted.length && p.series[sorted[i]] == series; i++) {
        int k = sorted[i];
        double[] counts = p.counts[k];
        double[] deltas;
        if (p.delta[k]) {
          deltas = counts;
        } else if (previous == null) {
          deltas = null; // the first point of a cumulative series counts nothing
        } else if (p.bounds[k] != previousBounds
            || previous.length != counts.length
            || decreased(previous, counts)) {
          deltas = counts; // new bounds, or a reset: counting from zero again
        } else {
          deltas = new double[counts.length];
          for (int j = 0; j < counts.length; j++) {
            deltas[j] = counts[j] - previous[j];
          }
        }
        previous = counts;
        previousBounds = p.bounds[k];
        if (deltas == null || p.time[k] < plan.startTime()) {
          continue;
        }
        Map<Integer, double[]> byBounds =
            cells.computeIfAbsent(
                new Key(g.bucketStart(p.time[k]), p.groups.get(series)), x -> new HashMap<>());
        double[] sum = byBounds.get(p.bounds[k]);
        if (sum == null || sum.length < deltas.length) {
          double[] grown = new double[deltas.length];
          if (sum != null) {
            System.arraycopy(sum, 0, grown, 0, sum.length);
          }
          plan.control().claim(64 + 8L * grown.length);
          byBounds.put(p.bounds[k], grown);
          sum = grown;
        }
        for (int j = 0; j < deltas.length; j++) {
          sum[j] += deltas[j];
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    cells.forEach(
        (key, byBounds) -> {
          // Points whose bounds differ form their own histogram; the one with the most
          // observations answers.
          int best = -1;
          double bestTotal = -1;
          for (Map.Entry<Integer, double[]> e : byBounds.entrySet()) {
            double total = 0;
            for (double c : e.getValue()) {
              total += c;
            }
            if (total > bestTotal || (total == bestTotal && e.getKey() < best)) {
              best = e.getKey();
              bestTotal = total;
            }
          }
          Double q = HistogramQuantile.of(byBounds.get(best), p.boundsById.get(best), plan.level());
          if (q != null) {
            rows.add(new Row(key.bucket(), key.group(), q));
          }
        });
    return rows;
  }

  private static boolean decreased(double[] previous, double[] counts) {
    for (int j = 0; j < counts.length; j++) {
      if (counts[j] < previous[j]) {
        return true;
      }
    }
    return false;
  }

  /** Histogram {@code count}: deltas of {@code Count} summed per (bucket, group). */
  private static List<Row> histogramCounts(MetricPlan plan, Points p, int[] sorted) {
    Granularity g = plan.granularity();
    Map<Key, double[]> cells = new HashMap<>();
    int i = 0;
    while (i < sorted.length) {
      plan.control().checkpoint();
      int series = p.series[sorted[i]];
      double previous = Double.NaN;
      int previousBounds = -1;
      boolean previousDelta = false;
      for (; i < sorted.length && p.series[sorted[i]] == series; i++) {
        int k = sorted[i];
        double v = p.value[k];
        // A change of bounds or temporality starts a new run, whose first point counts nothing
        // when cumulative.
        boolean first =
            Double.isNaN(previous) || p.bounds[k] != previousBounds || p.delta[k] != previousDelta;
        double delta = p.delta[k] ? v : first ? 0 : v < previous ? v : v - previous;
        previous = v;
        previousBounds = p.bounds[k];
        previousDelta = p.delta[k];
        if (p.time[k] < plan.startTime()) {
          continue;
        }
        cells
                .computeIfAbsent(
                    new Key(g.bucketStart(p.time[k]), p.groups.get(series)),
                    x -> {
                      plan.control().claim(96);
                      return new double[1];
                    })[0] +=
            delta;
      }
    }
    List<Row> rows = new ArrayList<>(cells.size());
    long millis = g.millis();
    cells.forEach(
        (key, n) -> {
          Number v =
              switch (plan.fn()) {
                case COUNT_PER_SEC -> n[0] / (millis / 1000.0);
                case COUNT_PER_MIN -> n[0] / (millis / 60_000.0);
                case COUNT_PER_HOUR -> n[0] / (millis / 3_600_000.0);
                default -> Math.round(n[0]);
              };
          rows.add(new Row(key.bucket(), key.group(), v));
        });
    return rows;
  }
}
