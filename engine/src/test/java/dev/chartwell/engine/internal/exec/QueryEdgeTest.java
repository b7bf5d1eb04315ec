package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WhereLanguage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueryEdgeTest {
  static final long T =
      1_700_000_000_000L - (1_700_000_000_000L % (30L * 86_400_000)); // 30d-aligned
  static final long MIN = 60_000;
  static final long HOUR = 60 * MIN;

  private final Engine engine = Engine.builder().segmentRows(4).workerThreads(2).build();
  private final Source logs = engine.createSource(SourceSpec.logs("logs"));

  @AfterEach
  void close() {
    engine.close();
  }

  private static Event ev(long ts, Object... kv) {
    Map<String, Object> f = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      f.put((String) kv[i], kv[i + 1]);
    }
    return new Event(ts, f);
  }

  private ChartResult run(long start, long end, String g, Series... series) {
    return engine.query(
        new ChartQuery(
            start,
            end,
            g == null ? null : Granularity.named(g).orElseThrow(),
            List.of(series),
            null));
  }

  private Series count(String where) {
    return Series.of(logs.id(), AggFn.COUNT, null, where);
  }

  private static ChartResult.Row row(long bucket, List<String> group, Number... values) {
    return new ChartResult.Row(bucket, group, Arrays.asList(values));
  }

  /**
   * Segments keep bucket tables only for the engine's own granularities; one a library caller makes
   * is found by searching the timestamps, with the same answer.
   */
  @Test
  void aCallerMadeGranularityBucketsAsTheBuiltInOne() {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      events.add(ev(T + i * 7_000L, "SeverityText", i % 3 == 0 ? "error" : "info", "n", i * 1.5));
    }
    logs.appendBatch(events);
    Granularity builtIn = Granularity.named("1m").orElseThrow();
    Granularity made = new Granularity("one minute", 60_000);
    assertTrue(builtIn.builtIn());
    assertTrue(!made.builtIn());
    for (Series s :
        List.of(
            count("SeverityText:error"),
            Series.of(logs.id(), AggFn.SUM, "n", "SeverityText:info"))) {
      ChartQuery q = new ChartQuery(T, T + 300_000, builtIn, List.of(s), null);
      ChartQuery same = new ChartQuery(T, T + 300_000, made, List.of(s), null);
      List<ChartResult.Row> rows = engine.query(q).rows();
      assertEquals(5, rows.size());
      assertEquals(rows, engine.query(same).rows());
    }
  }

  @Test
  void timeRangeIsInclusiveAtBothEnds() {
    logs.appendBatch(List.of(ev(T - 1), ev(T), ev(T + 500), ev(T + 1000), ev(T + 1001)));
    assertEquals(List.of(row(T, List.of(), 3L)), run(T, T + 1000, "1m", count(null)).rows());
    assertEquals(List.of(row(T, List.of(), 1L)), run(T, T, "1m", count(null)).rows());
  }

  @Test
  void whereRangeEndsAreInclusiveOrExclusive() {
    for (long s : new long[] {399, 400, 450, 499, 500}) {
      logs.append(ev(T, "status", s));
    }
    assertEquals(3L, total(run(T, T, "1m", count("status:[400 TO 499]"))));
    assertEquals(1L, total(run(T, T, "1m", count("status:{400 TO 499}"))));
    assertEquals(2L, total(run(T, T, "1m", count("status:[400 TO 499}"))));
    assertEquals(2L, total(run(T, T, "1m", count("status:{400 TO 499]"))));
    assertEquals(4L, total(run(T, T, "1m", count("status:[400 TO *]"))));
    Series sql =
        new Series(
            logs.id(),
            AggFn.COUNT,
            null,
            null,
            "status BETWEEN 400 AND 499",
            WhereLanguage.SQL,
            null);
    assertEquals(3L, total(run(T, T, "1m", sql)));
  }

  private static long total(ChartResult r) {
    return r.rows().stream().mapToLong(x -> (Long) x.values().get(0)).sum();
  }

  @ParameterizedTest
  @CsvSource({
    "30s, 30000",
    "1m, 60000",
    "5m, 300000",
    "10m, 600000",
    "15m, 900000",
    "30m, 1800000",
    "1h, 3600000",
    "2h, 7200000",
    "6h, 21600000",
    "12h, 43200000",
    "1d, 86400000",
    "2d, 172800000",
    "7d, 604800000",
    "30d, 2592000000"
  })
  void bucketsAreEpochAligned(String name, long millis) {
    Granularity g = Granularity.named(name).orElseThrow();
    assertEquals(millis, g.millis());
    long boundary = (T / millis + 1) * millis; // a bucket start after T
    logs.appendBatch(List.of(ev(boundary - 1), ev(boundary), ev(boundary + millis - 1)));
    ChartResult r = run(boundary - millis, boundary + millis, name, count(null));
    assertEquals(
        List.of(row(boundary - millis, List.of(), 1L), row(boundary, List.of(), 2L)), r.rows());
    assertEquals(boundary - millis, g.bucketStart(boundary - 1));
    assertEquals(boundary, g.bucketStart(boundary));
  }

  @ParameterizedTest
  @CsvSource({
    "0, 15s",
    "60000, 15s",
    "900000, 15s",
    "900001, 15s",
    "901000, 30s",
    "3600000, 1m",
    "18000000, 5m",
    "86400000, 30m",
    "172800000, 1h",
    "604800000, 6h",
    "2592000000, 12h",
    "2592060000, 1d",
    "31536000000, 7d",
    "315360000000, 30d",
    "3153600000000, 30d"
  })
  void autoGranularity(long span, String expected) {
    assertEquals(expected, Granularity.auto(T, T + span).name());
  }

  @Test
  void omittedGranularityIsAuto() {
    logs.append(ev(T + 5 * MIN));
    ChartResult r = run(T, T + HOUR, null, count(null));
    assertEquals("1m", r.granularity().name());
    assertEquals(List.of(row(T + 5 * MIN, List.of(), 1L)), r.rows());
  }

  @Test
  void emptyResults() {
    assertEquals(List.of(), run(T, T + HOUR, "1m", count(null)).rows());
    logs.append(ev(T, "Body", "all good"));
    assertEquals(List.of(), run(T, T + HOUR, "1m", count("error")).rows());
    assertEquals(List.of(), run(T + 1, T + HOUR, "1m", count(null)).rows());
  }

  @Test
  void ratioWithZeroAndMissingDenominators() {
    logs.appendBatch(
        List.of(
            ev(T, "level", "error"),
            ev(T, "level", "info"),
            ev(T, "level", "info"), // 1/2
            ev(T + MIN, "level", "error"), // denominator missing
            ev(T + 2 * MIN, "level", "info"), // numerator missing: 0/1
            ev(T + 3 * MIN, "level", "error", "n", 0L))); // sum(n) = 0: zero denominator
    ChartQuery q =
        new ChartQuery(
            T,
            T + 10 * MIN,
            Granularity.named("1m").orElseThrow(),
            List.of(count("level:error"), count("level:info")),
            SeriesReturnType.RATIO);
    assertEquals(
        List.of(
            row(T, List.of(), 0.5),
            row(T + MIN, List.of(), (Number) null),
            row(T + 2 * MIN, List.of(), 0.0),
            row(T + 3 * MIN, List.of(), (Number) null)),
        engine.query(q).rows());
    ChartQuery zero =
        new ChartQuery(
            T + 3 * MIN,
            T + 3 * MIN,
            Granularity.named("1m").orElseThrow(),
            List.of(count(null), Series.of(logs.id(), AggFn.SUM, "n", null)),
            SeriesReturnType.RATIO);
    assertEquals(List.of(row(T + 3 * MIN, List.of(), (Number) null)), engine.query(zero).rows());
  }

  @Test
  void groupByWithMissingValuesUsesEmptyString() {
    logs.appendBatch(
        List.of(
            ev(T, "svc", "api", "host", "h1"),
            ev(T, "svc", "api"),
            ev(T, "host", "h2"),
            ev(T, "svc", "web", "host", "h1")));
    Series s = new Series(logs.id(), AggFn.COUNT, null, null, null, null, List.of("svc", "host"));
    assertEquals(
        List.of(
            row(T, List.of("", "h2"), 1L),
            row(T, List.of("api", ""), 1L),
            row(T, List.of("api", "h1"), 1L),
            row(T, List.of("web", "h1"), 1L)),
        run(T, T, "1m", s).rows());
    Series one = new Series(logs.id(), AggFn.COUNT, null, null, null, null, List.of("svc"));
    assertEquals(
        List.of(row(T, List.of(""), 1L), row(T, List.of("api"), 2L), row(T, List.of("web"), 1L)),
        run(T, T, "1m", one).rows());
  }

  @Test
  void seriesWithoutMatchesHaveNoValueInARow() {
    logs.appendBatch(List.of(ev(T, "level", "error", "d", 2.0), ev(T + MIN, "level", "info")));
    ChartResult r =
        run(T, T + MIN, "1m", count("level:error"), Series.of(logs.id(), AggFn.AVG, "d", null));
    assertEquals(
        List.of(row(T, List.of(), 1L, 2.0), row(T + MIN, List.of(), null, null)).get(0),
        r.rows().get(0));
    assertEquals(1, r.rows().size(), "the second bucket has neither an error nor a number");
  }

  @Test
  void unknownFieldsAreAbsentEverywhere() {
    logs.appendBatch(List.of(ev(T, "a", 1L), ev(T, "a", 2L)));
    assertEquals(List.of(), run(T, T, "1m", count("nope:x")).rows());
    assertEquals(2L, total(run(T, T, "1m", count("-nope:x"))));
    Series isNull =
        new Series(logs.id(), AggFn.COUNT, null, null, "nope IS NULL", WhereLanguage.SQL, null);
    assertEquals(2L, total(run(T, T, "1m", isNull)));
    assertEquals(List.of(), run(T, T, "1m", Series.of(logs.id(), AggFn.SUM, "nope", null)).rows());
  }

  @Test
  void aggregatesFollowTheValueRules() {
    logs.appendBatch(
        List.of(
            ev(T, "v", "10"), // numeric string counts
            ev(T + 1, "v", "abc"), // skipped
            ev(T + 2, "v", "30"),
            ev(T + 3, "v", "20"),
            ev(T + 3, "v", "40"))); // same time as "20", appended later: the last value
    Map<AggFn, Number> expected = new LinkedHashMap<>();
    expected.put(AggFn.COUNT, 5L);
    expected.put(AggFn.COUNT_DISTINCT, 5L);
    expected.put(AggFn.SUM, 100.0);
    expected.put(AggFn.AVG, 25.0);
    expected.put(AggFn.MIN, 10.0);
    expected.put(AggFn.MAX, 40.0);
    expected.put(AggFn.P50, 25.0);
    expected.put(AggFn.P90, 37.0);
    expected.put(AggFn.LAST_VALUE, 40.0);
    expected.put(AggFn.ANY, 10.0);
    expected.put(AggFn.COUNT_PER_SEC, 5 / 60.0);
    expected.put(AggFn.COUNT_PER_MIN, 5.0);
    expected.put(AggFn.COUNT_PER_HOUR, 300.0);
    for (Map.Entry<AggFn, Number> e : expected.entrySet()) {
      Series s = Series.of(logs.id(), e.getKey(), e.getKey().isCount() ? null : "v", null);
      assertEquals(
          List.of(row(T, List.of(), e.getValue())),
          run(T, T + 10, "1m", s).rows(),
          e.getKey().name());
    }
    Series q = new Series(logs.id(), AggFn.QUANTILE, "v", 0.25, null, null, null);
    assertEquals(17.5, run(T, T + 10, "1m", q).rows().get(0).values().get(0));
  }

  @Test
  void rowAndGroupLimits() {
    List<Event> many = new ArrayList<>();
    for (int i = 0; i < 10_001; i++) {
      many.add(ev(T, "id", "v" + i));
    }
    logs.appendBatch(many);
    Series grouped = new Series(logs.id(), AggFn.COUNT, null, null, null, null, List.of("id"));
    InvalidQueryException groups =
        assertThrows(InvalidQueryException.class, () -> run(T, T, "1m", grouped));
    assertTrue(groups.getMessage().contains("more than 10,000 groups"), groups.getMessage());

    Source wide = engine.createSource(SourceSpec.logs("wide"));
    List<Event> spread = new ArrayList<>();
    for (int i = 0; i <= 100_000; i++) {
      spread.add(ev(T + i * 30_000L));
    }
    wide.appendBatch(spread);
    Series perBucket = Series.of(wide.id(), AggFn.COUNT, null, null);
    InvalidQueryException rows =
        assertThrows(
            InvalidQueryException.class, () -> run(T, T + 100_000 * 30_000L, "30s", perBucket));
    assertTrue(rows.getMessage().contains("more than 100,000 rows"), rows.getMessage());
    assertEquals(100_000, run(T, T + 99_999 * 30_000L, "30s", perBucket).rows().size());
  }

  @Test
  void invalidQueriesNameTheFieldPath() {
    Series ok = count(null);
    List<String> problems =
        assertThrows(
                InvalidQueryException.class,
                () ->
                    engine.query(
                        new ChartQuery(
                            1_000,
                            999,
                            null,
                            List.of(
                                ok,
                                new Series(
                                    logs.id(), AggFn.AVG, null, 1.5, null, null, List.of("x"))),
                            SeriesReturnType.COLUMN)))
            .problems();
    assertEquals(
        List.of(
            "startTime: must be epoch milliseconds (a positive integer of at least 13 digits)",
            "endTime: must be epoch milliseconds (a positive integer of at least 13 digits)",
            "endTime: must not be before startTime",
            "series[1].field: is required for aggFn avg",
            "series[1].level: must be between 0 and 1",
            "series[1].groupBy: every series must have the same groupBy as series[0] []"),
        problems);
    assertEquals(
        "series: must hold 1 to 5 series, got 0",
        assertThrows(InvalidQueryException.class, () -> run(T, T, "1m")).getMessage());
    assertEquals(
        "series: must hold 1 to 5 series, got 6",
        assertThrows(InvalidQueryException.class, () -> run(T, T, "1m", ok, ok, ok, ok, ok, ok))
            .getMessage());
    assertEquals(
        "seriesReturnType: ratio needs exactly 2 series, got 1",
        assertThrows(
                InvalidQueryException.class,
                () -> engine.query(new ChartQuery(T, T, null, List.of(ok), SeriesReturnType.RATIO)))
            .getMessage());
    List<String> eleven = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      eleven.add("f" + i);
    }
    assertEquals(
        "series[0].groupBy: at most 10 fields",
        assertThrows(
                InvalidQueryException.class,
                () ->
                    run(
                        T,
                        T,
                        "1m",
                        new Series(logs.id(), AggFn.COUNT, null, null, null, null, eleven)))
            .getMessage());
    assertEquals(
        "series[0].sourceId: is required; series[0].aggFn: is required",
        assertThrows(
                InvalidQueryException.class,
                () -> run(T, T, "1m", new Series(null, null, null, null, null, null, null)))
            .getMessage());
  }

  @Test
  void whereSyntaxErrorsAndBareTermsWithoutImplicitColumn() {
    assertEquals(
        "series[0].where: line 1, column 6: unexpected end of input",
        assertThrows(InvalidQueryException.class, () -> run(T, T, "1m", count("a AND")))
            .getMessage());
    Source noText =
        engine.createSource(
            new SourceSpec(null, "metrics", SourceKind.METRIC, "ts", null, null, List.of()));
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class,
            () -> run(T, T, "1m", Series.of(noText.id(), AggFn.COUNT, null, "timeout")));
    assertEquals(
        "series[0].where: the bare term 'timeout' searches the implicit column, and this source has"
            + " none; name a field (field:value)",
        e.getMessage());
  }

  @Test
  void unknownSourceIsItsOwnError() {
    UnknownSourceException e =
        assertThrows(
            UnknownSourceException.class,
            () -> run(T, T, "1m", count(null), Series.of("nope", AggFn.COUNT, null, null)));
    assertEquals("series[1].sourceId: source nope not found", e.getMessage());
  }

  @Test
  void seriesMayReadDifferentSources() {
    Source other = engine.createSource(SourceSpec.logs("other"));
    logs.append(ev(T, "Body", "timeout"));
    other.appendBatch(List.of(ev(T, "Body", "timeout"), ev(T, "Body", "timeout again")));
    assertEquals(
        List.of(row(T, List.of(), 1L, 2L)),
        run(T, T, "1m", count("timeout"), Series.of(other.id(), AggFn.COUNT, null, "timeout"))
            .rows());
  }

  /**
   * A missing value and an empty string both group as {@code ""}: one row, whose count and quantile
   * cover both, in a segment of its own and spread over several (segments of four rows).
   */
  @Test
  void aMissingValueAndAnEmptyStringAreOneGroup() {
    for (Engine e : List.of(engine, Engine.builder().segmentRows(64).workerThreads(2).build())) {
      Source s = e.createSource(SourceSpec.logs("blank"));
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        events.add(
            i % 3 == 0
                ? ev(T + i * 1000L, "n", (double) i)
                : ev(T + i * 1000L, "n", (double) i, "host", i % 3 == 1 ? "" : "h"));
      }
      s.appendBatch(events);
      s.seal();
      List<String> by = List.of("host");
      ChartResult r =
          e.query(
              new ChartQuery(
                  T,
                  T + HOUR,
                  Granularity.named("1h").orElseThrow(),
                  List.of(
                      new Series(s.id(), AggFn.COUNT, null, null, null, null, by),
                      new Series(s.id(), AggFn.QUANTILE, "n", 0.5, null, null, by)),
                  null));
      // "" and missing: 0, 1, 3, 4, 6, 7, 9, 10 (median 5); "h": 2, 5, 8, 11 (median 6.5)
      assertEquals(
          List.of(row(T, List.of(""), 8L, 5.0), row(T, List.of("h"), 4L, 6.5)), r.rows(), "" + e);
      if (e != engine) {
        e.close();
      }
    }
  }
}
