package dev.chartwell.integrations;

import java.util.Map;

/**
 * One log event of an application, as a logging framework hands it over, in the terms of an
 * OpenTelemetry log record. The logging integrations make one on the application's thread (cheap:
 * no formatting beyond the message, no stack trace rendering) and {@link LogPipeline} turns it into
 * a row of {@code otel_logs} on its own thread.
 *
 * @param epochNanos the event's time, nanoseconds since the epoch
 * @param severityText the level's name, as the framework spells it ({@code INFO})
 * @param severityNumber the OpenTelemetry severity number of the level ({@link Severity})
 * @param loggerName the logger's name; stored as {@code ScopeName}, as OpenTelemetry's appenders
 *     use it for the instrumentation scope
 * @param threadName the name of the thread that logged
 * @param threadId the id of that thread
 * @param message the formatted message; stored as {@code Body}
 * @param attributes the context (MDC, thread context): stored as {@code LogAttributes.<key>};
 *     {@code trace_id} and {@code span_id}, where OpenTelemetry's instrumentation puts them, also
 *     fill {@code TraceId} and {@code SpanId}
 * @param thrown the exception logged with the event, or {@code null}
 */
public record LogEntry(
    long epochNanos,
    String severityText,
    int severityNumber,
    String loggerName,
    String threadName,
    long threadId,
    String message,
    Map<String, String> attributes,
    Throwable thrown) {}
