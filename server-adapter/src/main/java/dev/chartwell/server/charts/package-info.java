/**
 * The chart and data interface of the HyperDX/ClickStack API: ingestion ({@code POST
 * /api/v2/sources/{sourceId}/events}, NDJSON or a JSON array, streamed) and the chart query ({@code
 * POST /api/v2/charts/series}), authenticated with a service's password as Bearer token.
 */
package dev.chartwell.server.charts;
