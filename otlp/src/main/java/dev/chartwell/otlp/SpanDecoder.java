package dev.chartwell.otlp;

import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.IOException;

/**
 * Spans to rows of {@code otel_traces}. {@code Timestamp} is the start, {@code Duration} the end
 * minus the start in nanoseconds; a span needs both times, a 16-byte trace id and an 8-byte span
 * id. Kind and status code are stored by their protocol names ({@code SPAN_KIND_SERVER}, {@code
 * STATUS_CODE_ERROR}), as the ClickHouse exporter writes them. Events and links are the exporter's
 * nested columns, each a JSON array with one entry per event or link.
 */
final class SpanDecoder extends RequestDecoder {
  SpanDecoder() {
    super("resourceSpans", "scopeSpans", "spans");
  }

  @Override
  void record(Walk walk, int off, int len, String scope, int index) throws OtlpFormatException {
    Span span;
    try {
      span = walk.parse(Span.parser(), off, len);
    } catch (IOException e) {
      throw OtlpFormatException.of(where(scope, index), e);
    }
    if (walk.checking()) {
      walk.counted(len);
      return;
    }
    walk.emit(
        (record, sink) -> {
          Row row = new Row(walk.common());
          long start = Row.checkedNanos("Timestamp", span.getStartTimeUnixNano());
          long end = Row.checkedNanos("Duration", span.getEndTimeUnixNano());
          if (start == 0) {
            throw new Rejected("Timestamp: the span has no start time");
          }
          if (end < start) {
            throw new Rejected(
                "Duration: the span ends (" + end + " ns) before it starts (" + start + " ns)");
          }
          row.number("TimestampNanos", start);
          row.number("Duration", end - start);
          row.text("TraceId", Row.traceId("TraceId", span.getTraceId(), true));
          row.text("SpanId", Row.spanId("SpanId", span.getSpanId(), true));
          row.text("ParentSpanId", Row.spanId("ParentSpanId", span.getParentSpanId(), false));
          row.text("TraceState", span.getTraceState());
          row.number("TraceFlags", span.getFlags() & 0xff);
          row.text("SpanName", span.getName());
          row.text("SpanKind", kind(span.getKindValue()));
          row.text("StatusCode", status(span.getStatus().getCodeValue()));
          row.text("StatusMessage", span.getStatus().getMessage());
          row.attributes("SpanAttributes", span.getAttributesList());
          events(span, row);
          links(span, row);
          row.emit(OtelTable.TRACES, start / 1_000_000, record, sink);
        });
  }

  private static void events(Span span, Row row) {
    JsonText times = new JsonText();
    JsonText names = new JsonText();
    JsonText attributes = new JsonText();
    times.beginArray();
    names.beginArray();
    attributes.beginArray();
    for (Span.Event e : span.getEventsList()) {
      times.comma();
      times.unsigned(Row.checkedNanos("Events.Timestamp", e.getTimeUnixNano()));
      names.comma();
      names.string(e.getName());
      attributes.comma();
      AnyValues.attributesObject(e.getAttributesList(), attributes);
    }
    times.endArray();
    names.endArray();
    attributes.endArray();
    row.text("Events.Timestamp", times.toString());
    row.text("Events.Name", names.toString());
    row.text("Events.Attributes", attributes.toString());
  }

  private static void links(Span span, Row row) {
    JsonText traceIds = new JsonText();
    JsonText spanIds = new JsonText();
    JsonText states = new JsonText();
    JsonText attributes = new JsonText();
    traceIds.beginArray();
    spanIds.beginArray();
    states.beginArray();
    attributes.beginArray();
    for (Span.Link l : span.getLinksList()) {
      traceIds.comma();
      traceIds.string(Row.traceId("Links.TraceId", l.getTraceId(), false));
      spanIds.comma();
      spanIds.string(Row.spanId("Links.SpanId", l.getSpanId(), false));
      states.comma();
      states.string(l.getTraceState());
      attributes.comma();
      AnyValues.attributesObject(l.getAttributesList(), attributes);
    }
    traceIds.endArray();
    spanIds.endArray();
    states.endArray();
    attributes.endArray();
    row.text("Links.TraceId", traceIds.toString());
    row.text("Links.SpanId", spanIds.toString());
    row.text("Links.TraceState", states.toString());
    row.text("Links.Attributes", attributes.toString());
  }

  /** The protocol's name of a span kind; a number the protocol does not define stays a number. */
  static String kind(int value) {
    Span.SpanKind kind = Span.SpanKind.forNumber(value);
    return kind == null ? Integer.toString(value) : kind.name();
  }

  /** The protocol's name of a status code; a number it does not define stays a number. */
  static String status(int value) {
    Status.StatusCode code = Status.StatusCode.forNumber(value);
    return code == null ? Integer.toString(value) : code.name();
  }
}
