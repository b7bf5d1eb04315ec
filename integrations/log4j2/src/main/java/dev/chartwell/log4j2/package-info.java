/**
 * A Log4j 2 appender that stores the application's own log events in an embedded Chartwell engine,
 * as rows of {@code otel_logs} (level, logger, thread, message, thread context, exception and time
 * in the columns OTLP ingestion fills), so that the server's UI, search and alerts show them as any
 * OpenTelemetry log. {@link dev.chartwell.log4j2.ChartwellAppender} (the {@code Chartwell} plugin)
 * never blocks the logging thread beyond its configured wait: it offers each event to a bounded
 * queue, and one background thread batches the events into the engine, counting what it had to
 * drop. It is configured as a plugin with a builder and given its engine by the application ({@link
 * dev.chartwell.log4j2.ChartwellAppender#attach(dev.chartwell.engine.Engine)}).
 */
package dev.chartwell.log4j2;
