/**
 * A Logback appender that stores the application's own log events in an embedded Chartwell engine,
 * as rows of {@code otel_logs} (level, logger, thread, message, MDC, exception and time in the
 * columns OTLP ingestion fills), so that the server's UI, search and alerts show them as any
 * OpenTelemetry log. {@link dev.chartwell.logback.ChartwellAppender} never blocks the logging
 * thread beyond its configured wait: it offers each event to a bounded queue, and one background
 * thread batches the events into the engine, counting what it had to drop. It is configured through
 * Logback's XML setters and given its engine by the application ({@link
 * dev.chartwell.logback.ChartwellAppender#attach(dev.chartwell.engine.Engine)}).
 */
package dev.chartwell.logback;
