/**
 * Prometheus in and out: remote write into a service's metric tables ({@code POST /api/v1/write}),
 * the HTTP API Grafana's Prometheus data source reads ({@code /api/v1/...}) over those tables as
 * Prometheus series ({@link dev.chartwell.server.prometheus.MetricStore}, with OpenTelemetry names
 * translated), and the server's own figures at {@code /metrics} ({@link
 * dev.chartwell.server.prometheus.ServerMeters}).
 */
package dev.chartwell.server.prometheus;
