package dev.chartwell.otlp;

import io.opentelemetry.proto.logs.v1.LogRecord;
import java.io.IOException;

/**
 * Log records to rows of {@code otel_logs}. The time is the record's, else its observed time (as
 * the ClickHouse exporter does), else the time the request arrived; the trace flags are the low
 * byte of the record's flags; the body is stored as text like any attribute value.
 */
final class LogDecoder extends RequestDecoder {
  LogDecoder() {
    super("resourceLogs", "scopeLogs", "logRecords");
  }

  @Override
  void record(Walk walk, int off, int len, String scope, int index) throws OtlpFormatException {
    LogRecord log;
    try {
      log = walk.parse(LogRecord.parser(), off, len);
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
          long observed = log.getObservedTimeUnixNano();
          long time =
              log.getTimeUnixNano() != 0
                  ? log.getTimeUnixNano()
                  : observed != 0 ? observed : walk.receivedNanos;
          row.nanos("TimestampNanos", time);
          if (observed != 0) {
            row.nanos("ObservedTimestamp", observed);
          }
          row.text("TraceId", Row.traceId("TraceId", log.getTraceId(), false));
          row.text("SpanId", Row.spanId("SpanId", log.getSpanId(), false));
          row.number("TraceFlags", log.getFlags() & 0xff);
          row.text("SeverityText", log.getSeverityText());
          row.number("SeverityNumber", log.getSeverityNumberValue());
          row.text("Body", log.hasBody() ? AnyValues.text(log.getBody()) : "");
          row.text("EventName", log.getEventName());
          row.attributes("LogAttributes", log.getAttributesList());
          row.emit(OtelTable.LOGS, time / 1_000_000, record, sink);
        });
  }
}
