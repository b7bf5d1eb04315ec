package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metric series over HTTP: the worked examples of docs/chart-api.md (gauge, counter with a reset
 * and a delta series, cumulative histogram), each value worked out by hand there, and the rules of
 * metric series and of metric ingestion.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricChartsIntegrationTest {
  private static final long T = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  private static final String URL = "/api/v2/charts/series";

  V2Fixture f;
  String metrics;
  String logs;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    metrics =
        f.ok(
                "POST",
                "/api/v2/sources",
                "{\"name\":\"Metrics\",\"kind\":\"metric\",\"connection\":\"default\","
                    + "\"from\":{\"databaseName\":\"default\"},"
                    + "\"metricTables\":{\"gauge\":\"otel_metrics_gauge\",\"sum\":\"otel_metrics_sum\","
                    + "\"histogram\":\"otel_metrics_histogram\"},"
                    + "\"timestampValueExpression\":\"TimeUnix\","
                    + "\"resourceAttributesExpression\":\"ResourceAttributes\"}")
            .get("data")
            .get("id")
            .textValue();
    logs =
        f.ok(
                "POST",
                "/api/v2/sources",
                "{\"name\":\"logs\",\"kind\":\"log\",\"connection\":\"default\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"logs\"},\"timestampValueExpression\":\"Timestamp\",\"defaultTableSelectExpression\":\"Timestamp\"}")
            .get("data")
            .get("id")
            .textValue();
    f.ingest(
        events("gauge"),
        lines(
            gauge("a", "00:00:10", 50),
            gauge("a", "00:00:40", 70),
            gauge("b", "00:00:20", 20),
            gauge("a", "00:01:10", 90)));
    f.ingest(
        events("sum"),
        lines(
            sum("a", "-00:00:10", 100, 2),
            sum("a", "00:00:10", 120, 2),
            sum("a", "00:00:40", 150, 2),
            sum("a", "00:01:10", 10, 2),
            sum("a", "00:01:40", 30, 2),
            sum("b", "00:00:30", 5, 1),
            sum("b", "00:01:30", 7, 1)));
    f.ingest(
        events("histogram"),
        lines(
            histogram("-00:00:10", "[2,1,0,0]", 3),
            histogram("00:00:30", "[10,6,3,1]", 20),
            histogram("00:01:30", "[12,10,5,1]", 28)));
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private String events(String type) {
    return "/api/v2/sources/" + metrics + "/events?metricDataType=" + type;
  }

  private static String lines(String... l) {
    return String.join("\n", l);
  }

  /** Seconds after T written as [-]mm:ss:ss (hours:minutes:seconds). */
  private static long at(String hms) {
    boolean before = hms.startsWith("-");
    String[] p = hms.replace("-", "").split(":");
    long s = Long.parseLong(p[0]) * 3600 + Long.parseLong(p[1]) * 60 + Long.parseLong(p[2]);
    return T + (before ? -s : s) * 1000;
  }

  private static String gauge(String host, String time, int v) {
    return "{\"MetricName\":\"cpu.usage\",\"TimeUnix\":"
        + at(time)
        + ",\"ServiceName\":\"api\",\"Attributes\":{\"host\":\""
        + host
        + "\"},\"Value\":"
        + v
        + ".0}";
  }

  private static String sum(String host, String time, long v, int temporality) {
    return "{\"MetricName\":\"http.requests\",\"TimeUnix\":"
        + at(time)
        + ",\"ServiceName\":\"api\",\"Attributes\":{\"host\":\""
        + host
        + "\"},\"Value\":"
        + v
        + ",\"AggregationTemporality\":"
        + temporality
        + ",\"IsMonotonic\":true}";
  }

  private static String histogram(String time, String counts, long count) {
    return "{\"MetricName\":\"http.duration\",\"TimeUnix\":"
        + at(time)
        + ",\"ServiceName\":\"api\",\"Attributes\":{\"host\":\"a\"},\"BucketCounts\":"
        + counts
        + ",\"ExplicitBounds\":[100,500,1000],\"Count\":"
        + count
        + ",\"AggregationTemporality\":2}";
  }

  private String query(String series) {
    return "{\"startTime\":"
        + T
        + ",\"endTime\":"
        + (T + 119_999)
        + ",\"granularity\":\"1m\",\"series\":["
        + series
        + "]}";
  }

  private String series(String aggFn, String name, String type, String more) {
    return "{\"sourceId\":\""
        + metrics
        + "\",\"aggFn\":\""
        + aggFn
        + "\",\"metricName\":\""
        + name
        + "\",\"metricDataType\":\""
        + type
        + "\""
        + more
        + "}";
  }

  /** "minute: value" per row, the minute counted from T. */
  private List<String> rows(String series) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode r : f.ok("POST", URL, query(series)).get("data")) {
      String group = r.get("group").size() == 0 ? "" : " " + r.get("group").get(0).asText();
      out.add((r.get("ts_bucket").asLong() - T) / 60_000 + group + ": " + r.get("series_0.data"));
    }
    return out;
  }

  @Test
  void gaugeAveragesTheLastValueOfEachTimeSeries() throws Exception {
    // minute 0: a's last 70 and b's 20 -> 45; minute 1: a's 90
    assertEquals(List.of("0: 45.0", "1: 90.0"), rows(series("avg", "cpu.usage", "gauge", "")));
    assertEquals(
        List.of("0 a: 70.0", "0 b: 20.0", "1 a: 90.0"),
        rows(series("max", "cpu.usage", "gauge", ",\"groupBy\":[\"Attributes.host\"]")));
  }

  @Test
  void counterSumsTheIncreasePerBucketThroughAReset() throws Exception {
    // a: (120-100) + (150-120) = 50, then a reset (10 < 150 counts 0) and 30-10 = 20
    // b (delta): 5, then 7
    assertEquals(List.of("0: 55.0", "1: 27.0"), rows(series("sum", "http.requests", "sum", "")));
    assertEquals(
        List.of("0: 55.0", "1: 27.0"), rows(series("increase", "http.requests", "sum", "")));
    assertEquals(
        List.of("0 a: 50.0", "0 b: 5.0", "1 a: 20.0", "1 b: 7.0"),
        rows(series("sum", "http.requests", "sum", ",\"groupBy\":[\"Attributes.host\"]")));
  }

  @Test
  void histogramQuantilesInterpolateInTheBucketOfTheRank() throws Exception {
    // minute 0: deltas [8,5,3,1] (17): p50 rank 8.5 -> 100 + 400 * 0.5 / 5 = 140
    // minute 1: deltas [2,4,2,0] (8):  p50 rank 4   -> 100 + 400 * 2 / 4 = 300
    assertEquals(
        List.of("0: 140.0", "1: 300.0"),
        rows(series("quantile", "http.duration", "histogram", ",\"level\":0.5")));
    // p90 minute 0: rank 15.3 -> 500 + 500 * (15.3 - 13) / 3
    JsonNode p90 =
        f.ok("POST", URL, query(series("p90", "http.duration", "histogram", ""))).get("data");
    assertEquals(500 + 500 * (15.3 - 13) / 3, p90.get(0).get("series_0.data").asDouble(), 1e-9);
    // count: Count 3 -> 20 -> 28
    assertEquals(List.of("0: 17", "1: 8"), rows(series("count", "http.duration", "histogram", "")));
  }

  @Test
  void metricSeriesRulesAreNamedByPath() throws Exception {
    String e =
        f.fails(
            400,
            "POST",
            URL,
            query(
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"aggFn\":\"avg\",\"metricName\":\"cpu.usage\"}"));
    assertTrue(e.contains("series[0].metricDataType: is required for metric source"), e);
    e =
        f.fails(
            400,
            "POST",
            URL,
            query(
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"aggFn\":\"avg\",\"metricDataType\":\"gauge\"}"));
    assertTrue(e.contains("series[0].metricName: is required for metric source"), e);
    e = f.fails(400, "POST", URL, query(series("increase", "cpu.usage", "gauge", "")));
    assertTrue(
        e.contains("series[0].aggFn: increase is only for sum (counter) metrics, not gauge"), e);
    e = f.fails(400, "POST", URL, query(series("avg", "http.duration", "histogram", "")));
    assertTrue(e.contains("series[0].aggFn: avg is not defined for histogram metrics"), e);
    e = f.fails(400, "POST", URL, query(series("none", "cpu.usage", "gauge", "")));
    assertTrue(e.contains("series[0].aggFn: none (a field that is itself an aggregate SQL"), e);
    e = f.fails(400, "POST", URL, query(series("avg", "cpu.usage", "summary", "")));
    assertTrue(e.contains("series[0].metricDataType: summary metrics are not supported"), e);
    e =
        f.fails(
            400,
            "POST",
            URL,
            query(series("avg", "cpu.usage", "gauge", ",\"whereLanguage\":\"promql\"")));
    assertTrue(e.contains("series[0].whereLanguage: promql is not supported"), e);
    e =
        f.fails(
            400,
            "POST",
            URL,
            query(series("avg", "cpu.usage", "gauge", ",\"dataSource\":\"events\"")));
    assertTrue(e.contains("series[0].dataSource: source " + metrics + " is a metric source"), e);
    e =
        f.fails(
            400,
            "POST",
            URL,
            query(
                "{\"sourceId\":\""
                    + logs
                    + "\",\"aggFn\":\"count\",\"metricName\":\"x\",\"dataSource\":\"metrics\"}"));
    assertTrue(e.contains("series[0].dataSource: source " + logs + " is a log source"), e);
    assertTrue(e.contains("series[0].metricName: only for metric sources"), e);
    // sortOrder and alias are accepted (rows are ordered by bucket and group, named by position)
    assertEquals(
        List.of("0: 45.0", "1: 90.0"),
        rows(series("avg", "cpu.usage", "gauge", ",\"sortOrder\":\"asc\",\"alias\":\"cpu\"")));
  }

  @Test
  void metricIngestionNamesTheTableByItsType() throws Exception {
    String e =
        f.fails(400, "POST", "/api/v2/sources/" + metrics + "/events?metricDataType=summary", "{}");
    assertTrue(
        e.contains("metricDataType: metric source " + metrics + " names no 'summary' table"), e);
    e = f.fails(400, "POST", "/api/v2/sources/" + logs + "/events?metricDataType=gauge", "{}");
    assertTrue(e.contains("metricDataType: only for metric sources"), e);
    // Search reads events: a metric source is named as such, not answered with no rows.
    e = f.fails(400, "POST", "/api/v2/search", "{\"sourceId\":\"" + metrics + "\",\"where\":\"\"}");
    assertTrue(e.contains(metrics + " is a metric source: search reads the events"), e);
    // Without a type the points would land where no metric series reads them: refused, saying how.
    String point = "{\"TimeUnix\":\"2026-01-01T00:00:00Z\",\"MetricName\":\"cpu\",\"Value\":1}\n";
    e = f.fails(400, "POST", "/api/v2/sources/" + metrics + "/events", point);
    assertTrue(
        e.contains(
            "metricDataType: source "
                + metrics
                + " is a metric source, whose points go to one table per type: add"
                + " ?metricDataType=gauge|sum|histogram"),
        e);
    // Each metric table is a table of the warehouse, created with the source.
    JsonNode tables = f.ok("GET", "/api/v2/tables", null).get("data");
    List<String> names = new ArrayList<>();
    tables.forEach(t -> names.add(t.get("tableName").asText() + " " + t.get("rows").asLong()));
    assertTrue(names.contains("otel_metrics_gauge 4"), names.toString());
    assertTrue(names.contains("otel_metrics_sum 7"), names.toString());
    assertTrue(names.contains("otel_metrics_histogram 3"), names.toString());
    // ... and read by the source: it cannot be deleted while the source names it.
    e = f.fails(409, "DELETE", "/api/v2/tables/default/otel_metrics_sum", null);
    assertTrue(e.contains("is read by source " + metrics), e);
  }
}
