package dev.chartwell.server.prometheus;

import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A warehouse's metric tables ({@code otel_metrics_gauge} and {@code otel_metrics_sum}; the
 * histogram and summary tables through {@link OtlpHistograms}; OTLP resources as {@link
 * TargetInfo}) as Prometheus series. Each segment in the time range is read by column, a run of
 * rows at a time ({@link SegmentScan}): each row's series is a small key made of the dictionary ids
 * of its identity columns ({@link SeriesKeys}), so no object is made per row, and the labels of
 * each series are built ({@link SeriesLabels}) and matched once per segment. Samples of one series
 * from several segments are put in time order; of two samples at the same millisecond the later
 * write is kept. A row flagged "no recorded value" is a staleness marker. A selector naming its
 * metric reads the larger segments through a {@link SeriesCache} of their decoded series.
 */
public final class MetricStore implements SeriesSource {
  /** The {@code ScopeName} of the rows remote write stores. */
  public static final String REMOTE_WRITE_SCOPE = "prometheus-remote-write";

  /** The string column holding a non-finite value ({@code NaN}, {@code +Inf}, {@code -Inf}). */
  public static final String SPECIAL_VALUE = "ValueSpecial";

  private final Function<OtelTable, Source> tables;
  private final long maxSamples;
  private final long direct;
  private final SeriesCache cache;

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
    this(tables, maxSamples, SeriesKeys.DIRECT, null);
  }

  /**
   * @param tables the engine source of a metric table, or {@code null} when it does not exist
   * @param maxSamples the most samples one {@link #select} may read
   * @param direct the most series keys made by arithmetic alone ({@link SeriesKeys#DIRECT}; tests
   *     make it small to exercise the hash table)
   * @param cache where the decoded series of segments are kept between queries, or null to read
   *     every segment anew
   */
  MetricStore(Function<OtelTable, Source> tables, long maxSamples, long direct, SeriesCache cache) {
    this.tables = tables;
    this.maxSamples = maxSamples;
    this.direct = direct;
    this.cache = cache;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each series is joined from its pieces ({@link SampleBuffer#finish}) when the list is asked
   * for it, and again if asked again: a caller going through the list once holds one joined series
   * at a time, not all of them.
   */
  @Override
  public List<SeriesData> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
    Map<Labels, SampleBuffer> found = scan(List.of(matchers), minTime, maxTime, true);
    List<Labels> labels = new ArrayList<>(found.size());
    List<SampleBuffer> buffers = new ArrayList<>(found.size());
    found.forEach(
        (l, s) -> {
          if (s.samples() > 0) { // rows without a value of any kind make no sample
            labels.add(l);
            buffers.add(s);
          }
        });
    return new AbstractList<>() {
      @Override
      public SeriesData get(int i) {
        return buffers.get(i).finish(labels.get(i));
      }

      @Override
      public int size() {
        return labels.size();
      }
    };
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
  private Map<Labels, SampleBuffer> scan(
      List<List<LabelMatcher>> selectors, long minTime, long maxTime, boolean samples) {
    Map<Labels, SampleBuffer> found = new HashMap<>();
    SegmentScan.Gathered into =
        new SegmentScan.Gathered(selectors, samples, found, maxSamples, direct, new long[1]);
    String cached = samples && cache != null ? metricName(selectors) : null;
    for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM)) {
      Source source = tables.apply(t);
      if (source == null) {
        continue;
      }
      try (SourceSnapshot snap = Snapshots.of(source)) {
        List<SegmentRead> reads = new ArrayList<>();
        for (Segment s : snap.segments()) {
          if (s.rows() > 0 && s.maxTimestamp() >= minTime && s.minTimestamp() <= maxTime) {
            if (cached != null && cache.keeps(s)) {
              SegmentRead read =
                  cache.series(t, s, cached, direct).read(selectors.get(0), minTime, maxTime, into);
              read.count();
              reads.add(read);
              continue;
            }
            SegmentScan scan = new SegmentScan(t, s, into, minTime, maxTime);
            if (samples) {
              scan.count();
              reads.add(scan);
            } else {
              scan.newest();
            }
          }
        }
        found.values().forEach(SampleBuffer::reserve);
        reads.forEach(SegmentRead::fill);
      }
    }
    OtlpHistograms.Sink otlp =
        (labels, time, value) -> {
          SampleBuffer s = found.computeIfAbsent(labels, l -> new SampleBuffer());
          if (samples) {
            if (++into.read()[0] > maxSamples) {
              throw new TooManySamples(maxSamples);
            }
            s.add(time, value);
          }
        };
    OtlpHistograms.scan(tables, selectors, minTime, maxTime, samples, otlp);
    TargetInfo.scan(tables, selectors, minTime, maxTime, otlp);
    return found;
  }

  /** The metric name of a lone selector that names it ({@code __name__="..."}), else null. */
  private static String metricName(List<List<LabelMatcher>> selectors) {
    if (selectors.size() != 1) {
      return null;
    }
    for (LabelMatcher m : selectors.get(0)) {
      if (m.name().equals(Labels.NAME) && m.type() == LabelMatcher.Type.EQUAL) {
        return m.value();
      }
    }
    return null;
  }

  static double parseSpecial(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.NaN;
    };
  }
}
