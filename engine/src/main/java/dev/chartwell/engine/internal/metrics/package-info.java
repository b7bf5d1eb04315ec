/**
 * Internal (not part of the API; it changes without notice). Metric series: chart series over
 * OpenTelemetry metric tables (the ClickHouse exporter's gauge, sum and histogram tables), with
 * HyperDX's semantics. The matching points of the named metric are gathered from every segment, put
 * in time order per time series (one combination of attribute values), turned into one value per
 * time series and bucket (a gauge's last value, a counter's increase, a histogram's bucket-count
 * deltas), and then aggregated across the time series of each (bucket, group) by the series'
 * aggregation.
 */
package dev.chartwell.engine.internal.metrics;
