/**
 * What Chartwell's logging and metrics integrations share, kept small so that each integration
 * module stays a thin adapter. {@link dev.chartwell.integrations.OtelTables} defines the sources
 * the OpenTelemetry ClickHouse exporter's tables ({@code otel_logs}, {@code otel_metrics_*}) become
 * in an embedded engine, with the columns the server's OTLP ingestion declares, so that the UI,
 * search and alerts read an application's own logs and meters as they read any OTLP data. {@link
 * dev.chartwell.integrations.LogPipeline} is the non-blocking path from an application's logging
 * call to the engine: a bounded queue the logging thread only offers to, one background thread that
 * batches by size and time into an {@code EventBatch}, and counters of what it had to drop. Only
 * the engine's user-facing types are used here.
 */
package dev.chartwell.integrations;
