package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Spans sent by the OpenTelemetry Java SDK's OTLP/HTTP exporter, in both encodings: the first write
 * creates {@code otel_traces} and the {@code Traces} source (linked to {@code Logs}), and every
 * column, events and links included, reads back through chart queries.
 */
class OtlpTracesIntegrationTest {
  static final long T0_MILLIS = 1_767_225_600_000L;
  static final long START = T0_MILLIS * 1_000_000L + 42;
  static final long END = START + 1_234_567_891L;
  static final String PARENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
  static final String PARENT_SPAN = "b7ad6b7169203331";
  static final String LINKED_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String LINKED_SPAN = "00f067aa0ba902b7";

  @TempDir Path dataDir;
  OtlpServerFixture fx;

  @AfterEach
  void tearDown() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = SdkExporters.Encoding.class,
      names = {"PROTOBUF_GZIP", "JSON"})
  void everyColumnOfASpanReadsBack(SdkExporters.Encoding encoding) throws Exception {
    fx = new OtlpServerFixture(dataDir);
    // A Logs source first: the Traces source links to it, and it back.
    assertEquals(
        200, fx.postOwn("/v1/logs", "application/json", logRecordJson().getBytes()).statusCode());
    SdkExporters exporters = new SdkExporters(encoding, fx.endpoint(encoding.json()), fx.token);
    String traceId;
    String spanId;
    try (SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.create(Attributes.builder().put("service.name", "payments").build()))
            .addSpanProcessor(SimpleSpanProcessor.create(exporters.spans()))
            .build()) {
      Tracer tracer =
          provider.tracerBuilder("chartwell.test").setInstrumentationVersion("9").build();
      SpanContext parent =
          SpanContext.createFromRemoteParent(
              PARENT_TRACE,
              PARENT_SPAN,
              TraceFlags.getSampled(),
              TraceState.builder().put("vendor", "x1").build());
      SpanContext linked =
          SpanContext.create(
              LINKED_TRACE, LINKED_SPAN, TraceFlags.getDefault(), TraceState.getDefault());
      Span span =
          tracer
              .spanBuilder("POST /charge")
              .setParent(Context.root().with(Span.wrap(parent)))
              .setSpanKind(SpanKind.SERVER)
              .setStartTimestamp(START, TimeUnit.NANOSECONDS)
              .setAttribute("http.route", "/charge")
              .setAttribute("http.response.status_code", 500L)
              .setAttribute(AttributeKey.stringArrayKey("tags"), List.of("a", "b"))
              .addLink(linked, Attributes.builder().put("link.kind", "retry-of").build())
              .startSpan();
      span.addEvent(
          "exception",
          Attributes.builder().put("exception.type", "Timeout").put("attempt", 3L).build(),
          START + 1000,
          TimeUnit.NANOSECONDS);
      span.setStatus(StatusCode.ERROR, "card declined");
      span.end(END, TimeUnit.NANOSECONDS);
      traceId = span.getSpanContext().getTraceId();
      spanId = span.getSpanContext().getSpanId();
      provider.forceFlush().join(30, TimeUnit.SECONDS);
    }
    exporters.assertAllSucceeded();

    Map<String, JsonNode> sources = fx.sources();
    JsonNode traces = sources.get("Traces");
    assertEquals("trace", traces.get("kind").textValue());
    assertEquals("otel_traces", traces.get("from").get("tableName").textValue());
    assertEquals("Duration", traces.get("durationExpression").textValue());
    assertEquals(9, traces.get("durationPrecision").asInt());
    assertEquals("SpanName", traces.get("spanNameExpression").textValue());
    assertEquals("SpanKind", traces.get("spanKindExpression").textValue());
    assertEquals("ParentSpanId", traces.get("parentSpanIdExpression").textValue());
    assertEquals("StatusCode", traces.get("statusCodeExpression").textValue());
    assertEquals("Events", traces.get("spanEventsValueExpression").textValue());
    assertEquals("SpanName", traces.get("implicitColumnExpression").textValue());
    String logsId = sources.get("Logs").get("id").textValue();
    assertEquals(logsId, traces.get("logSourceId").textValue());
    assertEquals(
        traces.get("id").textValue(), sources.get("Logs").get("traceSourceId").textValue());

    String id = traces.get("id").textValue();
    long from = T0_MILLIS - 86_400_000L;
    long to = T0_MILLIS + 86_400_000L;
    Map<String, Object> expected =
        Map.ofEntries(
            Map.entry("TimestampNanos", Long.toString(START)),
            Map.entry("TraceId", PARENT_TRACE),
            Map.entry("SpanId", spanId),
            Map.entry("ParentSpanId", PARENT_SPAN),
            Map.entry("TraceState", "vendor=x1"),
            Map.entry("TraceFlags", "1"),
            Map.entry("SpanName", "POST /charge"),
            Map.entry("SpanKind", "SPAN_KIND_SERVER"),
            Map.entry("ServiceName", "payments"),
            Map.entry("ScopeName", "chartwell.test"),
            Map.entry("ScopeVersion", "9"),
            Map.entry("Duration", Long.toString(END - START)),
            Map.entry("StatusCode", "STATUS_CODE_ERROR"),
            Map.entry("StatusMessage", "card declined"),
            Map.entry("ResourceAttributes.service.name", "payments"),
            Map.entry("SpanAttributes.http.route", "/charge"),
            Map.entry("SpanAttributes.http.response.status_code", "500"),
            Map.entry("SpanAttributes.tags", "[\"a\",\"b\"]"),
            Map.entry("Events.Timestamp", "[" + (START + 1000) + "]"),
            Map.entry("Events.Name", "[\"exception\"]"),
            Map.entry("Events.Attributes", "[{\"attempt\":\"3\",\"exception.type\":\"Timeout\"}]"),
            Map.entry("Links.TraceId", "[\"" + LINKED_TRACE + "\"]"),
            Map.entry("Links.SpanId", "[\"" + LINKED_SPAN + "\"]"),
            Map.entry("Links.TraceState", "[\"\"]"),
            Map.entry("Links.Attributes", "[{\"link.kind\":\"retry-of\"}]"));
    for (Map.Entry<String, Object> e : expected.entrySet()) {
      assertEquals(
          Map.of(e.getValue(), 1L), fx.values(id, e.getKey(), from, to, Map.of()), e.getKey());
    }
    assertEquals(PARENT_TRACE, traceId);
    // Duration is numeric: the chart API aggregates it.
    JsonNode avg =
        fx.chart(
            OtlpServerFixture.MAPPER.readTree(
                "{\"startTime\":"
                    + from
                    + ",\"endTime\":"
                    + to
                    + ",\"granularity\":\"30d\",\"series\":[{\"sourceId\":\""
                    + id
                    + "\",\"aggFn\":\"max\",\"field\":\"Duration\","
                    + "\"where\":\"SpanKind:SPAN_KIND_SERVER charge\"}]}"));
    assertEquals((double) (END - START), avg.get("data").get(0).get("series_0.data").asDouble());
  }

  /** One log record in OTLP/JSON, to have a Logs source first. */
  static String logRecordJson() {
    return "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\""
        + START
        + "\",\"body\":{\"stringValue\":\"hello\"}}]}]}]}";
  }
}
