package dev.chartwell.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.clickhouse.ClickHouseTable.Column;
import dev.chartwell.clickhouse.ClickHouseTable.Kind;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQL text generated for what ClickHouse 18.16 cannot run (Map columns, DateTime64, Bool),
 * checked as text; and the classification of column types as {@code DESCRIBE TABLE} writes them on
 * old and new servers. The SQL that 18.16 can run is checked against a real server by the other
 * tests of this module.
 */
class SqlTextTest {
  /** A ClickStack-style log table as a current server describes it. */
  static final ClickHouseTable OTEL =
      ClickHouseTable.fromDescribe(
          "otel",
          "otel_logs",
          String.join(
              "\n",
              "Timestamp\tDateTime64(9)\t\t\t\t\t",
              "ServiceName\tLowCardinality(String)\t\t\t\t\t",
              "SeverityText\tLowCardinality(String)\t\t\t\t\t",
              "Body\tString\t\t\t\t\t",
              "Sampled\tBool",
              "LogAttributes\tMap(LowCardinality(String), String)\t\t\t\t\t",
              "Counts\tMap(String, UInt64)"),
          "Timestamp",
          "Body");

  @Test
  void typesAreClassifiedAsTheEngineKindsTheirValues() {
    assertEquals(Kind.DATETIME64, OTEL.column("Timestamp").orElseThrow().kind());
    assertEquals(Kind.STRING, OTEL.column("ServiceName").orElseThrow().kind());
    assertEquals(Kind.BOOL, OTEL.column("Sampled").orElseThrow().kind());
    assertEquals(Kind.MAP, OTEL.column("LogAttributes").orElseThrow().kind());
    Column c = Column.of("x", "Nullable(Enum8(\\'false\\' = 0, \\'true\\' = 1))");
    assertEquals(Kind.BOOL, c.kind());
    assertTrue(c.nullable());
    assertEquals(Kind.BOOL, Column.of("x", "Enum8('false' = 0, 'true' = 1)").kind());
    assertEquals(Kind.STRING, Column.of("x", "Enum8('a' = 1, 'b' = 2)").kind());
    assertEquals(Kind.LONG, Column.of("x", "LowCardinality(Nullable(UInt16))").kind());
    assertEquals(Kind.DOUBLE, Column.of("x", "Decimal(18, 4)").kind());
    assertEquals(Kind.DATETIME, Column.of("x", "DateTime('UTC')").kind());
    assertTrue(OTEL.problems().isEmpty(), OTEL.problems().toString());
  }

  @Test
  void mapKeysAreFieldsWithPresenceByMapContains() {
    Field f = Field.resolve(OTEL, "LogAttributes.http.method").orElseThrow();
    assertEquals("`LogAttributes`['http.method']", f.value());
    assertEquals("mapContains(`LogAttributes`, 'http.method')", f.present());
    assertEquals(Kind.STRING, f.kind());
    Field n = Field.resolve(OTEL, "Counts.retries").orElseThrow();
    assertEquals(Kind.LONG, n.kind());
    assertTrue(Field.resolve(OTEL, "LogAttributes").isEmpty(), "a map itself is no field");
    assertTrue(Field.resolve(OTEL, "Nothing.at.all").isEmpty());
    // both languages name the key the same way
    Expr lucene = WhereParser.parse("LogAttributes.http.method:GET", WhereLanguage.LUCENE);
    Expr sql = WhereParser.parse("LogAttributes['http.method'] = 'GET'", WhereLanguage.SQL);
    assertEquals(
        "(mapContains(`LogAttributes`, 'http.method') AND"
            + " (position(lowerUTF8(`LogAttributes`['http.method']), 'get') > 0))",
        WhereSql.compile(lucene, OTEL, "where"));
    assertEquals(
        "(mapContains(`LogAttributes`, 'http.method') AND"
            + " (`LogAttributes`['http.method'] = 'GET'))",
        WhereSql.compile(sql, OTEL, "where"));
  }

  @Test
  void dateTime64IsBucketedOnItsMilliseconds() {
    assertEquals("toUnixTimestamp64Milli(`Timestamp`)", ChartSql.millis(OTEL));
    assertEquals(
        "toUnixTimestamp64Milli(`Timestamp`) BETWEEN 1700000000000 AND 1700000060000",
        ChartSql.timeRange(OTEL, 1_700_000_000_000L, 1_700_000_060_000L));
    ChartQuery q =
        new ChartQuery(
            1_700_000_000_000L,
            1_700_000_060_000L,
            Granularity.named("1m").orElseThrow(),
            List.of(
                new Series(
                    "A",
                    AggFn.COUNT,
                    null,
                    null,
                    "Sampled:true",
                    dev.chartwell.engine.WhereLanguage.LUCENE,
                    List.of("LogAttributes.http.method"))),
            SeriesReturnType.COLUMN);
    String sql =
        ChartSql.of(
                q,
                List.of(0),
                List.of(OTEL),
                List.of(
                    WhereSql.compile(
                        WhereParser.parse("Sampled:true", WhereLanguage.LUCENE), OTEL, "where")))
            .sql();
    assertTrue(
        sql.contains("toInt64(intDiv(toUnixTimestamp64Milli(`Timestamp`), 60000) * 60000) AS cw_b"),
        sql);
    assertTrue(
        sql.contains(
            "toString(if(mapContains(`LogAttributes`, 'http.method'),"
                + " `LogAttributes`['http.method'], '')) AS cw_g0"),
        sql);
    assertTrue(sql.contains("(toString(`Sampled`) = 'true')"), sql);
  }

  @Test
  void seriesWithTheSameWhereShareOneScanAndOthersGetTheirOwn() {
    List<Series> series =
        List.of(
            new Series(
                "A",
                AggFn.COUNT,
                null,
                null,
                "",
                dev.chartwell.engine.WhereLanguage.LUCENE,
                List.of()),
            new Series(
                "B",
                AggFn.COUNT,
                null,
                null,
                "error",
                dev.chartwell.engine.WhereLanguage.LUCENE,
                List.of()),
            new Series(
                "C",
                AggFn.MAX,
                "Counts",
                null,
                "",
                dev.chartwell.engine.WhereLanguage.LUCENE,
                List.of()),
            new Series(
                "D",
                AggFn.COUNT,
                null,
                null,
                "error",
                dev.chartwell.engine.WhereLanguage.LUCENE,
                List.of()));
    ChartQuery q =
        new ChartQuery(
            1_700_000_000_000L,
            1_700_000_060_000L,
            Granularity.named("1m").orElseThrow(),
            series,
            SeriesReturnType.COLUMN);
    List<String> wheres =
        series.stream()
            .map(
                s ->
                    WhereSql.compile(
                        s.where().isEmpty()
                            ? new Expr.MatchAll()
                            : WhereParser.parse(s.where(), WhereLanguage.LUCENE),
                        OTEL,
                        "where"))
            .toList();
    ChartSql.Statement st =
        ChartSql.of(q, List.of(0, 1, 2, 3), List.of(OTEL, OTEL, OTEL, OTEL), wheres);
    assertEquals(List.of(List.of(0, 2), List.of(1, 3)), st.branches());
    assertEquals(2, st.sql().split("UNION ALL").length, st.sql());
    assertTrue(st.sql().contains("HAVING cw_n0 > 0 OR cw_n1 > 0"), st.sql());
  }

  @Test
  void dateTimeRangesAreWholeSecondsOnTheColumn() {
    ClickHouseTable t =
        ClickHouseTable.fromDescribe("default", "t", "ts\tDateTime\nBody\tString", "ts", "Body");
    assertEquals("(toInt64(toUInt32(`ts`)) * 1000)", ChartSql.millis(t));
    // [.001, 2.999] holds the whole seconds 1 and 2
    assertEquals(
        "`ts` >= toDateTime(1) AND `ts` <= toDateTime(2)", ChartSql.timeRange(t, 1, 2_999));
  }

  @Test
  void literalsAndIdentifiersAreEscaped() {
    assertEquals("'a\\'b\\\\c\\0d\\ne'", Sql.string("a'b\\c\0d\ne"));
    assertEquals("'\\x1B'", Sql.string("\u001b"));
    assertEquals("`we\\`ird\\\\`", Sql.identifier("we`ird\\"));
    assertEquals("toFloat64('1.0E-4')", Sql.number(1e-4));
    assertEquals("'100\\\\%'", WhereSql.like("100\\%"));
    assertEquals("'a\\\\_b%'", WhereSql.like("a\\_b%"));
    assertEquals("'x\\\\\\\\'", WhereSql.like("x\\"));
  }

  @Test
  void aBareTermNeedsAnImplicitColumn() {
    ClickHouseTable t =
        ClickHouseTable.fromDescribe("default", "t", "ts\tDateTime\nBody\tString", "ts", null);
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class,
            () ->
                WhereSql.compile(
                    WhereParser.parse("error", WhereLanguage.LUCENE), t, "series[0].where"));
    assertTrue(e.getMessage().startsWith("series[0].where: the bare term 'error'"), e.getMessage());
  }
}
