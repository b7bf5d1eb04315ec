package dev.chartwell.integrations;

import dev.chartwell.engine.EventBatch;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/**
 * Log entries as rows of {@code otel_logs} in an {@link EventBatch}, with the columns OTLP
 * ingestion fills for a log record and the attribute names of OpenTelemetry's semantic conventions:
 * {@code LogAttributes.thread.name}, {@code LogAttributes.thread.id}, and for an exception {@code
 * LogAttributes.exception.type}, {@code exception.message} and {@code exception.stacktrace} (the
 * stack trace as {@link Throwable#printStackTrace()} writes it).
 */
final class LogRows {
  /** The longest column name the engine accepts. */
  private static final int MAX_NAME_LENGTH = 256;

  private static final String ATTRIBUTES = "LogAttributes.";

  private final EventBatch batch;
  private final String serviceName;
  private final int nanos;
  private final int observed;
  private final int severityText;
  private final int severityNumber;
  private final int service;
  private final int resourceService;
  private final int body;
  private final int scope;
  private final int traceId;
  private final int spanId;
  private final int traceFlags;
  private final int threadName;
  private final int threadId;
  private final int exceptionType;
  private final int exceptionMessage;
  private final int exceptionStack;

  LogRows(EventBatch batch, String serviceName) {
    this.batch = batch;
    this.serviceName = serviceName;
    nanos = batch.field("TimestampNanos");
    observed = batch.field("ObservedTimestamp");
    severityText = batch.field("SeverityText");
    severityNumber = batch.field("SeverityNumber");
    service = batch.field("ServiceName");
    resourceService = batch.field("ResourceAttributes.service.name");
    body = batch.field("Body");
    scope = batch.field("ScopeName");
    traceId = batch.field("TraceId");
    spanId = batch.field("SpanId");
    traceFlags = batch.field("TraceFlags");
    threadName = batch.field(ATTRIBUTES + "thread.name");
    threadId = batch.field(ATTRIBUTES + "thread.id");
    exceptionType = batch.field(ATTRIBUTES + "exception.type");
    exceptionMessage = batch.field(ATTRIBUTES + "exception.message");
    exceptionStack = batch.field(ATTRIBUTES + "exception.stacktrace");
  }

  /** Adds one entry as one event of the batch. */
  void add(LogEntry e) {
    batch.startEvent();
    batch.timestamp(Math.floorDiv(e.epochNanos(), 1_000_000L));
    batch.putLong(nanos, e.epochNanos());
    batch.putLong(observed, e.epochNanos());
    batch.putString(severityText, nonNull(e.severityText()));
    batch.putLong(severityNumber, e.severityNumber());
    batch.putString(service, serviceName);
    batch.putString(resourceService, serviceName);
    batch.putString(body, nonNull(e.message()));
    batch.putString(scope, nonNull(e.loggerName()));
    batch.putLong(traceFlags, 0);
    String trace = "";
    String span = "";
    if (e.threadName() != null) {
      batch.putString(threadName, e.threadName());
    }
    if (e.threadId() >= 0) {
      batch.putLong(threadId, e.threadId());
    }
    Map<String, String> attributes = e.attributes();
    if (attributes != null) {
      for (Map.Entry<String, String> a : attributes.entrySet()) {
        String key = a.getKey();
        String value = a.getValue();
        if (key == null || value == null || !usable(key)) {
          continue;
        }
        if (key.equals("trace_id")) {
          trace = value;
        } else if (key.equals("span_id")) {
          span = value;
        }
        batch.putString(batch.field(ATTRIBUTES + key), value);
      }
    }
    batch.putString(traceId, trace);
    batch.putString(spanId, span);
    Throwable t = e.thrown();
    if (t != null) {
      batch.putString(exceptionType, t.getClass().getName());
      if (t.getMessage() != null) {
        batch.putString(exceptionMessage, t.getMessage());
      }
      batch.putString(exceptionStack, stackTrace(t));
    }
    batch.endEvent();
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }

  /** Whether an attribute key makes a column name the engine takes. */
  private static boolean usable(String key) {
    if (key.isEmpty() || ATTRIBUTES.length() + key.length() > MAX_NAME_LENGTH) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c) || Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param t an exception
   * @return its stack trace, causes and suppressed exceptions included
   */
  static String stackTrace(Throwable t) {
    StringWriter out = new StringWriter(1024);
    try (PrintWriter w = new PrintWriter(out)) {
      t.printStackTrace(w);
    }
    return out.toString();
  }
}
