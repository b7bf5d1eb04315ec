package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our versions of the 28 cases of HyperDX's own external-API chart tests ({@code
 * charts.int.test.ts}), with the same data (logs, metric "logs", gauge, sum and histogram points)
 * sent through our ingestion. Where we answer differently on purpose the test says so and checks
 * our answer: numbers, not strings; 400, not 500, for a where that does not parse; granularity
 * {@code 1s} is a HyperDX test-only value. The cases only read, so they share one server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HyperdxChartCasesIntegrationTest {
  private static final String URL = "/api/v2/charts/series";

  /** A minute boundary, as HyperDX's test floors "now" to the minute. */
  private static final long END = System.currentTimeMillis() / 60_000 * 60_000;

  private static final long START = END - 3_600_000;
  private static final long NOW = END - 10_000;

  V2Fixture f;
  String logs;
  String metrics;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    logs =
        f.ok(
                "POST",
                "/api/v2/sources",
                "{\"name\":\"Logs\",\"kind\":\"log\",\"connection\":\"default\","
                    + "\"from\":{\"databaseName\":\"default\",\"tableName\":\"otel_logs\"},"
                    + "\"timestampValueExpression\":\"Timestamp\","
                    + "\"defaultTableSelectExpression\":\"Timestamp, ServiceName, Body\"}")
            .get("data")
            .get("id")
            .textValue();
    metrics =
        f.ok(
                "POST",
                "/api/v2/sources",
                "{\"name\":\"Metrics\",\"kind\":\"metric\",\"connection\":\"default\","
                    + "\"from\":{\"databaseName\":\"default\",\"tableName\":\"\"},"
                    + "\"metricTables\":{\"gauge\":\"otel_metrics_gauge\",\"sum\":\"otel_metrics_sum\","
                    + "\"histogram\":\"otel_metrics_histogram\"},"
                    + "\"timestampValueExpression\":\"TimeUnix\","
                    + "\"resourceAttributesExpression\":\"ResourceAttributes\"}")
            .get("data")
            .get("id")
            .textValue();
    f.ingest(
        "/api/v2/sources/" + logs + "/events",
        String.join(
            "\n",
            log("test-service-2", NOW, "info", "Test log message 1", "{\"num_attr\":10}"),
            log("test-service", NOW + 1000, "info", "Test log message 2", "{\"num_attr\":20}"),
            log(
                "metric-test-service",
                NOW,
                "metric",
                "{\\\"MetricName\\\":\\\"test.metric.gauge\\\",\\\"Value\\\":15}",
                "{\"metric_log_marker\":true}"),
            log(
                "metric-test-service",
                NOW + 1000,
                "metric",
                "{\\\"MetricName\\\":\\\"test.metric.gauge\\\",\\\"Value\\\":25}",
                "{\"metric_log_marker\":true}")));
    String attrs =
        "\"ResourceAttributes\":{\"service.name\":\"metric-test-service\"},"
            + "\"ServiceName\":\"metric-test-service\"";
    f.ingest(
        "/api/v2/sources/" + metrics + "/events?metricDataType=gauge",
        point(
                "test.metric.gauge",
                NOW,
                attrs + ",\"Attributes\":{\"attr1\":\"value1\"},\"Value\":15.0")
            + "\n"
            + point(
                "test.metric.gauge",
                NOW + 1000,
                attrs + ",\"Attributes\":{\"attr1\":\"value1\"},\"Value\":25.0"));
    f.ingest(
        "/api/v2/sources/" + metrics + "/events?metricDataType=sum",
        point(
                "test.metric.sum",
                NOW,
                attrs + ",\"Value\":100.0,\"AggregationTemporality\":1,\"IsMonotonic\":true")
            + "\n"
            + point(
                "test.metric.sum",
                NOW + 1000,
                attrs + ",\"Value\":150.0,\"AggregationTemporality\":1,\"IsMonotonic\":true"));
    f.ingest(
        "/api/v2/sources/" + metrics + "/events?metricDataType=histogram",
        point(
                "test.metric.histogram",
                NOW,
                attrs
                    + ",\"BucketCounts\":[5,10,3,0],\"ExplicitBounds\":[10,50,100],\"AggregationTemporality\":1")
            + "\n"
            + point(
                "test.metric.histogram",
                NOW + 1000,
                attrs
                    + ",\"BucketCounts\":[3,12,5,2],\"ExplicitBounds\":[10,50,100],\"AggregationTemporality\":1"));
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private static String log(String svc, long ts, String sev, String body, String attributes) {
    return "{\"ServiceName\":\""
        + svc
        + "\",\"Timestamp\":"
        + ts
        + ",\"SeverityText\":\""
        + sev
        + "\",\"Body\":\""
        + body
        + "\",\"Attributes\":"
        + attributes
        + "}";
  }

  private static String point(String name, long ts, String rest) {
    return "{\"MetricName\":\"" + name + "\",\"TimeUnix\":" + ts + "," + rest + "}";
  }

  /**
   * HyperDX's createSeriesRequestPayload: series without a source get {@code source}, and metric
   * series their defaults; series that name their source are sent as they are, as HyperDX's cases
   * that bypass the helper do.
   */
  private String payload(String source, String extra, String... series) {
    List<String> list = new ArrayList<>();
    for (String s : series) {
      if (s.contains("\"sourceId\"")) {
        list.add(s);
        continue;
      }
      String withSource = s.replaceFirst("\\{", "{\"sourceId\":\"" + source + "\",");
      if (withSource.contains("\"dataSource\":\"metrics\"")) {
        for (String[] d :
            new String[][] {
              {"metricDataType", "gauge"}, {"field", "Value"}, {"metricName", "test.metric.gauge"}
            }) {
          if (!withSource.contains("\"" + d[0] + "\"")) {
            withSource = withSource.replaceFirst("\\{", "{\"" + d[0] + "\":\"" + d[1] + "\",");
          }
        }
      }
      list.add(withSource);
    }
    return "{\"startTime\":"
        + START
        + ",\"endTime\":"
        + END
        + extra
        + ",\"series\":["
        + String.join(",", list)
        + "]}";
  }

  private String defaults(String source) {
    return payload(
        source,
        "",
        "{\"dataSource\":\"events\",\"aggFn\":\"count\",\"where\":\"\",\"groupBy\":[]}");
  }

  private JsonNode data(String body) throws Exception {
    return f.ok("POST", URL, body).get("data");
  }

  private static double value(JsonNode row, int series) {
    JsonNode v = row.get("series_" + series + ".data");
    // A documented difference: numbers, not ClickHouse's strings.
    assertTrue(v.isNumber(), row.toString());
    return v.doubleValue();
  }

  // ---------------------------------------------------------------- authentication and validation

  @Test
  void shouldReturn401WhenUserIsNotAuthenticated() throws Exception {
    HttpResponse<String> r =
        f.http.send("POST", URL, defaults(logs), "Content-Type", "application/json");
    assertEquals(401, r.statusCode());
  }

  @Test
  void shouldReturn404IfSourceIdIsInvalidOrNotFound() throws Exception {
    f.fails(404, "POST", URL, defaults("65f5e4a3b9e77c001a123456"));
  }

  @Test
  void shouldReturn400IfSeriesArrayIsMissingOrEmpty() throws Exception {
    f.fails(
        400, "POST", URL, "{\"startTime\":" + START + ",\"endTime\":" + END + ",\"series\":[]}");
    f.fails(400, "POST", URL, "{\"startTime\":" + START + ",\"endTime\":" + END + "}");
  }

  @Test
  void shouldReturn400IfInvalidTimeRangeIsProvided() throws Exception {
    String e =
        f.fails(
            400,
            "POST",
            URL,
            "{\"startTime\":142415152,\"endTime\":5215152,\"series\":[{\"sourceId\":\""
                + logs
                + "\",\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[\"ServiceName\"]}]}");
    assertTrue(e.contains("startTime: must be epoch milliseconds"), e);
  }

  @Test
  void shouldReturn400IfSeriesArrayExceedsMaxLength() throws Exception {
    String s = "{\"aggFn\":\"count\",\"where\":\"\",\"groupBy\":[]}";
    f.fails(400, "POST", URL, payload(logs, "", s, s, s, s, s, s));
  }

  @Test
  void shouldReturn400IfGroupByFieldsAreInconsistentAcrossSeries() throws Exception {
    f.fails(
        400,
        "POST",
        URL,
        payload(
            logs,
            "",
            "{\"aggFn\":\"count\",\"where\":\"\",\"groupBy\":[\"field1\"]}",
            "{\"aggFn\":\"count\",\"where\":\"\",\"groupBy\":[\"field2\"]}"));
  }

  @Test
  void shouldReturn400ForInvalidAggFn() throws Exception {
    f.fails(
        400,
        "POST",
        URL,
        payload(logs, "", "{\"aggFn\":\"invalid_function\",\"where\":\"\",\"groupBy\":[]}"));
  }

  // ---------------------------------------------------------------- logs

  @Test
  void shouldReturnTotalCountWhenWhereClauseIsEmpty() throws Exception {
    JsonNode d = data(defaults(logs));
    assertEquals(1, d.size(), d.toString());
    assertEquals(4, value(d.get(0), 0));
  }

  @Test
  void shouldHandleLuceneWhereClause() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info AND ServiceName:\\\"test-service-2\\\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(1, value(d.get(0), 0));
  }

  @Test
  void shouldHandleSqlWhereClause() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText = 'info' AND Body LIKE '%message 2%'\",\"whereLanguage\":\"sql\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(1, value(d.get(0), 0));
  }

  @Test
  void shouldHandleLuceneQueryErrorsGracefully() throws Exception {
    // HyperDX answers 500 {error}; we answer 400 naming the problem (a documented difference).
    String e =
        f.fails(
            400,
            "POST",
            URL,
            payload(logs, "", "{\"aggFn\":\"count\",\"where\":\"(invalid query\",\"groupBy\":[]}"));
    assertTrue(e.startsWith("BAD_REQUEST: series[0].where: "), e);
  }

  @Test
  void shouldHandleSqlQueryErrorsGracefully() throws Exception {
    String e =
        f.fails(
            400,
            "POST",
            URL,
            payload(
                logs,
                "",
                "{\"aggFn\":\"count\",\"where\":\"invalid query\",\"whereLanguage\":\"sql\",\"groupBy\":[]}"));
    assertTrue(e.startsWith("BAD_REQUEST: series[0].where: "), e);
  }

  @Test
  void shouldReturnDataGroupedByASingleField() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[\"ServiceName\"]}"));
    assertEquals(2, d.size(), d.toString());
    assertEquals("[\"test-service\"]", d.get(0).get("group").toString());
    assertEquals("[\"test-service-2\"]", d.get(1).get("group").toString());
    assertEquals(1, value(d.get(0), 0));
    assertEquals(1, value(d.get(1), 0));
  }

  @Test
  void shouldReturnDataGroupedByMultipleFields() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[\"ServiceName\",\"SeverityText\"]}"));
    assertEquals(2, d.size(), d.toString());
    assertEquals("[\"test-service\",\"info\"]", d.get(0).get("group").toString());
    assertEquals("[\"test-service-2\",\"info\"]", d.get(1).get("group").toString());
  }

  @Test
  void shouldReturnDataFromMultipleSeriesJoined() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"dataSource\":\"events\",\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[\"ServiceName\"]}",
                "{\"dataSource\":\"events\",\"aggFn\":\"count\",\"where\":\"ServiceName:\\\"test-service\\\" AND SeverityText:info\",\"groupBy\":[\"ServiceName\"]}"));
    assertEquals(2, d.size(), d.toString());
    assertEquals(1, value(d.get(0), 0));
    assertEquals(1, value(d.get(0), 1));
    assertEquals(1, value(d.get(1), 0));
    assertFalse(d.get(1).has("series_1.data"), d.toString());
    assertTrue(d.get(0).get("ts_bucket").isIntegralNumber());
  }

  @Test
  void shouldApplyGranularity() throws Exception {
    // HyperDX's case asks for 1s, a value its server accepts only under test; we refuse it.
    String e =
        f.fails(
            400,
            "POST",
            URL,
            payload(
                logs,
                ",\"granularity\":\"1s\"",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[\"ServiceName\"]}"));
    assertTrue(e.contains("granularity: must be one of 30s, 1m"), e);
    // The two logs (1 s apart) in 30-second buckets: one bucket each, one event each.
    JsonNode d =
        data(
            payload(
                logs,
                ",\"granularity\":\"30s\"",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[\"ServiceName\"]}"));
    assertEquals(2, d.size(), d.toString());
    for (JsonNode row : d) {
      assertEquals(1, value(row, 0));
      assertEquals(0, row.get("ts_bucket").asLong() % 30_000);
    }
  }

  @Test
  void shouldReturnDataInColumnFormat() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                ",\"seriesReturnType\":\"column\"",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[]}"));
    assertEquals(1, d.size(), d.toString());
    assertTrue(d.get(0).get("__hdx_time_bucket").isTextual(), d.toString());
    assertEquals(2, d.get(0).get("series_0").asInt());
    assertTrue(d.get(0).get("series_0").isNumber());
  }

  @Test
  void shouldReturnDataInRatioFormat() throws Exception {
    // HyperDX's case sends no seriesReturnType: two series whose totals are 2 and 1.
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[]}",
                "{\"aggFn\":\"count\",\"where\":\"ServiceName:\\\"test-service\\\" AND SeverityText:info\",\"groupBy\":[]}"));
    double s0 = 0;
    double s1 = 0;
    for (JsonNode row : d) {
      s0 += row.path("series_0.data").asDouble();
      s1 += row.path("series_1.data").asDouble();
    }
    assertEquals(2, s0);
    assertEquals(1, s1);
    // And the ratio itself: 1 / 2.
    JsonNode ratio =
        data(
            payload(
                logs,
                ",\"seriesReturnType\":\"ratio\"",
                "{\"aggFn\":\"count\",\"where\":\"ServiceName:\\\"test-service\\\" AND SeverityText:info\",\"groupBy\":[]}",
                "{\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[]}"));
    assertEquals(0.5, value(ratio.get(0), 0));
  }

  @Test
  void shouldReturnCountForMetricSeriesStoredAsLogs() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"dataSource\":\"events\",\"aggFn\":\"count\",\"where\":\"ServiceName:\\\"metric-test-service\\\" AND SeverityText:metric\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(2, value(d.get(0), 0));
  }

  // ---------------------------------------------------------------- metrics

  @Test
  void shouldReturnDataForASingleMetricSeriesUsingMetricSource() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"dataSource\":\"metrics\",\"aggFn\":\"avg\",\"metricName\":\"test.metric.gauge\",\"metricDataType\":\"gauge\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size(), d.toString());
    assertTrue(d.get(0).has("ts_bucket"));
    // One time series, 15 then 25 in the bucket: its last value.
    assertEquals(25, value(d.get(0), 0));
  }

  @Test
  void shouldReturnDataForASingleSumMetricSeriesUsingMetricSource() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"dataSource\":\"metrics\",\"aggFn\":\"sum\",\"metricName\":\"test.metric.sum\",\"metricDataType\":\"sum\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size(), d.toString());
    // Delta points: each value is its increase, 100 + 150.
    assertEquals(250, value(d.get(0), 0));
  }

  @Test
  void shouldReturnDataForASingleHistogramMetricSeriesUsingMetricSource() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"dataSource\":\"metrics\",\"aggFn\":\"quantile\",\"level\":0.95,\"metricName\":\"test.metric.histogram\",\"metricDataType\":\"histogram\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size(), d.toString());
    // [8,22,8,2] over bounds [10,50,100]: rank 38 lies past the last bound.
    assertEquals(100, value(d.get(0), 0));
  }

  @Test
  void shouldReturnDataForMultipleSeriesWithDifferentMetricTypes() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"dataSource\":\"metrics\",\"aggFn\":\"avg\",\"metricName\":\"test.metric.gauge\",\"metricDataType\":\"gauge\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}",
                "{\"dataSource\":\"metrics\",\"aggFn\":\"sum\",\"metricName\":\"test.metric.sum\",\"metricDataType\":\"sum\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}",
                "{\"dataSource\":\"metrics\",\"aggFn\":\"quantile\",\"level\":0.95,\"metricName\":\"test.metric.histogram\",\"metricDataType\":\"histogram\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size(), d.toString());
    assertEquals(25, value(d.get(0), 0));
    assertEquals(250, value(d.get(0), 1));
    assertEquals(100, value(d.get(0), 2));
  }

  @Test
  void shouldUseFieldAsMetricNameWhenMetricNameIsNotProvided() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"dataSource\":\"metrics\",\"aggFn\":\"avg\",\"metricDataType\":\"gauge\",\"field\":\"test.metric.gauge\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(25, value(d.get(0), 0));
  }

  @Test
  void shouldUseFieldAsMetricNameForSumMetricsWhenMetricNameIsNotProvided() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"dataSource\":\"metrics\",\"aggFn\":\"sum\",\"metricDataType\":\"sum\",\"field\":\"test.metric.sum\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(250, value(d.get(0), 0));
  }

  @Test
  void shouldUseFieldAsMetricNameForHistogramMetricsWhenMetricNameIsNotProvided() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"dataSource\":\"metrics\",\"aggFn\":\"quantile\",\"level\":0.95,\"metricDataType\":\"histogram\",\"field\":\"test.metric.histogram\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(100, value(d.get(0), 0));
  }

  @Test
  void shouldUseMetricNameOverFieldWhenBothAreProvided() throws Exception {
    JsonNode d =
        data(
            payload(
                metrics,
                "",
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"dataSource\":\"metrics\",\"aggFn\":\"avg\",\"metricDataType\":\"gauge\",\"metricName\":\"test.metric.gauge\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size());
    assertEquals(25, value(d.get(0), 0));
  }

  @Test
  void shouldProcessSeriesFromDifferentSources() throws Exception {
    JsonNode d =
        data(
            payload(
                logs,
                "",
                "{\"sourceId\":\""
                    + logs
                    + "\",\"dataSource\":\"events\",\"aggFn\":\"count\",\"where\":\"SeverityText:info\",\"groupBy\":[]}",
                "{\"sourceId\":\""
                    + metrics
                    + "\",\"dataSource\":\"metrics\",\"aggFn\":\"avg\",\"metricName\":\"test.metric.gauge\",\"metricDataType\":\"gauge\",\"field\":\"Value\",\"where\":\"\",\"groupBy\":[]}"));
    assertEquals(1, d.size(), d.toString());
    assertEquals(2, value(d.get(0), 0));
    assertEquals(25, value(d.get(0), 1));
  }
}
