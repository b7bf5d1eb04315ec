package dev.chartwell.server.prometheus;

import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.agg.ValueReader;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * OTLP histogram and summary points ({@code otel_metrics_histogram}, {@code otel_metrics_summary})
 * as the classic Prometheus series Prometheus' OTLP receiver makes of them. A histogram point of
 * {@code name} becomes {@code <name>_bucket{le="<bound>"}} for each explicit bound (the cumulative
 * count of the buckets up to it), {@code <name>_bucket{le="+Inf"}} (its count), {@code <name>_sum}
 * (when it has a sum) and {@code <name>_count}; a summary point {@code <name>{quantile="<q>"}} for
 * each quantile, {@code <name>_sum} and {@code <name>_count}. The name gets its unit suffix ({@link
 * PromNames}), never {@code _total}; delta histograms are left out, as delta sums are. A point
 * flagged "no recorded value" is a staleness marker on every series of its histogram seen so far.
 * Exponential histograms, which Prometheus makes native histograms of, are not read.
 */
final class OtlpHistograms {
  private static final int NO_RECORDED_VALUE = 1;
  private static final int DELTA = 1;

  /** Receives the series found, and their samples when asked. */
  interface Sink {
    /**
     * @param labels a selected series
     * @param time a sample's time (ms), or {@link Long#MIN_VALUE} when samples are not read
     * @param value its value
     */
    void accept(Labels labels, long time, double value);
  }

  private OtlpHistograms() {}

  /**
   * Reads the series of the histogram and summary tables that match any selector (all when none).
   *
   * @param tables the engine source of a metric table, or null when it does not exist
   * @param selectors the selectors
   * @param minTime the earliest time read
   * @param maxTime the latest time read
   * @param samples whether samples are read, or only which series exist
   * @param sink receives them
   */
  static void scan(
      Function<OtelTable, Source> tables,
      List<List<LabelMatcher>> selectors,
      long minTime,
      long maxTime,
      boolean samples,
      Sink sink) {
    for (OtelTable t : List.of(OtelTable.HISTOGRAM, OtelTable.SUMMARY)) {
      Source source = tables.apply(t);
      if (source == null) {
        continue;
      }
      Map<String, Family> families = new HashMap<>();
      try (SourceSnapshot snap = Snapshots.of(source)) {
        for (Segment s : snap.segments()) {
          if (s.rows() > 0 && s.maxTimestamp() >= minTime && s.minTimestamp() <= maxTime) {
            new SegmentScan(t, s, selectors, samples, sink, families).run(minTime, maxTime);
          }
        }
      }
    }
  }

  /**
   * A bucket bound or quantile as Prometheus writes it in {@code le} and {@code quantile}: as a
   * sample value ({@link Params#value}: no exponent, {@code +Inf}).
   *
   * @param v a bound
   * @return its text
   */
  static String formatBound(double v) {
    return Params.value(v);
  }

  /** One histogram or summary series family (the labels of its points less the suffix and le). */
  private static final class Family {
    final Map<String, Labels> derived = new HashMap<>();
    final Set<String> bounds = new LinkedHashSet<>();
    final Map<String, String> base;
    final String name;

    Family(Map<String, String> base, String name) {
      this.base = base;
      this.name = name;
    }

    /** The labels of one of its series, or null when no selector takes it. */
    Labels series(String suffix, String boundLabel, String bound, List<List<LabelMatcher>> sel) {
      String key = suffix + '\u0000' + (bound == null ? "" : bound);
      if (derived.containsKey(key)) {
        return derived.get(key);
      }
      Map<String, String> m = new HashMap<>(base);
      m.put(Labels.NAME, name + suffix);
      if (bound != null) {
        m.put(boundLabel, bound);
      }
      Labels l = Labels.of(m);
      boolean selected = sel.isEmpty();
      for (List<LabelMatcher> s : sel) {
        selected |= l.matches(s);
      }
      derived.put(key, selected ? l : null);
      return selected ? l : null;
    }
  }

  /** One segment's rows read into series. */
  private static final class SegmentScan {
    private final OtelTable table;
    private final Segment segment;
    private final List<List<LabelMatcher>> selectors;
    private final boolean samples;
    private final Sink sink;
    private final Map<String, Family> families;
    private final List<String> names = new ArrayList<>();
    private final List<StringColumn> columns = new ArrayList<>();
    private final Map<String, Family> byRowKey = new HashMap<>();
    private final Map<Double, String> bounds = new HashMap<>();

    SegmentScan(
        OtelTable table,
        Segment segment,
        List<List<LabelMatcher>> selectors,
        boolean samples,
        Sink sink,
        Map<String, Family> families) {
      this.table = table;
      this.segment = segment;
      this.selectors = selectors;
      this.samples = samples;
      this.sink = sink;
      this.families = families;
      new TreeSet<>(segment.columns().keySet())
          .forEach(
              name -> {
                if (PromNames.otlpIdentity(name)
                    && segment.column(name) instanceof StringColumn c) {
                  names.add(name);
                  columns.add(c);
                }
              });
    }

    void run(long minTime, long maxTime) {
      int lo = segment.firstRowAtOrAfter(minTime);
      int hi = maxTime == Long.MAX_VALUE ? segment.rows() : segment.firstRowAtOrAfter(maxTime + 1);
      int nameIndex = names.indexOf("MetricName");
      if (lo >= hi || nameIndex < 0) {
        return;
      }
      MutableRoaringBitmap rows = candidates(columns.get(nameIndex), lo, hi);
      LongColumn temporality = longs("AggregationTemporality");
      LongColumn flags = longs("Flags");
      LongColumn count = longs("Count");
      Column sumColumn = segment.column("Sum");
      ValueReader sum = sumColumn == null ? null : ValueReader.of(sumColumn);
      boolean histogram = table == OtelTable.HISTOGRAM;
      StringColumn first = strings(histogram ? "ExplicitBounds" : "ValueAtQuantiles.Quantile");
      StringColumn second = strings(histogram ? "BucketCounts" : "ValueAtQuantiles.Value");
      IntIterator it = rows.getIntIterator();
      while (it.hasNext()) {
        int row = it.next();
        if (histogram
            && temporality != null
            && temporality.isPresent(row)
            && temporality.get(row) == DELTA) {
          continue;
        }
        Family f = family(row);
        long t = samples ? segment.timestamp(row) : Long.MIN_VALUE;
        boolean stale =
            flags != null && flags.isPresent(row) && (flags.get(row) & NO_RECORDED_VALUE) != 0;
        double[] keys = numbers(first, row);
        double[] values = numbers(second, row);
        if (histogram && values.length == 0) {
          keys = values; // no buckets: only +Inf, _sum and _count
        }
        boolean hasCount = count != null && count.isPresent(row);
        if (!stale
            && (!hasCount
                || (values.length > 0 && keys.length + (histogram ? 1 : 0) != values.length))) {
          continue; // not a complete point
        }
        String boundLabel = histogram ? "le" : "quantile";
        String suffix = histogram ? "_bucket" : "";
        if (stale) {
          for (String b : f.bounds) {
            emit(f.series(suffix, boundLabel, b, selectors), t, SeriesData.STALE_NAN);
          }
        } else {
          double cumulative = 0;
          for (int i = 0; i < keys.length; i++) {
            String b = bounds.computeIfAbsent(keys[i], OtlpHistograms::formatBound);
            f.bounds.add(b);
            cumulative += values[i];
            emit(f.series(suffix, boundLabel, b, selectors), t, histogram ? cumulative : values[i]);
          }
          if (histogram) {
            f.bounds.add("+Inf");
          }
        }
        if (histogram) {
          emit(
              f.series(suffix, boundLabel, "+Inf", selectors),
              t,
              stale ? SeriesData.STALE_NAN : count.get(row));
        }
        if (stale || (sum != null && sum.present(row))) {
          emit(
              f.series("_sum", null, null, selectors),
              t,
              stale ? SeriesData.STALE_NAN : sum.number(row));
        }
        emit(
            f.series("_count", null, null, selectors),
            t,
            stale ? SeriesData.STALE_NAN : count.get(row));
      }
    }

    private void emit(Labels labels, long t, double v) {
      if (labels != null) {
        sink.accept(labels, t, v);
      }
    }

    private LongColumn longs(String name) {
      return segment.column(name) instanceof LongColumn l ? l : null;
    }

    private StringColumn strings(String name) {
      return segment.column(name) instanceof StringColumn s ? s : null;
    }

    /** The rows of [lo, hi) whose metric may be selected. */
    private MutableRoaringBitmap candidates(StringColumn metricNames, int lo, int hi) {
      MutableRoaringBitmap range = MutableRoaringBitmap.bitmapOfRange(lo, hi);
      List<String> wanted = new ArrayList<>();
      for (List<LabelMatcher> selector : selectors) {
        String name = null;
        for (LabelMatcher m : selector) {
          if (m.name().equals(Labels.NAME) && m.type() == LabelMatcher.Type.EQUAL) {
            name = m.value();
          }
        }
        if (name == null) {
          return range;
        }
        wanted.add(name);
      }
      if (wanted.isEmpty()) {
        return range;
      }
      MutableRoaringBitmap rows = new MutableRoaringBitmap();
      var dictionary = metricNames.dictionary();
      for (int id = 0; id < dictionary.size(); id++) {
        String base = PromNames.metric(dictionary.get(id), "", false, false);
        for (String w : wanted) {
          if (w.startsWith(base)) {
            rows.or(metricNames.rows(id));
            break;
          }
        }
      }
      rows.and(range);
      return rows;
    }

    /** The family of a row, from its identity columns. */
    private Family family(int row) {
      StringBuilder key = new StringBuilder();
      for (StringColumn c : columns) {
        key.append(c.id(row)).append(',');
      }
      return byRowKey.computeIfAbsent(
          key.toString(),
          k -> {
            Map<String, String> text = new HashMap<>();
            for (int i = 0; i < columns.size(); i++) {
              if (columns.get(i).id(row) >= 0) {
                text.put(names.get(i), columns.get(i).get(row));
              }
            }
            Map<String, String> base = PromNames.otlpLabels(text);
            String name =
                PromNames.metric(
                    text.getOrDefault("MetricName", ""),
                    text.getOrDefault("MetricUnit", ""),
                    false,
                    false);
            return families.computeIfAbsent(
                name + new TreeMap<>(base), x -> new Family(base, name));
          });
    }
  }

  /** The numbers of a JSON array of numbers (or of quoted non-finite numbers) in a text column. */
  static double[] numbers(StringColumn column, int row) {
    if (column == null || column.id(row) < 0) {
      return new double[0];
    }
    String s = column.get(row).strip();
    if (s.length() < 2 || s.charAt(0) != '[' || s.charAt(s.length() - 1) != ']') {
      return new double[0];
    }
    String inner = s.substring(1, s.length() - 1).strip();
    if (inner.isEmpty()) {
      return new double[0];
    }
    String[] parts = inner.split(",");
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].strip().replace("\"", "");
      out[i] = Double.parseDouble(p);
    }
    return out;
  }
}
