/**
 * Prometheus for Chartwell: the series model shared by PromQL and remote write.
 *
 * <p>{@link dev.chartwell.prometheus.SeriesSource} is the one seam between a store and the PromQL
 * evaluator: the server implements it over its metric tables, tests over plain lists. A series is a
 * {@link dev.chartwell.prometheus.Labels label set} ({@code __name__} included) with its samples in
 * time order ({@link dev.chartwell.prometheus.SeriesData}); a Prometheus staleness marker is kept
 * as the exact NaN {@link dev.chartwell.prometheus.SeriesData#STALE_NAN} bit pattern.
 */
package dev.chartwell.prometheus;
