package dev.chartwell.server.prometheus;

import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.agg.ValueReader;
import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A warehouse's metric tables ({@code otel_metrics_gauge} and {@code otel_metrics_sum}; the
 * histogram and summary tables through {@link OtlpHistograms}; OTLP resources as {@link
 * TargetInfo}) as Prometheus series. Each segment in the time range is read by column: the rows of
 * the wanted metric names (from the name column's postings when every selector names its metric),
 * each row's series found from the dictionary ids of its identity columns (an open-addressing table
 * per segment, no object per row), the labels of each series built and matched once per segment.
 * Samples of one series from several segments are put in time order; of two samples at the same
 * millisecond the later write is kept.
 *
 * <p>Rows written by remote write ({@link #REMOTE_WRITE_SCOPE}) keep their names and labels; OTLP
 * rows are translated ({@link PromNames}): attributes become labels, the resource's {@code
 * service.namespace}/{@code service.name} becomes {@code job} and {@code service.instance.id}
 * {@code instance}; delta sums are left out, as Prometheus' OTLP receiver drops them. A row flagged
 * "no recorded value" is a staleness marker.
 */
public final class MetricStore implements SeriesSource {
  /** The {@code ScopeName} of the rows remote write stores. */
  public static final String REMOTE_WRITE_SCOPE = "prometheus-remote-write";

  /** The string column holding a non-finite value ({@code NaN}, {@code +Inf}, {@code -Inf}). */
  public static final String SPECIAL_VALUE = "ValueSpecial";

  static final String ATTRIBUTES = "Attributes.";
  static final String RESOURCE = "ResourceAttributes.";
  private static final int NO_RECORDED_VALUE = 1;
  private static final int DELTA = 1;

  private final Function<OtelTable, Source> tables;
  private final long maxSamples;

  /** A selection would read more samples than allowed. */
  public static final class TooManySamples extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooManySamples(long max) {
      super("the query would read more than " + max + " samples; narrow the selector or the range");
    }
  }

  /**
   * @param tables the engine source of a metric table, or {@code null} when it does not exist
   * @param maxSamples the most samples one {@link #select} may read
   */
  public MetricStore(Function<OtelTable, Source> tables, long maxSamples) {
    this.tables = tables;
    this.maxSamples = maxSamples;
  }

  @Override
  public List<SeriesData> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
    Map<Labels, Samples> found = scan(List.of(matchers), minTime, maxTime, true);
    List<SeriesData> out = new ArrayList<>(found.size());
    found.forEach((labels, s) -> out.add(s.finish(labels)));
    return out;
  }

  @Override
  public List<Labels> series(List<List<LabelMatcher>> selectors, long minTime, long maxTime) {
    return new ArrayList<>(new TreeSet<>(scan(selectors, minTime, maxTime, false).keySet()));
  }

  @Override
  public List<String> labelNames(List<List<LabelMatcher>> selectors, long minTime, long maxTime) {
    TreeSet<String> names = new TreeSet<>();
    for (Labels l : scan(selectors, minTime, maxTime, false).keySet()) {
      for (int i = 0; i < l.size(); i++) {
        names.add(l.name(i));
      }
    }
    return new ArrayList<>(names);
  }

  @Override
  public List<String> labelValues(
      String name, List<List<LabelMatcher>> selectors, long minTime, long maxTime) {
    TreeSet<String> values = new TreeSet<>();
    for (Labels l : scan(selectors, minTime, maxTime, false).keySet()) {
      String v = l.get(name);
      if (!v.isEmpty()) {
        values.add(v);
      }
    }
    return new ArrayList<>(values);
  }

  /**
   * The newest sample time of each series remote write stored since a time.
   *
   * @param minTime the earliest time read
   * @return series to their newest time
   */
  Map<Labels, Long> newestRemoteWritten(long minTime) {
    Map<Labels, Long> out = new HashMap<>();
    scan(List.of(), minTime, Long.MAX_VALUE, false)
        .forEach(
            (labels, s) -> {
              if (s.remote) {
                out.put(labels, s.newest);
              }
            });
    return out;
  }

  /** The series matching any selector (all when none), with their samples when asked. */
  private Map<Labels, Samples> scan(
      List<List<LabelMatcher>> selectors, long minTime, long maxTime, boolean samples) {
    Map<Labels, Samples> found = new HashMap<>();
    long[] read = {0};
    for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM)) {
      Source source = tables.apply(t);
      if (source == null) {
        continue;
      }
      try (SourceCore.Snapshot snap = Snapshots.of(source)) {
        for (Segment s : snap.segments()) {
          if (s.rows() > 0 && s.maxTimestamp() >= minTime && s.minTimestamp() <= maxTime) {
            new SegmentScan(t, s, selectors, samples, found, read).run(minTime, maxTime);
          }
        }
      }
    }
    OtlpHistograms.Sink otlp =
        (labels, time, value) -> {
          Samples s = found.computeIfAbsent(labels, l -> new Samples());
          if (samples) {
            if (++read[0] > maxSamples) {
              throw new TooManySamples(maxSamples);
            }
            s.add(time, value);
          }
        };
    OtlpHistograms.scan(tables, selectors, minTime, maxTime, samples, otlp);
    TargetInfo.scan(tables, selectors, minTime, maxTime, otlp);
    return found;
  }

  /** One segment's rows read into series. */
  private final class SegmentScan {
    private final OtelTable table;
    private final Segment segment;
    private final List<List<LabelMatcher>> selectors;
    private final boolean samples;
    private final Map<Labels, Samples> found;
    private final long[] read;
    private final List<String> names = new ArrayList<>();
    private final List<StringColumn> columns = new ArrayList<>();
    private final BoolColumn monotonic;
    private final LongColumn temporality;
    private final int width;
    private int[] slots = new int[64];
    private int[] keys = new int[64];
    private final List<Samples> local = new ArrayList<>();
    private int localCount;

    SegmentScan(
        OtelTable table,
        Segment segment,
        List<List<LabelMatcher>> selectors,
        boolean samples,
        Map<Labels, Samples> found,
        long[] read) {
      this.table = table;
      this.segment = segment;
      this.selectors = selectors;
      this.samples = samples;
      this.found = found;
      this.read = read;
      new TreeSet<>(segment.columns().keySet())
          .forEach(
              name -> {
                if (identity(name) && segment.column(name) instanceof StringColumn c) {
                  names.add(name);
                  columns.add(c);
                }
              });
      this.monotonic = segment.column("IsMonotonic") instanceof BoolColumn b ? b : null;
      this.temporality =
          segment.column("AggregationTemporality") instanceof LongColumn l ? l : null;
      this.width = columns.size() + 2;
    }

    private static boolean identity(String name) {
      return PromNames.otlpIdentity(name);
    }

    void run(long minTime, long maxTime) {
      int lo = segment.firstRowAtOrAfter(minTime);
      int hi = maxTime == Long.MAX_VALUE ? segment.rows() : segment.firstRowAtOrAfter(maxTime + 1);
      if (lo >= hi) {
        return;
      }
      int nameIndex = names.indexOf("MetricName");
      if (nameIndex < 0) {
        return;
      }
      StringColumn nameColumn = columns.get(nameIndex);
      ImmutableRoaringBitmap rows = candidates(nameColumn, lo, hi);
      ValueReader values = ValueReader.of(segment.column("Value"));
      Column flagColumn = segment.column("Flags");
      LongColumn flags = flagColumn instanceof LongColumn l ? l : null;
      StringColumn special = segment.column(SPECIAL_VALUE) instanceof StringColumn c ? c : null;
      int[] key = new int[width];
      IntIterator it = rows == null ? null : rows.getIntIterator();
      int row = lo - 1;
      while (true) {
        if (it == null) {
          if (++row >= hi) {
            break;
          }
        } else if (it.hasNext()) {
          row = it.next();
        } else {
          break;
        }
        for (int i = 0; i < columns.size(); i++) {
          key[i] = columns.get(i).id(row);
        }
        key[width - 2] =
            monotonic == null || !monotonic.isPresent(row) ? -1 : monotonic.get(row) ? 1 : 0;
        key[width - 1] =
            temporality == null || !temporality.isPresent(row) ? -1 : (int) temporality.get(row);
        Samples series = series(key);
        if (series == null) {
          continue;
        }
        if (!samples) {
          series.newest = Math.max(series.newest, segment.timestamp(row));
          continue;
        }
        double v;
        if (flags != null && flags.isPresent(row) && (flags.get(row) & NO_RECORDED_VALUE) != 0) {
          v = SeriesData.STALE_NAN;
        } else if (values.present(row)) {
          v = values.number(row);
        } else if (special != null && special.id(row) >= 0) {
          v = parseSpecial(special.get(row));
        } else {
          continue;
        }
        if (++read[0] > maxSamples) {
          throw new TooManySamples(maxSamples);
        }
        series.add(segment.timestamp(row), v);
      }
    }

    /** The rows of the wanted names in [lo, hi), or null for every row of the range. */
    private ImmutableRoaringBitmap candidates(StringColumn names, int lo, int hi) {
      List<String> wanted = new ArrayList<>();
      for (List<LabelMatcher> selector : selectors) {
        String name = null;
        for (LabelMatcher m : selector) {
          if (m.name().equals(Labels.NAME) && m.type() == LabelMatcher.Type.EQUAL) {
            name = m.value();
          }
        }
        if (name == null) {
          return null;
        }
        wanted.add(name);
      }
      if (wanted.isEmpty()) {
        return null;
      }
      MutableRoaringBitmap rows = new MutableRoaringBitmap();
      var dictionary = names.dictionary();
      for (int id = 0; id < dictionary.size(); id++) {
        String base = PromNames.metric(dictionary.get(id), "", false, false);
        for (String w : wanted) {
          if (w.startsWith(base)) {
            rows.or(names.rows(id));
            break;
          }
        }
      }
      rows.and(MutableRoaringBitmap.bitmapOfRange(lo, hi));
      return rows;
    }

    /** The series of a row's key; null when it is not selected. */
    private Samples series(int[] key) {
      int h = 1;
      for (int k : key) {
        h = 31 * h + k;
      }
      h ^= h >>> 16;
      int mask = slots.length - 1;
      for (int i = h & mask; ; i = (i + 1) & mask) {
        int slot = slots[i];
        if (slot == 0) {
          return add(key, i);
        }
        if (sameKey(slot - 1, key)) {
          return local.get(slot - 1);
        }
      }
    }

    private boolean sameKey(int index, int[] key) {
      int base = index * width;
      for (int i = 0; i < width; i++) {
        if (keys[base + i] != key[i]) {
          return false;
        }
      }
      return true;
    }

    private Samples add(int[] key, int slot) {
      int index = localCount++;
      if (keys.length < localCount * width) {
        keys = Arrays.copyOf(keys, Math.max(keys.length * 2, localCount * width));
      }
      System.arraycopy(key, 0, keys, index * width, width);
      slots[slot] = index + 1;
      Labels labels = labels(key);
      Samples s = null;
      if (labels != null && selected(labels)) {
        s = found.computeIfAbsent(labels, l -> new Samples());
        s.remote |= REMOTE_WRITE_SCOPE.equals(scope(key));
      }
      local.add(s);
      if (localCount * 2 > slots.length) {
        rehash();
      }
      return s;
    }

    private boolean selected(Labels labels) {
      if (selectors.isEmpty()) {
        return true;
      }
      for (List<LabelMatcher> selector : selectors) {
        if (labels.matches(selector)) {
          return true;
        }
      }
      return false;
    }

    private void rehash() {
      int[] bigger = new int[slots.length * 2];
      int mask = bigger.length - 1;
      for (int index = 0; index < localCount; index++) {
        int h = 1;
        for (int i = 0; i < width; i++) {
          h = 31 * h + keys[index * width + i];
        }
        h ^= h >>> 16;
        int i = h & mask;
        while (bigger[i] != 0) {
          i = (i + 1) & mask;
        }
        bigger[i] = index + 1;
      }
      slots = bigger;
    }

    private String scope(int[] key) {
      int i = names.indexOf("ScopeName");
      return i < 0 || key[i] < 0 ? null : columns.get(i).dictionary().get(key[i]);
    }

    /** A series' labels from its key; null for a series Prometheus would not show. */
    private Labels labels(int[] key) {
      Map<String, String> text = new HashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        if (key[i] >= 0) {
          text.put(names.get(i), columns.get(i).dictionary().get(key[i]));
        }
      }
      String metric = text.getOrDefault("MetricName", "");
      if (metric.isEmpty()) {
        return null;
      }
      boolean remote = REMOTE_WRITE_SCOPE.equals(text.get("ScopeName"));
      if (!remote && key[width - 1] == DELTA) {
        return null;
      }
      if (remote) {
        Map<String, String> labels = new HashMap<>();
        text.forEach(
            (column, value) -> {
              if (column.startsWith(ATTRIBUTES)) {
                labels.put(column.substring(ATTRIBUTES.length()), value);
              }
            });
        labels.put(Labels.NAME, metric);
        return Labels.of(labels);
      }
      Map<String, String> labels = PromNames.otlpLabels(text);
      boolean counter = table == OtelTable.SUM && key[width - 2] == 1;
      labels.put(
          Labels.NAME,
          PromNames.metric(
              metric, text.getOrDefault("MetricUnit", ""), table == OtelTable.GAUGE, counter));
      return Labels.of(labels);
    }
  }

  static double parseSpecial(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.NaN;
    };
  }

  /** One series' samples as they are read. */
  private static final class Samples {
    long[] times = new long[16];
    double[] values = new double[16];
    int size;
    boolean sorted = true;
    long newest = Long.MIN_VALUE;
    boolean remote;

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
      return new SeriesData(labels, Arrays.copyOf(times, size), Arrays.copyOf(values, size));
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
    }
  }
}
