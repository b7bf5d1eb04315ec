/**
 * Micrometer for an embedded Chartwell engine, both ways. {@link
 * dev.chartwell.micrometer.ChartwellMeterRegistry} is a push registry that stores the application's
 * meters as metric points in the engine, in sources shaped as the OpenTelemetry ClickHouse
 * exporter's {@code otel_metrics_gauge}, {@code otel_metrics_sum} and {@code
 * otel_metrics_histogram} tables, so that the engine's metric series (and the server's
 * HyperDX-style metric charts) read them as they read metrics received over OTLP: counters as
 * monotonic cumulative sums, gauges as gauges, timers and distribution summaries as cumulative
 * explicit-bucket histograms. {@link dev.chartwell.micrometer.ChartwellEngineMetrics} is a {@code
 * MeterBinder} that exposes the engine's own figures (events, ingestion rate, seal backlog, bytes
 * held and on disk, queries) to any registry.
 */
package dev.chartwell.micrometer;
