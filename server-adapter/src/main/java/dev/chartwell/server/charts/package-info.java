/**
 * The chart and data interface of the HyperDX/ClickStack API, authenticated with a service's
 * password as Bearer token: ingestion ({@code POST /api/v2/sources/{sourceId}/events}, NDJSON or a
 * JSON array, streamed into the table the source reads), the chart query ({@code POST
 * /api/v2/charts/series}), and Chartwell's own {@code /api/v2/tables} and {@code
 * /api/v2/.../timestamps}.
 */
package dev.chartwell.server.charts;
