package dev.chartwell.server.prometheus;

import dev.chartwell.engine.internal.agg.ValueReader;
import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.DoubleColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.roaringbitmap.BatchIterator;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * One segment's rows of a time range read into series, by column and a run of rows at a time: the
 * rows' series keys ({@link SeriesKeys}), timestamps and values are decoded in bulk, and each row
 * costs an array look-up of its key and two array stores. The labels of a series are built and
 * matched once per segment, the first time its key is seen. Samples are read in two passes over
 * every segment of a selection: {@link #count} counts each series' rows, its arrays are sized once
 * ({@link SampleBuffer#reserve}), {@link #fill} writes them. When every selector names its metric
 * and those names are a small part of the segment, only their rows are read (from the name column's
 * postings); otherwise every row of the range is, and the other metrics' rows fall to series the
 * selectors do not match.
 */
final class SegmentScan implements SegmentRead {
  private static final int RUN = 4096;
  private static final int NO_RECORDED_VALUE = 1;

  /** Where the series of all segments of one selection are gathered. */
  record Gathered(
      List<List<LabelMatcher>> selectors,
      boolean samples,
      Map<Labels, SampleBuffer> found,
      long maxSamples,
      long direct,
      long[] read) {}

  private final OtelTable table;
  private final Segment segment;
  private final Gathered into;
  private final List<String> names = new ArrayList<>();
  private final List<StringColumn> columns = new ArrayList<>();
  private final BoolColumn monotonic;
  private final LongColumn temporality;
  private final SeriesKeys keys;

  /** The rows of the time range: [lo, hi). */
  private final int lo;

  private final int hi;

  /** The rows read, or null for all of the range. */
  private final ImmutableRoaringBitmap rows;

  /** The current run: its first row (when reading the whole range) and length. */
  private int first;

  private int n;
  private int next;
  private BatchIterator batches;
  private final int[] at = new int[RUN];
  private final int[] key = new int[RUN];

  /** Per key: its series' index in {@link #local} + 1, -1 when not selected, 0 when not seen. */
  private int[] slots = new int[256];

  private SampleBuffer[] local = new SampleBuffer[16];

  private int localCount;

  /** Each series' index in {@link #local}: keys whose labels are the same share one. */
  private final Map<SampleBuffer, Integer> localIndex = new IdentityHashMap<>();

  /**
   * @param table the segment's table
   * @param segment the segment
   * @param into where the series go
   * @param minTime the earliest time read
   * @param maxTime the latest time read
   */
  SegmentScan(OtelTable table, Segment segment, Gathered into, long minTime, long maxTime) {
    this.table = table;
    this.segment = segment;
    this.into = into;
    new TreeSet<>(segment.columns().keySet())
        .forEach(
            name -> {
              if (SeriesLabels.identity(name) && segment.column(name) instanceof StringColumn c) {
                names.add(name);
                columns.add(c);
              }
            });
    this.monotonic = segment.column("IsMonotonic") instanceof BoolColumn b ? b : null;
    this.temporality = segment.column("AggregationTemporality") instanceof LongColumn l ? l : null;
    this.keys = new SeriesKeys(segment, columns, monotonic, temporality, into.direct);
    int nameIndex = names.indexOf("MetricName");
    int from = segment.firstRowAtOrAfter(minTime);
    int to = maxTime == Long.MAX_VALUE ? segment.rows() : segment.firstRowAtOrAfter(maxTime + 1);
    if (nameIndex < 0) { // no metric names: no series
      to = from;
    }
    this.lo = from;
    this.hi = Math.max(from, to);
    this.rows = lo < hi ? candidates(columns.get(nameIndex), lo, hi) : null;
  }

  /**
   * Selected samples: counts each series' rows of the range, so that its arrays can be sized once
   * for every segment ({@link SampleBuffer#reserve}) before {@link #fill}.
   *
   * @throws MetricStore.TooManySamples when the selection grows past its limit
   */
  @Override
  public void count() {
    restart();
    int[] counts = new int[Math.max(1, localCount)];
    long total = 0;
    while (nextRun()) {
      for (int i = 0; i < n; i++) {
        int slot = slot(key[i], i);
        if (slot > 0) {
          if (slot > counts.length) {
            counts = Arrays.copyOf(counts, Math.max(slot, 2 * counts.length));
          }
          counts[slot - 1]++;
          total++;
        }
      }
    }
    for (int s = 0; s < localCount; s++) {
      local[s].expected += counts[s];
    }
    into.read[0] += total;
    if (into.read[0] > into.maxSamples) {
      throw new MetricStore.TooManySamples(into.maxSamples);
    }
  }

  /** Appends the counted rows to their series, into the room {@link #count} reserved. */
  @Override
  public void fill() {
    restart();
    Values values = new Values(lo, hi);
    long[][] seriesTimes = new long[localCount][];
    double[][] seriesValues = new double[localCount][];
    int[] sizes = new int[localCount];
    for (int s = 0; s < localCount; s++) {
      seriesTimes[s] = local[s].times();
      seriesValues[s] = local[s].values();
      sizes[s] = local[s].size();
    }
    long[] times = new long[RUN];
    double[] numbers = new double[RUN];
    while (nextRun()) {
      times(times);
      boolean bulk = rows == null && values.bulk(first, first + n, numbers);
      for (int i = 0; i < n; i++) {
        int s = slots[key[i]] - 1; // every key was seen by count()
        if (s < 0) {
          continue;
        }
        double v;
        if (bulk) {
          v = numbers[i];
        } else {
          v = values.at(row(i));
          if (values.missing) {
            continue;
          }
        }
        int p = sizes[s]++;
        seriesTimes[s][p] = times[i];
        seriesValues[s][p] = v;
      }
    }
    for (int s = 0; s < localCount; s++) {
      local[s].appended(sizes[s]);
    }
  }

  /** Selected series without samples: the newest time of each. */
  void newest() {
    restart();
    long[] times = new long[RUN];
    while (nextRun()) {
      times(times);
      for (int i = 0; i < n; i++) {
        int slot = slot(key[i], i);
        if (slot > 0) {
          local[slot - 1].newest = Math.max(local[slot - 1].newest, times[i]);
        }
      }
    }
  }

  private void restart() {
    next = lo;
    batches = rows == null ? null : rows.getBatchIterator();
  }

  /** Moves to the next run of rows of the range and computes their keys; false at the end. */
  private boolean nextRun() {
    if (rows == null) {
      if (next >= hi) {
        return false;
      }
      first = next;
      n = Math.min(hi - next, RUN);
      next += n;
      keys.keys(first, first + n, key);
      return true;
    }
    if (batches == null || !batches.hasNext()) {
      return false;
    }
    n = batches.nextBatch(at);
    keys.keys(at, n, key);
    return n > 0 || nextRun();
  }

  /** The row at a position of the current run. */
  private int row(int i) {
    return rows == null ? first + i : at[i];
  }

  /** The timestamps of the current run. */
  private void times(long[] out) {
    if (rows == null) {
      segment.timestamps(first, first + n, out);
    } else {
      for (int i = 0; i < n; i++) {
        out[i] = segment.timestamp(at[i]);
      }
    }
  }

  /** A row's series: its index in {@link #local} + 1, or -1 when not selected. */
  private int slot(int k, int i) {
    int slot = k < slots.length ? slots[k] : 0;
    return slot != 0 ? slot : seen(k, row(i));
  }

  /** A key met for the first time in this segment, at a row: its series, selected or not. */
  private int seen(int k, int row) {
    if (k >= slots.length) {
      slots = Arrays.copyOf(slots, Math.max(k + 1, slots.length * 2));
    }
    Map<String, String> text = new HashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      String v = columns.get(i).get(row);
      if (v != null) {
        text.put(names.get(i), v);
      }
    }
    int isMonotonic =
        monotonic == null || !monotonic.isPresent(row) ? -1 : monotonic.get(row) ? 1 : 0;
    long kind = temporality == null || !temporality.isPresent(row) ? -1 : temporality.get(row);
    Labels labels = SeriesLabels.of(table, text, isMonotonic, kind);
    if (labels == null || !selected(labels)) {
      slots[k] = -1;
      return -1;
    }
    SampleBuffer s = into.found.computeIfAbsent(labels, l -> new SampleBuffer());
    s.remote |= SeriesLabels.remote(text);
    Integer known = localIndex.putIfAbsent(s, localCount);
    if (known != null) { // another key with the same labels (an OTLP and a remote-written series)
      slots[k] = known + 1;
      return known + 1;
    }
    if (localCount == local.length) {
      local = Arrays.copyOf(local, localCount * 2);
    }
    local[localCount++] = s;
    slots[k] = localCount;
    return localCount;
  }

  private boolean selected(Labels labels) {
    if (into.selectors.isEmpty()) {
      return true;
    }
    for (List<LabelMatcher> selector : into.selectors) {
      if (labels.matches(selector)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The rows of the wanted names in [lo, hi) when every selector names its metric and they are at
   * most a quarter of the range; else null, for every row of the range.
   */
  private ImmutableRoaringBitmap candidates(StringColumn names, int lo, int hi) {
    List<String> wanted = new ArrayList<>();
    for (List<LabelMatcher> selector : into.selectors) {
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
    return 4L * rows.getCardinality() > hi - lo ? null : rows;
  }

  /**
   * The value of a row: a staleness marker when flagged "no recorded value", else the number, else
   * a non-finite value kept as text; rows with none of them have no sample.
   */
  private final class Values {
    /** Whether the row {@link #at} read last has no sample. */
    boolean missing;

    private final ValueReader reader = ValueReader.of(segment.column("Value"));
    private final DoubleColumn doubles =
        segment.column("Value") instanceof DoubleColumn d ? d : null;
    private final StringColumn special =
        segment.column(MetricStore.SPECIAL_VALUE) instanceof StringColumn c ? c : null;
    private final ImmutableRoaringBitmap marked;

    Values(int lo, int hi) {
      this.marked = marked(segment.column("Flags") instanceof LongColumn l ? l : null, lo, hi);
    }

    /** The rows of [lo, hi) flagged "no recorded value", or null when none. */
    private static ImmutableRoaringBitmap marked(LongColumn flags, int lo, int hi) {
      if (flags == null || flags.presentCount() == 0) {
        return null;
      }
      MutableRoaringBitmap rows = new MutableRoaringBitmap();
      if (flags.index() != null) {
        for (int i = 0; i < flags.index().values().capacity(); i++) {
          if ((flags.index().values().get(i) & NO_RECORDED_VALUE) != 0) {
            rows.or(flags.index().postings().get(i));
          }
        }
      } else {
        for (int row = lo; row < hi; row++) {
          if (flags.isPresent(row) && (flags.get(row) & NO_RECORDED_VALUE) != 0) {
            rows.add(row);
          }
        }
      }
      return rows.isEmpty() ? null : rows;
    }

    /**
     * Reads the values of a run of rows at once when every row of it holds a number.
     *
     * @return whether it did
     */
    boolean bulk(int from, int to, double[] out) {
      if (doubles == null
          || (doubles.presence() != null && !doubles.presence().contains(from, (long) to))
          || (marked != null && marked.intersects(from, (long) to))) {
        return false;
      }
      doubles.values().get(from, out, 0, to - from);
      return true;
    }

    double at(int row) {
      missing = false;
      if (marked != null && marked.contains(row)) {
        return SeriesData.STALE_NAN;
      }
      if (reader.present(row)) {
        return reader.number(row);
      }
      if (special != null && special.id(row) >= 0) {
        return MetricStore.parseSpecial(special.get(row));
      }
      missing = true;
      return Double.NaN;
    }
  }
}
