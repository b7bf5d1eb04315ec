/**
 * OpenTelemetry ingestion over OTLP/HTTP: {@code POST /v1/logs}, {@code /v1/traces} and {@code
 * /v1/metrics}, in protobuf or JSON, with or without gzip, authenticated by a service's Bearer
 * token. {@link dev.chartwell.server.otlp.OtlpRoutes} holds the body (within a budget shared by all
 * such requests), reads JSON into protobuf ({@link dev.chartwell.server.otlp.OtlpJson}), has the
 * whole request checked before anything is stored, creates the {@code otel_*} tables and their
 * ClickStack sources on a warehouse's first write ({@link dev.chartwell.server.otlp.OtelSources}),
 * and writes the rows in batches ({@link dev.chartwell.server.otlp.TableWriter}). Answers follow
 * the OTLP/HTTP specification: the export response in the request's encoding, with {@code
 * partial_success} for rejected records, and errors as a {@code Status} message.
 */
package dev.chartwell.server.otlp;
