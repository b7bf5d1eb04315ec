/**
 * An application that embeds Chartwell: it opens an engine on its own data directory, logs through
 * the Logback appender into the engine's {@code otel_logs}, records Micrometer meters into the
 * engine's {@code otel_metrics_*} sources, charts its own errors per minute with a chart query, and
 * serves the web UI over the same engine with the embedded server. Built and run by the normal
 * build, so it stays true.
 */
package dev.chartwell.examples.embedded;
