package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.SharedServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.KeyValue;
import io.opentelemetry.api.common.Value;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Logs sent by the OpenTelemetry Java SDK's OTLP/HTTP exporter, in both encodings, with and without
 * gzip, to both ports: the first write creates {@code otel_logs} and the {@code Logs} source, and
 * every column reads back through chart queries exactly as sent.
 */
class OtlpLogsIntegrationTest {
  static final long T0_MILLIS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final long T0_NANOS = T0_MILLIS * 1_000_000L + 123_456_789L;
  static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
  static final String SPAN_ID = "eee19b7ec3c1b174";

  OtlpServerFixture fx;

  /**
   * The cases share one server; each sends to a service of its own, created for it, so each has a
   * warehouse of its own in which its first write creates {@code otel_logs} and the {@code Logs}
   * source, and holds only the records it sent.
   */
  @RegisterExtension
  static final SharedServer<OtlpLogsIntegrationTest> SHARED =
      new SharedServer<>(
          OtlpLogsIntegrationTest::new,
          (t, dir) -> t.fx = new OtlpServerFixture(dir),
          OtlpLogsIntegrationTest::tearDown);

  @AfterEach
  void tearDown() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @ParameterizedTest
  @EnumSource(SdkExporters.Encoding.class)
  void everyColumnOfALogRecordReadsBack(SdkExporters.Encoding encoding) throws Exception {
    fx = SHARED.get().fx.anotherService();
    SdkExporters exporters =
        new SdkExporters(encoding, fx.endpoint(encoding.ordinal() % 2 == 0), fx.token);
    Resource resource =
        Resource.create(
            Attributes.builder()
                .put("service.name", "checkout")
                .put("host.name", "web-1")
                .put("process.pid", 4242L)
                .put("sampling.ratio", 0.25)
                .put("container.privileged", false)
                .put(AttributeKey.stringArrayKey("process.args"), List.of("java", "-jar"))
                .build(),
            "https://opentelemetry.io/schemas/1.26.0");
    try (SdkLoggerProvider provider =
        SdkLoggerProvider.builder()
            .setResource(resource)
            .addLogRecordProcessor(SimpleLogRecordProcessor.create(exporters.logs()))
            .build()) {
      Logger logger =
          provider
              .loggerBuilder("chartwell.test")
              .setInstrumentationVersion("1.2.3")
              .setSchemaUrl("https://opentelemetry.io/schemas/1.24.0")
              .build();
      SpanContext span =
          SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getSampled(), TraceState.getDefault());
      logger
          .logRecordBuilder()
          .setTimestamp(T0_NANOS, TimeUnit.NANOSECONDS)
          .setObservedTimestamp(T0_NANOS + 5_000, TimeUnit.NANOSECONDS)
          .setContext(Context.root().with(Span.wrap(span)))
          .setSeverity(Severity.ERROR)
          .setSeverityText("error")
          .setBody("payment failed for order 42")
          .setEventName("order.failed")
          .setAttribute("http.method", "POST")
          .setAttribute("http.status_code", 502L)
          .setAttribute("retry.ratio", 1.5)
          .setAttribute("cached", true)
          .setAttribute(AttributeKey.longArrayKey("shard.ids"), List.of(3L, -7L))
          .setAttribute(AttributeKey.doubleArrayKey("weights"), List.of(0.5, 2.0))
          .setAttribute(AttributeKey.booleanArrayKey("flags"), List.of(true, false))
          .setAttribute("payload", Value.of("hé\u0001".getBytes(StandardCharsets.UTF_8)))
          .setAttribute(
              "order",
              Value.of(
                  KeyValue.of("id", Value.of(42L)),
                  KeyValue.of("items", Value.of(Value.of("book"), Value.of(2.5))),
                  KeyValue.of("note", Value.of("say \"hi\""))))
          .setAttribute("nothing", Value.empty())
          .emit();
      // Without a time of its own, a record takes its observed time.
      logger
          .logRecordBuilder()
          .setObservedTimestamp(T0_NANOS + 60_000_000_000L, TimeUnit.NANOSECONDS)
          .setBody(
              Value.of(KeyValue.of("msg", Value.of("structured")), KeyValue.of("n", Value.of(1L))))
          .emit();
      provider.forceFlush().join(30, TimeUnit.SECONDS);
    }
    exporters.assertAllSucceeded();

    Map<String, JsonNode> sources = fx.sources();
    JsonNode logs = sources.get("Logs");
    assertEquals("log", logs.get("kind").textValue());
    assertEquals("otel_logs", logs.get("from").get("tableName").textValue());
    assertEquals("Timestamp", logs.get("timestampValueExpression").textValue());
    assertEquals("Body", logs.get("bodyExpression").textValue());
    assertEquals("Body", logs.get("implicitColumnExpression").textValue());
    assertEquals("ServiceName", logs.get("serviceNameExpression").textValue());
    assertEquals("SeverityText", logs.get("severityTextExpression").textValue());
    assertEquals("LogAttributes", logs.get("eventAttributesExpression").textValue());
    assertEquals("TraceId", logs.get("traceIdExpression").textValue());
    assertEquals(1, sources.size(), sources.keySet().toString());
    assertEquals(2, fx.tables().get("otel_logs").get("rows").asLong());

    String id = logs.get("id").textValue();
    long from = T0_MILLIS - 86_400_000L;
    long to = T0_MILLIS + 86_400_000L;
    Map<String, String> first =
        Map.of("where", "EventName = 'order.failed'", "whereLanguage", "sql");
    Map<String, Object> expected =
        Map.ofEntries(
            Map.entry("TimestampNanos", Long.toString(T0_NANOS)),
            Map.entry("ObservedTimestamp", Long.toString(T0_NANOS + 5_000)),
            Map.entry("TraceId", TRACE_ID),
            Map.entry("SpanId", SPAN_ID),
            Map.entry("TraceFlags", "1"),
            Map.entry("SeverityText", "error"),
            Map.entry("SeverityNumber", "17"),
            Map.entry("ServiceName", "checkout"),
            Map.entry("Body", "payment failed for order 42"),
            Map.entry("EventName", "order.failed"),
            Map.entry("ResourceSchemaUrl", "https://opentelemetry.io/schemas/1.26.0"),
            Map.entry("ScopeSchemaUrl", "https://opentelemetry.io/schemas/1.24.0"),
            Map.entry("ScopeName", "chartwell.test"),
            Map.entry("ScopeVersion", "1.2.3"),
            Map.entry("ResourceAttributes.service.name", "checkout"),
            Map.entry("ResourceAttributes.host.name", "web-1"),
            Map.entry("ResourceAttributes.process.pid", "4242"),
            Map.entry("ResourceAttributes.sampling.ratio", "0.25"),
            Map.entry("ResourceAttributes.container.privileged", "false"),
            Map.entry("ResourceAttributes.process.args", "[\"java\",\"-jar\"]"),
            Map.entry("LogAttributes.http.method", "POST"),
            Map.entry("LogAttributes.http.status_code", "502"),
            Map.entry("LogAttributes.retry.ratio", "1.5"),
            Map.entry("LogAttributes.cached", "true"),
            Map.entry("LogAttributes.shard.ids", "[3,-7]"),
            Map.entry("LogAttributes.weights", "[0.5,2.0]"),
            Map.entry("LogAttributes.flags", "[true,false]"),
            Map.entry(
                "LogAttributes.payload",
                Base64.getEncoder().encodeToString("hé\u0001".getBytes(StandardCharsets.UTF_8))),
            Map.entry(
                "LogAttributes.order",
                "{\"id\":42,\"items\":[\"book\",2.5],\"note\":\"say \\\"hi\\\"\"}"));
    for (Map.Entry<String, Object> e : expected.entrySet()) {
      assertEquals(
          Map.of(e.getValue(), 1L), fx.values(id, e.getKey(), from, to, first), e.getKey());
    }
    // The empty value keeps its key, as an empty string.
    assertEquals(
        1, count(id, from, to, "\"LogAttributes.nothing\" = '' AND EventName = 'order.failed'"));
    // The chart's time is the record's, in milliseconds.
    JsonNode perMinute =
        fx.chart(
            OtlpServerFixture.MAPPER.readTree(
                "{\"startTime\":"
                    + T0_MILLIS
                    + ",\"endTime\":"
                    + (T0_MILLIS + 120_000)
                    + ",\"granularity\":\"1m\",\"series\":[{\"sourceId\":\""
                    + id
                    + "\",\"aggFn\":\"count\"}]}"));
    assertEquals(
        "[{\"ts_bucket\":1767225600000,\"group\":[],\"series_0.data\":1},"
            + "{\"ts_bucket\":1767225660000,\"group\":[],\"series_0.data\":1}]",
        perMinute.get("data").toString());
    Map<String, String> second = Map.of("where", "EventName = ''", "whereLanguage", "sql");
    assertEquals(
        Map.of(Long.toString(T0_NANOS + 60_000_000_000L), 1L),
        fx.values(id, "TimestampNanos", from, to, second));
    assertEquals(
        Map.of("{\"msg\":\"structured\",\"n\":1}", 1L), fx.values(id, "Body", from, to, second));
    assertEquals(1, count(id, from, to, "TraceId = '' AND SpanId = '' AND EventName = ''"));
    // Bare terms search the body; numeric text compares as a number.
    assertEquals(1, count(id, from, to, null, "payment"));
    assertEquals(1, count(id, from, to, "LogAttributes['http.status_code'] > 500"));
    assertEquals(0, count(id, from, to, "LogAttributes['http.status_code'] > 502"));
    assertEquals(1, count(id, from, to, null, "LogAttributes.http.status_code:[500 TO 599]"));
    assertTrue(fx.tables().get("otel_logs").get("schema").toString().contains("TimestampNanos"));
  }

  private long count(String source, long from, long to, String sqlWhere) throws Exception {
    return count(source, from, to, sqlWhere, null);
  }

  private long count(String source, long from, long to, String sqlWhere, String lucene)
      throws Exception {
    var q = OtlpServerFixture.MAPPER.createObjectNode();
    q.put("startTime", from).put("endTime", to).put("granularity", "30d");
    var s = q.putArray("series").addObject().put("sourceId", source).put("aggFn", "count");
    if (sqlWhere != null) {
      s.put("where", sqlWhere).put("whereLanguage", "sql");
    } else {
      s.put("where", lucene);
    }
    long total = 0;
    for (JsonNode row : fx.chart(q).get("data")) {
      total += row.get("series_0.data").asLong();
    }
    return total;
  }
}
