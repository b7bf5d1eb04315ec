package dev.chartwell.server.otlp;

import static dev.chartwell.server.otlp.Requests.T0_NANOS;
import static dev.chartwell.server.otlp.Requests.attribute;
import static dev.chartwell.server.otlp.Requests.hex;
import static dev.chartwell.server.otlp.Requests.log;
import static dev.chartwell.server.otlp.Requests.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.CodedOutputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP/HTTP protocol as the specification and the JSON mapping say: answers in the request's
 * encoding, partial success naming each rejected record, OTLP's JSON deviations, fields in any
 * order, the data kinds the SDK does not send, and the OTLP-only port.
 */
class OtlpProtocolIntegrationTest {
  static final String PROTOBUF = "application/x-protobuf";
  static final String JSON = "application/json";
  static final long FROM = T0_NANOS / 1_000_000 - 60_000;
  static final long TO = T0_NANOS / 1_000_000 + 60_000;

  @TempDir Path dataDir;
  OtlpServerFixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new OtlpServerFixture(dataDir);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private String logsSource() throws Exception {
    return fx.sources().get("Logs").get("id").textValue();
  }

  @Test
  void successAnswersInTheRequestsEncoding() throws Exception {
    HttpResponse<byte[]> r = fx.postOwn("/v1/logs", PROTOBUF, logs(log("a")).toByteArray());
    assertEquals(200, r.statusCode());
    assertEquals(PROTOBUF, r.headers().firstValue("Content-Type").orElse(""));
    assertEquals(0, r.body().length); // ExportLogsServiceResponse without partial_success
    r = fx.postOwn("/v1/logs", JSON, "{\"resourceLogs\":[]}".getBytes());
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith(JSON));
    assertEquals("{}", new String(r.body(), StandardCharsets.UTF_8));
  }

  @Test
  void anEmptyRequestIsFineAndCreatesNothing() throws Exception {
    assertEquals(200, fx.postOwn("/v1/traces", PROTOBUF, new byte[0]).statusCode());
    assertEquals(200, fx.postOwn("/v1/metrics", JSON, "{}".getBytes()).statusCode());
    assertTrue(fx.tables().isEmpty());
    assertTrue(fx.sources().isEmpty());
  }

  @Test
  void rejectedRecordsAreCountedAndNamedTheOthersStored() throws Exception {
    byte[] body =
        logs(
                log("good"),
                log("bad").toBuilder().setTraceId(hex("0102030405")).build(),
                log("late").toBuilder().setTimeUnixNano(-1L).setObservedTimeUnixNano(0).build(),
                log("good too"))
            .toByteArray();
    HttpResponse<byte[]> r = fx.postOwn("/v1/logs", PROTOBUF, body);
    assertEquals(200, r.statusCode());
    ExportLogsServiceResponse response = ExportLogsServiceResponse.parseFrom(r.body());
    assertEquals(2, response.getPartialSuccess().getRejectedLogRecords());
    assertEquals(
        "2 of 4 log records rejected (numbered from 0 in request order): 1: TraceId: a trace id"
            + " has 16 bytes, this one has 5; 2: TimestampNanos: 18446744073709551615 ns is after"
            + " the year 2262, the latest time that can be stored",
        response.getPartialSuccess().getErrorMessage());
    assertEquals(
        Map.of("good", 1L, "good too", 1L), fx.values(logsSource(), "Body", FROM, TO, Map.of()));

    ExportTraceServiceRequest spans =
        ExportTraceServiceRequest.newBuilder()
            .addResourceSpans(
                ResourceSpans.newBuilder()
                    .addScopeSpans(
                        ScopeSpans.newBuilder()
                            .addSpans(
                                span("no span id").setSpanId(com.google.protobuf.ByteString.EMPTY))
                            .addSpans(span("backwards").setEndTimeUnixNano(T0_NANOS - 1))
                            .addSpans(span("fine"))))
            .build();
    r = fx.postOwn("/v1/traces", PROTOBUF, spans.toByteArray());
    ExportTraceServiceResponse traces = ExportTraceServiceResponse.parseFrom(r.body());
    assertEquals(2, traces.getPartialSuccess().getRejectedSpans());
    String message = traces.getPartialSuccess().getErrorMessage();
    assertTrue(message.contains("0: SpanId: a span id has 8 bytes, this one has 0"), message);
    assertTrue(message.contains("1: Duration: the span ends"), message);
  }

  private static Span.Builder span(String name) {
    return Span.newBuilder()
        .setName(name)
        .setTraceId(hex("0af7651916cd43dd8448eb211c80319c"))
        .setSpanId(hex("b7ad6b7169203331"))
        .setStartTimeUnixNano(T0_NANOS)
        .setEndTimeUnixNano(T0_NANOS + 5);
  }

  @Test
  void jsonFollowsOtlpsMapping() throws Exception {
    String json =
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
            + "\"value\":{\"stringValue\":\"js\"}}],\"futureField\":{\"x\":[1,2]}},"
            + "\"scope_logs\":[{\"scope\":{\"name\":\"web\"},\"logRecords\":["
            + "{\"timeUnixNano\":\""
            + T0_NANOS
            + "\",\"severityNumber\":13,\"traceId\":\"5B8EFFF798038103D269B633813FC60C\","
            + "\"spanId\":\"EEE19B7EC3C1B174\",\"body\":{\"stringValue\":\"one\"},"
            + "\"attributes\":[{\"key\":\"n\",\"value\":{\"intValue\":\"9007199254740993\"}},"
            + "{\"key\":\"m\",\"value\":{\"intValue\":-12}},"
            + "{\"key\":\"d\",\"value\":{\"doubleValue\":\"NaN\"}},"
            + "{\"key\":\"b\",\"value\":{\"bytesValue\":\"AQID\"}}]},"
            + "{\"time_unix_nano\":"
            + (T0_NANOS + 1)
            + ",\"severityNumber\":\"SEVERITY_NUMBER_FATAL\",\"body\":{\"stringValue\":\"two\"},"
            + "\"flags\":1,\"unknown\":null}]}]}]}";
    HttpResponse<byte[]> r = fx.postOwn("/v1/logs", JSON, json.getBytes(StandardCharsets.UTF_8));
    assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
    String id = logsSource();
    Map<String, String> one = Map.of("where", "Body = 'one'", "whereLanguage", "sql");
    assertEquals(Map.of("js", 2L), fx.values(id, "ServiceName", FROM, TO, Map.of()));
    assertEquals(Map.of("web", 2L), fx.values(id, "ScopeName", FROM, TO, Map.of()));
    assertEquals(Map.of("13", 1L, "21", 1L), fx.values(id, "SeverityNumber", FROM, TO, Map.of()));
    assertEquals(
        Map.of("5b8efff798038103d269b633813fc60c", 1L), fx.values(id, "TraceId", FROM, TO, one));
    assertEquals(Map.of("eee19b7ec3c1b174", 1L), fx.values(id, "SpanId", FROM, TO, one));
    assertEquals(Map.of("9007199254740993", 1L), fx.values(id, "LogAttributes.n", FROM, TO, one));
    assertEquals(Map.of("-12", 1L), fx.values(id, "LogAttributes.m", FROM, TO, one));
    assertEquals(Map.of("NaN", 1L), fx.values(id, "LogAttributes.d", FROM, TO, one));
    assertEquals(Map.of("AQID", 1L), fx.values(id, "LogAttributes.b", FROM, TO, one));
    assertEquals(
        Map.of(Long.toString(T0_NANOS + 1), 1L),
        fx.values(
            id,
            "TimestampNanos",
            FROM,
            TO,
            Map.of("where", "Body = 'two'", "whereLanguage", "sql")));

    JsonNode e =
        error("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"xyz1\"}]}]}]}");
    assertEquals(
        "BAD_REQUEST: the body is not an OTLP/JSON ExportLogsServiceRequest:"
            + " resourceLogs[0].scopeLogs[0].logRecords[0].traceId: must be hex digits, got 'xyz1'",
        e.get("message").textValue());
    e =
        error(
            "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"soon\"}]}]}]}");
    assertTrue(
        e.get("message")
            .textValue()
            .endsWith(
                "resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano: must be an integer from 0 to"
                    + " 18446744073709551615, got 'soon'"),
        e.toString());
    e = error("{\"resourceLogs\":{}}");
    assertTrue(
        e.get("message").textValue().endsWith("resourceLogs: must be an array"), e.toString());
    e = error("{\"resourceLogs\":[]} trailing");
    assertTrue(e.get("message").textValue().contains("malformed JSON"), e.toString());
    e = error("[]");
    assertTrue(e.get("message").textValue().endsWith("it must be a JSON object"), e.toString());
  }

  private JsonNode error(String json) throws Exception {
    HttpResponse<byte[]> r = fx.postOwn("/v1/logs", JSON, json.getBytes(StandardCharsets.UTF_8));
    assertEquals(400, r.statusCode());
    return OtlpServerFixture.MAPPER.readTree(r.body());
  }

  @Test
  void fieldsMayComeInAnyOrder() throws Exception {
    // A ResourceLogs whose scopes come before its resource, and a ScopeLogs whose records come
    // before its scope: protobuf allows any order.
    byte[] record = log("late resource").toByteArray();
    ByteArrayOutputStream scope = new ByteArrayOutputStream();
    CodedOutputStream s = CodedOutputStream.newInstance(scope);
    s.writeByteArray(2, record);
    s.writeByteArray(
        1, InstrumentationScope.newBuilder().setName("late scope").build().toByteArray());
    s.flush();
    ByteArrayOutputStream resource = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(resource);
    r.writeByteArray(2, scope.toByteArray());
    r.writeString(3, "https://example.com/schema");
    r.writeByteArray(
        1,
        Resource.newBuilder()
            .addAttributes(attribute("service.name", "ordered"))
            .build()
            .toByteArray());
    r.flush();
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    CodedOutputStream q = CodedOutputStream.newInstance(request);
    q.writeByteArray(1, resource.toByteArray());
    q.flush();
    assertEquals(200, fx.postOwn("/v1/logs", PROTOBUF, request.toByteArray()).statusCode());
    String id = logsSource();
    assertEquals(Map.of("ordered", 1L), fx.values(id, "ServiceName", FROM, TO, Map.of()));
    assertEquals(Map.of("late scope", 1L), fx.values(id, "ScopeName", FROM, TO, Map.of()));
    assertEquals(
        Map.of("https://example.com/schema", 1L),
        fx.values(id, "ResourceSchemaUrl", FROM, TO, Map.of()));
  }

  @Test
  void summariesIntegerGaugesAndPointsWithoutValues() throws Exception {
    NumberDataPoint.Builder point =
        NumberDataPoint.newBuilder().setTimeUnixNano(T0_NANOS).setStartTimeUnixNano(T0_NANOS - 7);
    ExportMetricsServiceRequest request =
        ExportMetricsServiceRequest.newBuilder()
            .addResourceMetrics(
                ResourceMetrics.newBuilder()
                    .addScopeMetrics(
                        ScopeMetrics.newBuilder()
                            .setScope(
                                InstrumentationScope.newBuilder().setDroppedAttributesCount(2))
                            .addMetrics(
                                Metric.newBuilder()
                                    .setName("rpc.duration")
                                    .setSummary(
                                        Summary.newBuilder()
                                            .addDataPoints(
                                                SummaryDataPoint.newBuilder()
                                                    .setTimeUnixNano(T0_NANOS)
                                                    .setCount(3)
                                                    .setSum(7.5)
                                                    .addQuantileValues(
                                                        SummaryDataPoint.ValueAtQuantile
                                                            .newBuilder()
                                                            .setQuantile(0.5)
                                                            .setValue(2))
                                                    .addQuantileValues(
                                                        SummaryDataPoint.ValueAtQuantile
                                                            .newBuilder()
                                                            .setQuantile(0.99)
                                                            .setValue(4.25)))))
                            .addMetrics(
                                Metric.newBuilder()
                                    .setName("threads")
                                    .setGauge(
                                        Gauge.newBuilder()
                                            .addDataPoints(point.clone().setAsInt(17))
                                            .addDataPoints(
                                                point
                                                    .clone()
                                                    .setFlags(1)
                                                    .setAsDouble(Double.NaN))))))
            .build();
    HttpResponse<byte[]> r = fx.postOwn("/v1/metrics", PROTOBUF, request.toByteArray());
    assertEquals(200, r.statusCode());
    assertEquals(0, r.body().length);
    String id = fx.sources().get("Metrics").get("id").textValue();
    Map<String, String> summary = Map.of("metricDataType", "summary");
    assertEquals(Map.of("3", 1L), fx.values(id, "Count", FROM, TO, summary));
    assertEquals(Map.of("7.5", 1L), fx.values(id, "Sum", FROM, TO, summary));
    assertEquals(
        Map.of("[0.5,0.99]", 1L), fx.values(id, "ValueAtQuantiles.Quantile", FROM, TO, summary));
    assertEquals(
        Map.of("[2.0,4.25]", 1L), fx.values(id, "ValueAtQuantiles.Value", FROM, TO, summary));
    assertEquals(Map.of("2", 1L), fx.values(id, "ScopeDroppedAttrCount", FROM, TO, summary));
    Map<String, String> gauge = Map.of("metricDataType", "gauge", "metricName", "threads");
    assertEquals(Map.of("17", 1L), fx.values(id, "Value", FROM, TO, gauge));
    assertEquals(Map.of("0", 1L, "1", 1L), fx.values(id, "Flags", FROM, TO, gauge));
    assertEquals(
        Map.of(Long.toString(T0_NANOS - 7), 2L), fx.values(id, "StartTimeUnix", FROM, TO, gauge));
  }

  @Test
  void theOtlpPortServesOnlyOtlpAndHealth() throws Exception {
    HttpResponse<byte[]> r =
        fx.post("/v1/organizations", null, new byte[0], "Authorization", OtlpServerFixture.ADMIN);
    assertEquals(404, r.statusCode());
    var client = java.net.http.HttpClient.newHttpClient();
    var health =
        client.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(fx.endpoint(true) + "/health"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, health.statusCode());
    // The main port serves OTLP too.
    var main =
        client.send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(fx.endpoint(false) + "/v1/logs"))
                .header("Content-Type", PROTOBUF)
                .header("Authorization", "Bearer " + fx.token)
                .POST(
                    java.net.http.HttpRequest.BodyPublishers.ofByteArray(
                        logs(log("main")).toByteArray()))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, main.statusCode());
  }

  @Test
  void metricFieldsOfChartSeriesAreChecked() throws Exception {
    NumberDataPoint p =
        NumberDataPoint.newBuilder().setTimeUnixNano(T0_NANOS).setAsDouble(1).build();
    ExportMetricsServiceRequest request =
        ExportMetricsServiceRequest.newBuilder()
            .addResourceMetrics(
                ResourceMetrics.newBuilder()
                    .addScopeMetrics(
                        ScopeMetrics.newBuilder()
                            .addMetrics(
                                Metric.newBuilder()
                                    .setName("g")
                                    .setGauge(Gauge.newBuilder().addDataPoints(p)))))
            .build();
    assertEquals(200, fx.postOwn("/v1/metrics", PROTOBUF, request.toByteArray()).statusCode());
    String id = fx.sources().get("Metrics").get("id").textValue();
    String query =
        "{\"startTime\":"
            + FROM
            + ",\"endTime\":"
            + TO
            + ",\"series\":[{\"sourceId\":\""
            + id
            + "\",\"aggFn\":\"count\",\"metricDataType\":\"counter\",\"metricName\":3}]}";
    var r =
        fx.http.send("POST", "/api/v2/charts/series", query, "Authorization", "Bearer " + fx.token);
    assertEquals(400, r.statusCode());
    assertTrue(
        r.body().contains("series[0].metricDataType: must be one of gauge, sum, histogram"),
        r.body());
    assertTrue(r.body().contains("series[0].metricName: must be a string"), r.body());
    // The rows of the gauge table, and metricName with a where in either language.
    Map<String, String> gauge = Map.of("metricDataType", "gauge");
    assertEquals(Map.of("g", 1L), fx.values(id, "MetricName", FROM, TO, gauge));
    assertEquals(
        Map.of("1", 1L),
        fx.values(
            id,
            "Value",
            FROM,
            TO,
            Map.of("metricDataType", "gauge", "metricName", "g", "where", "Value:1 OR Value:2")));
    assertEquals(
        Map.of(),
        fx.values(
            id,
            "Value",
            FROM,
            TO,
            Map.of(
                "metricDataType",
                "gauge",
                "metricName",
                "other",
                "where",
                "Value >= 0",
                "whereLanguage",
                "sql")));
  }
}
