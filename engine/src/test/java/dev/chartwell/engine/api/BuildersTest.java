package dev.chartwell.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.WhereLanguage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builders make the same values as the records' constructors, and those values run. */
class BuildersTest {
  static final long T0 = 1_700_000_040_000L; // on a minute

  @Test
  void sourceSpecsByKind() {
    assertEquals(
        new SourceSpec("app", "app", SourceKind.LOG, "Timestamp", "Body", "Body", List.of()),
        SourceSpec.log("app").build());
    assertEquals(
        new SourceSpec(
            "app",
            "app logs",
            SourceKind.LOG,
            "ts",
            "Message",
            "Message",
            List.of(new ColumnSpec("status", ColumnType.LONG))),
        SourceSpec.log("app")
            .name("app logs")
            .timestampField("ts")
            .body("Message")
            .column("status", ColumnType.LONG)
            .build());
    assertEquals(
        new SourceSpec("s", "s", SourceKind.LOG, "Timestamp", "Body", "Text", List.of()),
        SourceSpec.log("s").implicitColumn("Text").body("Body").build(),
        "an implicit column given stays");
    assertEquals(
        new SourceSpec("t", "t", SourceKind.TRACE, "Timestamp", null, "SpanName", List.of()),
        SourceSpec.trace("t").build());
    assertEquals(
        new SourceSpec("m", "m", SourceKind.METRIC, "TimeUnix", null, null, List.of()),
        SourceSpec.metric("m").build());
    SourceSpec generated = SourceSpec.builder(SourceKind.SESSION).build();
    assertEquals(null, generated.id());
    assertEquals("session", generated.name());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SourceSpec.log("x").column("a", ColumnType.LONG).column("a", ColumnType.LONG).build());
  }

  @Test
  void seriesFactoriesAndWithers() {
    assertEquals(
        new Series(null, AggFn.COUNT, null, null, null, WhereLanguage.LUCENE, List.of()),
        Series.count());
    assertEquals(
        new Series("logs", AggFn.QUANTILE, "d", 0.95, "d > 5", WhereLanguage.SQL, List.of("svc")),
        Series.quantile(0.95, "d").where("d > 5", WhereLanguage.SQL).from("logs").groupBy("svc"));
    assertEquals(AggFn.COUNT_DISTINCT, Series.countDistinct("u").aggFn());
    assertEquals(AggFn.SUM, Series.sum("d").aggFn());
    assertEquals(AggFn.AVG, Series.avg("d").aggFn());
    assertEquals(AggFn.MIN, Series.min("d").aggFn());
    assertEquals(AggFn.MAX, Series.max("d").aggFn());
    assertEquals(AggFn.LAST_VALUE, Series.lastValue("d").aggFn());
    assertEquals("d", Series.count("d").field());
    assertEquals(AggFn.COUNT_PER_MIN, Series.of(AggFn.COUNT_PER_MIN).aggFn());
    assertEquals(AggFn.ANY, Series.of(AggFn.ANY, "d").aggFn());
    assertEquals(
        new MetricSpec("http.requests", MetricType.SUM),
        Series.sum("Value").metric("http.requests", MetricType.SUM).metric());
    assertThrows(IllegalArgumentException.class, () -> Series.quantile(1.5, "d"));
  }

  @Test
  void chartQueriesReadLikeTheChart() {
    ChartQuery built =
        ChartQuery.over(Instant.ofEpochMilli(T0), Instant.ofEpochMilli(T0 + 3_600_000))
            .source("logs")
            .every(Granularity.MINUTE)
            .series(Series.count().where("level:error"), Series.avg("d").from("other"))
            .groupBy("svc")
            .build();
    assertEquals(
        new ChartQuery(
            T0,
            T0 + 3_600_000,
            Granularity.named("1m").orElseThrow(),
            List.of(
                new Series(
                    "logs",
                    AggFn.COUNT,
                    null,
                    null,
                    "level:error",
                    WhereLanguage.LUCENE,
                    List.of("svc")),
                new Series(
                    "other", AggFn.AVG, "d", null, null, WhereLanguage.LUCENE, List.of("svc"))),
            SeriesReturnType.COLUMN),
        built);
    ChartQuery auto = ChartQuery.over(T0, T0 + 3_600_000).series(Series.count().from("a")).build();
    assertEquals(Granularity.AUTO, auto.granularity());
    assertEquals(Granularity.MINUTE, auto.effectiveGranularity());
    assertEquals(Granularity.AUTO, new ChartQuery(T0, T0, null, List.of(), null).granularity());
    assertEquals(
        SeriesReturnType.RATIO,
        ChartQuery.over(T0, T0)
            .series(Series.count(), Series.count())
            .ratio()
            .build()
            .returnType());
    assertEquals(
        List.of(
            "15s", "30s", "1m", "5m", "10m", "15m", "30m", "1h", "2h", "6h", "12h", "1d", "2d",
            "7d", "30d"),
        List.of(
                Granularity.FIFTEEN_SECONDS,
                Granularity.THIRTY_SECONDS,
                Granularity.MINUTE,
                Granularity.FIVE_MINUTES,
                Granularity.TEN_MINUTES,
                Granularity.FIFTEEN_MINUTES,
                Granularity.THIRTY_MINUTES,
                Granularity.HOUR,
                Granularity.TWO_HOURS,
                Granularity.SIX_HOURS,
                Granularity.TWELVE_HOURS,
                Granularity.DAY,
                Granularity.TWO_DAYS,
                Granularity.SEVEN_DAYS,
                Granularity.THIRTY_DAYS)
            .stream()
            .map(Granularity::name)
            .toList());
    assertTrue(Granularity.THIRTY_DAYS.builtIn());
  }

  @Test
  void builtQueriesAndSearchesRun() {
    try (Engine engine = Engine.builder().build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      for (int i = 0; i < 120; i++) {
        logs.append(
            new Event(
                T0 + i * 1000L,
                Map.of(
                    "Body", i % 3 == 0 ? "request failed" : "request ok",
                    "level", i % 3 == 0 ? "error" : "info",
                    "svc", i % 2 == 0 ? "api" : "web",
                    "d", (long) i)));
      }
      ChartResult r =
          engine.query(
              ChartQuery.over(T0, T0 + 119_999)
                  .source("logs")
                  .every(Granularity.MINUTE)
                  .series(Series.count().where("level:error"), Series.max("d"))
                  .groupBy("svc")
                  .build());
      assertEquals(Granularity.MINUTE, r.granularity());
      // 2 minutes x 2 services; errors are i % 3 == 0: 10 per service and minute
      assertEquals(4, r.rows().size());
      ChartResult.Row first = r.rows().get(0);
      assertEquals(List.of("api"), first.group());
      assertEquals(List.of(10L, 58.0), first.values());
      ChartResult sql =
          engine.query(
              ChartQuery.over(T0, T0 + 119_999)
                  .source("logs")
                  .every(Granularity.HOUR)
                  .series(Series.count().where("d >= 100", WhereLanguage.SQL))
                  .build());
      assertEquals(List.of(20L), sql.rows().get(0).values());

      SearchResult found =
          engine.search(SearchQuery.of("logs").where("failed").between(T0, T0 + 9_999).limit(2));
      assertEquals(2, found.rows().size());
      assertEquals(T0 + 9000, found.rows().get(0).get("Timestamp"));
      SearchResult oldest =
          engine.search(
              SearchQuery.of("logs")
                  .where("level = 'error'", WhereLanguage.SQL)
                  .order(SearchOrder.OLDEST_FIRST)
                  .columns("d")
                  .offset(1)
                  .limit(1));
      assertEquals(List.of(Map.of("d", 3L)), oldest.rows());
    }
  }
}
