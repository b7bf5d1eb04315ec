/**
 * OpenTelemetry ingestion without HTTP: an OTLP export request, in its protobuf encoding, becomes
 * rows of the OpenTelemetry ClickHouse exporter's tables ({@code otel_logs}, {@code otel_traces},
 * {@code otel_metrics_*}) with that exporter's column names. {@link dev.chartwell.otlp.OtelTable}
 * defines the tables; {@link dev.chartwell.otlp.Signal} decodes a request in two passes over its
 * bytes (first check it all, then convert record by record), so that a body that does not decode
 * stores nothing and a large one never exists as one object tree. The Java bindings of the OTLP
 * definitions are generated at build time from {@code src/main/protobuf}.
 */
package dev.chartwell.otlp;
