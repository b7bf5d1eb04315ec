package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesBits;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * The columnar select path ({@link SegmentScan}, {@link SeriesKeys}) against a naive reference that
 * reads every row's every identity value and builds its labels, on generated rows of both metric
 * tables: several metrics (so a selector by name reads only its rows' postings in some segments and
 * every row in others), OTLP and remote-written rows, absent attributes, units, monotonic and delta
 * sums, staleness markers, non-finite values, rows without a value and rewrites of one millisecond,
 * spread over several segments. Both must give the same series with the same samples, bit for bit.
 */
class MetricStoreDifferentialTest {
  static final long T0 = 1_767_225_600_000L;
  static final String[] METRICS = {"up", "http.server.duration", "x", "queue_size", "y_total"};

  @TempDir Path dir;
  MetricStores stores;
  Tenants tenants;
  int warehouses;

  @BeforeEach
  void open() throws Exception {
    stores = new MetricStores(dir);
    tenants = stores.tenants();
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  /** One generated row: which table, and its fields. */
  record Row(OtelTable table, Event event) {}

  @Test
  void theColumnarPathSelectsWhatTheNaiveOneDoes() {
    qt().withExamples(40)
        .withShrinkCycles(20)
        .forAll(lists().of(batch()).ofSizeBetween(1, 4), selector(), integers().between(0, 3))
        .checkAssert(this::sameSelection);
  }

  private void sameSelection(List<List<Row>> batches, List<LabelMatcher> selector, int range) {
    String warehouse = "w" + warehouses++;
    Map<OtelTable, Source> tables = tenants.writing(warehouse).tables();
    for (List<Row> batch : batches) {
      for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM)) {
        List<Event> events = batch.stream().filter(r -> r.table == t).map(Row::event).toList();
        if (!events.isEmpty()) {
          tables.get(t).appendBatch(events);
        }
      }
      tables.values().forEach(Source::seal); // each batch a segment of its own
      tables.values().forEach(Source::awaitSealing);
    }
    long min = T0 + range * 20_000L;
    long max = range == 3 ? Long.MAX_VALUE : T0 + 50_000L + range * 10_000L;
    Map<Labels, List<long[]>> want = naive(tables, selector, min, max);
    // Keys by arithmetic, then every part through the hash table (direct 2); each read directly,
    // then through a cache of every segment's series twice (the second reads what the first kept).
    SeriesCache cache = null;
    for (int variant = 0; variant < 6; variant++) {
      long direct = variant < 3 ? SeriesKeys.DIRECT : 2;
      cache = variant % 3 == 0 ? null : variant % 3 == 1 ? new SeriesCache(1 << 20, 1) : cache;
      String how = "direct " + direct + (cache == null ? ", not cached" : ", cached");
      MetricStore store = new MetricStore(tables::get, Long.MAX_VALUE, direct, cache);
      List<SeriesData> got = new ArrayList<>(store.select(selector, min, max));
      got.sort(Comparator.comparing(SeriesData::labels));
      assertEquals(want.keySet().stream().toList(), got.stream().map(SeriesData::labels).toList());
      for (SeriesData s : got) {
        List<long[]> samples = want.get(s.labels());
        assertEquals(
            samples.stream().map(x -> x[0] + "=" + Double.longBitsToDouble(x[1])).toList(),
            java.util.stream.IntStream.range(0, s.size())
                .mapToObj(i -> s.timestamps()[i] + "=" + s.values()[i])
                .toList(),
            s.labels() + " " + how);
        for (int i = 0; i < s.size(); i++) {
          assertEquals(samples.get(i)[0], s.timestamps()[i], s.labels() + " sample " + i);
          assertEquals(
              samples.get(i)[1],
              Double.doubleToRawLongBits(s.values()[i]),
              s.labels() + " value " + i);
        }
      }
    }
  }

  /**
   * Every row read on its own: its identity values looked up by name, its labels built, the
   * selector matched; samples put in time order keeping the last of one millisecond.
   */
  private static Map<Labels, List<long[]>> naive(
      Map<OtelTable, Source> tables, List<LabelMatcher> selector, long min, long max) {
    Map<Labels, List<long[]>> found = new HashMap<>();
    for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM)) {
      try (SourceSnapshot snap = Snapshots.of(tables.get(t))) {
        for (Segment seg : snap.segments()) {
          for (int row = 0; row < seg.rows(); row++) {
            long time = seg.timestamp(row);
            if (time < min || time > max) {
              continue;
            }
            Map<String, String> text = new HashMap<>();
            for (var e : seg.columns().entrySet()) {
              if (SeriesLabels.identity(e.getKey())
                  && e.getValue() instanceof StringColumn s
                  && s.get(row) != null) {
                text.put(e.getKey(), s.get(row));
              }
            }
            int monotonic =
                seg.column("IsMonotonic") instanceof BoolColumn b && b.isPresent(row)
                    ? (b.get(row) ? 1 : 0)
                    : -1;
            long temporality =
                seg.column("AggregationTemporality") instanceof LongColumn l && l.isPresent(row)
                    ? l.get(row)
                    : -1;
            Labels labels = SeriesLabels.of(t, text, monotonic, temporality);
            if (labels == null || !labels.matches(selector)) {
              continue;
            }
            Double v = value(seg, row);
            if (v != null) {
              found
                  .computeIfAbsent(labels, l -> new ArrayList<>())
                  .add(new long[] {time, Double.doubleToRawLongBits(v)});
            }
          }
        }
      }
    }
    Map<Labels, List<long[]>> out = new LinkedHashMap<>();
    found.keySet().stream()
        .sorted()
        .forEach(
            labels -> {
              List<long[]> samples = new ArrayList<>(found.get(labels));
              samples.sort(Comparator.comparingLong(s -> s[0])); // stable: later writes last
              List<long[]> kept = new ArrayList<>();
              for (long[] s : samples) {
                if (!kept.isEmpty() && kept.get(kept.size() - 1)[0] == s[0]) {
                  kept.set(kept.size() - 1, s);
                } else {
                  kept.add(s);
                }
              }
              out.put(labels, kept);
            });
    return out;
  }

  private static Double value(Segment seg, int row) {
    if (seg.column("Flags") instanceof LongColumn f && f.isPresent(row) && (f.get(row) & 1) != 0) {
      return SeriesData.STALE_NAN;
    }
    Column c = seg.column("Value");
    if (c instanceof dev.chartwell.engine.internal.segment.DoubleColumn d && d.isPresent(row)) {
      return d.get(row);
    }
    if (seg.column(MetricStore.SPECIAL_VALUE) instanceof StringColumn s && s.get(row) != null) {
      return MetricStore.parseSpecial(s.get(row));
    }
    return null;
  }

  private static Gen<List<Row>> batch() {
    return lists().of(row()).ofSizeBetween(0, 60);
  }

  private static Gen<Row> row() {
    Gen<Integer> small = integers().between(0, 3);
    return integers()
        .between(0, Integer.MAX_VALUE)
        .zip(integers().between(0, 80), small, (seed, second, kind) -> row(seed, second, kind));
  }

  /** A row from a seed's bits: each choice takes a few of them. */
  private static Row row(int seed, int second, int kind) {
    int bits = seed;
    OtelTable table = (bits & 1) == 0 ? OtelTable.GAUGE : OtelTable.SUM;
    bits >>>= 1;
    Map<String, Object> f = new HashMap<>();
    f.put("MetricName", METRICS[(bits & 7) % METRICS.length]);
    bits >>>= 3;
    boolean remote = (bits & 1) == 0;
    bits >>>= 1;
    f.put("ScopeName", remote ? MetricStore.REMOTE_WRITE_SCOPE : "otel-sdk");
    pick(f, "Attributes.job", new String[] {null, "api", "db", "api"}, bits & 3);
    bits >>>= 2;
    pick(f, "Attributes.instance", new String[] {null, "a:1", "b:2", "c:3"}, bits & 3);
    bits >>>= 2;
    pick(f, "Attributes.http.method", new String[] {null, "GET", "POST", null}, bits & 3);
    bits >>>= 2;
    pick(f, "ResourceAttributes.service.name", new String[] {null, "cart", "shop", null}, bits & 3);
    bits >>>= 2;
    pick(f, "MetricUnit", new String[] {null, "s", "1", "By"}, bits & 3);
    bits >>>= 2;
    if (table == OtelTable.SUM) {
      if ((bits & 3) != 0) {
        f.put("IsMonotonic", (bits & 3) == 1);
      }
      bits >>>= 2;
      if ((bits & 3) != 0) {
        f.put("AggregationTemporality", (long) (bits & 3));
      }
      bits >>>= 2;
    }
    long t = T0 + second * 1_000L;
    switch (kind) {
      case 0 -> f.put("Value", (double) (bits % 1000) / 8);
      case 1 -> f.put("Flags", 1L);
      case 2 -> f.put(MetricStore.SPECIAL_VALUE, (bits & 1) == 0 ? "NaN" : "-Inf");
      default -> {
        if ((bits & 1) == 0) {
          f.put("Flags", 0L); // no value of any kind: no sample
        } else {
          f.put("Value", -1.5);
        }
      }
    }
    f.put("TimeUnixNanos", t * 1_000_000L);
    return new Row(table, new Event(t, f));
  }

  private static void pick(Map<String, Object> f, String column, String[] values, int i) {
    if (values[i] != null) {
      f.put(column, values[i]);
    }
  }

  private static Gen<List<LabelMatcher>> selector() {
    List<List<LabelMatcher>> selectors =
        List.of(
            List.of(eq(Labels.NAME, "x")),
            List.of(eq(Labels.NAME, "up")),
            List.of(eq(Labels.NAME, "http_server_duration_seconds")),
            List.of(eq(Labels.NAME, "queue_size_bytes_total")),
            List.of(
                new LabelMatcher(Labels.NAME, LabelMatcher.Type.REGEX, "x|y_total|up"),
                eq("job", "api")),
            List.of(new LabelMatcher("instance", LabelMatcher.Type.NOT_EQUAL, "a:1")),
            List.of(new LabelMatcher("job", LabelMatcher.Type.REGEX, ".+")));
    return integers().between(0, selectors.size() - 1).map(selectors::get);
  }

  private static LabelMatcher eq(String name, String value) {
    return new LabelMatcher(name, LabelMatcher.Type.EQUAL, value);
  }

  /**
   * One cache kept while rows keep arriving (some sealed into segments of their own, some left in
   * the head) and small segments are merged: after every write, a selection through the cache gives
   * exactly what a selection reading every segment anew gives, so a kept entry never hides an
   * accepted write nor serves a merged segment's samples twice. A cache of 4 KB also evicts.
   */
  @Test
  void aKeptCacheNeverServesStaleSeries() {
    qt().withExamples(12)
        .withShrinkCycles(10)
        .forAll(
            lists().of(batch()).ofSizeBetween(1, 12),
            integers().between(0, 1),
            integers().between(0, 3))
        .checkAssert(this::cachedAsPlainWhileWriting);
  }

  private void cachedAsPlainWhileWriting(List<List<Row>> batches, int small, int range) {
    String warehouse = "w" + warehouses++;
    Map<OtelTable, Source> tables = tenants.writing(warehouse).tables();
    SeriesCache cache = new SeriesCache(small == 1 ? 4096 : 1 << 20, 1);
    MetricStore cached = new MetricStore(tables::get, Long.MAX_VALUE, SeriesKeys.DIRECT, cache);
    MetricStore plain = new MetricStore(tables::get, Long.MAX_VALUE, SeriesKeys.DIRECT, null);
    long min = T0 + range * 20_000L;
    long max = range == 3 ? Long.MAX_VALUE : T0 + 50_000L + range * 10_000L;
    for (int b = 0; b < batches.size(); b++) {
      for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM)) {
        List<Event> events =
            batches.get(b).stream().filter(r -> r.table == t).map(Row::event).toList();
        if (!events.isEmpty()) {
          tables.get(t).appendBatch(events);
        }
      }
      if (b % 3 != 2) { // every third batch stays in the head, behind kept segments
        tables.values().forEach(Source::seal);
      }
      sameThroughCache(plain, cached, min, max, "after batch " + b);
    }
    sameThroughCache(plain, cached, min, max, "after the merges done by now");
    assertTrue(cache.bytes() <= (small == 1 ? 4096 : 1 << 20), cache.bytes() + " bytes kept");
  }

  /**
   * Four small segments, each selected through the cache as soon as it is sealed, merged into one:
   * the merged segment's samples are read once, none twice, none lost.
   */
  @Test
  void aMergeReplacesKeptSegmentsWithoutLossOrRepeat() throws Exception {
    Map<OtelTable, Source> tables = tenants.writing("merging").tables();
    Source gauge = tables.get(OtelTable.GAUGE);
    SeriesCache cache = new SeriesCache(1 << 20, 1);
    MetricStore cached = new MetricStore(tables::get, Long.MAX_VALUE, SeriesKeys.DIRECT, cache);
    List<LabelMatcher> x = List.of(eq(Labels.NAME, "x"));
    for (int segment = 0; segment < 4; segment++) {
      List<Event> events = new ArrayList<>();
      for (int i = segment * 8; i < segment * 8 + 8; i++) {
        Map<String, Object> f = new HashMap<>();
        f.put("MetricName", "x");
        f.put("ScopeName", MetricStore.REMOTE_WRITE_SCOPE);
        f.put("Attributes.job", "j");
        f.put("Value", (double) i);
        f.put("TimeUnixNanos", (T0 + i * 1000L) * 1_000_000L);
        events.add(new Event(T0 + i * 1000L, f));
      }
      gauge.appendBatch(events);
      gauge.seal();
      assertEquals(
          wholeSeries(8 * segment + 8), samples(cached.select(x, T0, Long.MAX_VALUE)), "sealed");
    }
    Await.until("four small segments merged into one", () -> gauge.stats().segments() == 1);
    assertEquals(wholeSeries(32), samples(cached.select(x, T0, Long.MAX_VALUE)), "merged");
    assertTrue(cache.hits() > 0, "the sealed segments were read from the cache");
  }

  /**
   * A full cache lets the least recently used entry go: six metrics of one segment, each entry 392
   * bytes (8 samples, one series), in a cache of 1,600 bytes keep the last four read; the first is
   * decoded again, the last is found, and every selection is whole.
   */
  @Test
  void aFullCacheLetsTheLeastRecentlyUsedGo() {
    Map<OtelTable, Source> tables = tenants.writing("evicting").tables();
    Source gauge = tables.get(OtelTable.GAUGE);
    List<Event> events = new ArrayList<>();
    for (int metric = 1; metric <= 6; metric++) {
      for (int i = 0; i < 8; i++) {
        Map<String, Object> f = new HashMap<>();
        f.put("MetricName", "x" + metric);
        f.put("ScopeName", MetricStore.REMOTE_WRITE_SCOPE);
        f.put("Attributes.job", "j");
        f.put("Value", (double) i);
        f.put("TimeUnixNanos", (T0 + i * 1000L) * 1_000_000L);
        events.add(new Event(T0 + i * 1000L, f));
      }
    }
    gauge.appendBatch(events);
    gauge.seal();
    SeriesCache cache = new SeriesCache(1600, 1);
    MetricStore cached = new MetricStore(tables::get, Long.MAX_VALUE, SeriesKeys.DIRECT, cache);
    for (int metric = 1; metric <= 6; metric++) {
      assertEquals(8, whole(cached, "x" + metric));
    }
    assertEquals(4, cache.entries());
    assertEquals(4 * 392, cache.bytes());
    assertEquals(6, cache.misses());
    assertEquals(8, whole(cached, "x6"));
    assertEquals(1, cache.hits(), "the newest entry is kept");
    assertEquals(8, whole(cached, "x1"));
    assertEquals(7, cache.misses(), "the eldest entry went");
    assertEquals(4, cache.entries());
  }

  /** The samples of the one series named {@code name}, all joined. */
  private static int whole(MetricStore store, String name) {
    List<SeriesData> got = store.select(List.of(eq(Labels.NAME, name)), T0, Long.MAX_VALUE);
    assertEquals(1, got.size(), name);
    return got.get(0).size();
  }

  /** The series {@code x{job="j"}} with samples 0 .. n - 1, one a second from T0, as text. */
  private static List<String> wholeSeries(int n) {
    long[] t = new long[n];
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = T0 + i * 1000L;
      v[i] = i;
    }
    return samples(List.of(new SeriesData(Labels.of("__name__", "x", "job", "j"), t, v)));
  }

  private static void sameThroughCache(
      MetricStore plain, MetricStore cached, long min, long max, String when) {
    for (String name : METRICS_BY_PROM_NAME) {
      List<LabelMatcher> selector = List.of(eq(Labels.NAME, name));
      assertEquals(
          samples(plain.select(selector, min, max)),
          samples(cached.select(selector, min, max)),
          name + " " + when);
    }
  }

  /** Prometheus names of the generated rows' metrics (translated names for OTLP rows). */
  private static final List<String> METRICS_BY_PROM_NAME =
      List.of("x", "up", "http_server_duration_seconds", "queue_size_bytes_total", "y_total");

  /** A selection as text, bit for bit, in label order. */
  private static List<String> samples(List<SeriesData> selected) {
    return selected.stream()
        .sorted(Comparator.comparing(SeriesData::labels))
        .map(SeriesBits::of)
        .toList();
  }

  /**
   * Selections while remote write goes on: each one sees a series in time order, without gaps or
   * repeats, never less than the one before.
   */
  @Test
  void selectionsDuringIngestionSeeWholeOrderedPrefixes() throws Exception {
    RemoteWriteRoute route =
        new RemoteWriteRoute(tenants, () -> T0, new PromMeters(new SimpleMeterRegistry()));
    Labels series = Labels.of("__name__", "c_total", "job", "j");
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int from = 0; from < 4000; from += 100) {
                  long[] t = new long[100];
                  double[] v = new double[100];
                  for (int i = 0; i < 100; i++) {
                    t[i] = T0 + (from + i) * 1000L;
                    v[i] = from + i;
                  }
                  route.ingest(
                      "live",
                      new RemoteWrite.Request(
                          List.of(new RemoteWrite.TimeSeries(series, t, v)), List.of()));
                  if (from % 1000 == 0) {
                    tenants.writing("live").tables().values().forEach(Source::seal);
                  }
                }
              } catch (Throwable e) {
                failed.set(e);
              } finally {
                done.set(true);
              }
            });
    writer.start();
    int last = 0;
    boolean finished;
    do {
      finished = done.get(); // read before selecting: this selection sees every write
      int n = selectedPrefix();
      assertTrue(n >= last, n + " samples after " + last);
      last = n;
    } while (!finished);
    writer.join();
    if (failed.get() != null) {
      throw new AssertionError("the writer failed", failed.get());
    }
    assertEquals(4000, last);
  }

  /** The samples of the live series, checked to be the first of what the writer sends. */
  private int selectedPrefix() {
    List<SeriesData> got =
        tenants
            .reading("live")
            .store()
            .select(List.of(eq(Labels.NAME, "c_total")), T0, T0 + 10_000_000L);
    int n = got.isEmpty() ? 0 : got.get(0).size();
    for (int i = 0; i < n; i++) {
      assertEquals(T0 + i * 1000L, got.get(0).timestamps()[i]);
      assertEquals(i, got.get(0).values()[i]);
    }
    return n;
  }
}
