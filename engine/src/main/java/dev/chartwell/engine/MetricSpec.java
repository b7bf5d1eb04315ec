package dev.chartwell.engine;

import java.util.List;

/**
 * What makes a chart series a metric series: the metric it reads and its data type. The source is
 * then a metric table with the OpenTelemetry ClickHouse exporter's columns: {@value #NAME_COLUMN},
 * {@value #VALUE_COLUMN} (gauges and sums), {@value #TEMPORALITY_COLUMN} ({@code 1} delta, anything
 * else cumulative), and for histograms {@value #BUCKET_COUNTS_COLUMN} and {@value #BOUNDS_COLUMN}
 * (JSON arrays of numbers, as ingestion stores arrays) and {@value #COUNT_COLUMN}. A time series is
 * one combination of the values of {@code ServiceName} and of every column under {@link
 * #IDENTITY_PREFIXES} (its attributes).
 *
 * @param name the metric's name (the value of {@value #NAME_COLUMN})
 * @param type its data type
 */
public record MetricSpec(String name, MetricType type) {
  /** The column holding the metric's name. */
  public static final String NAME_COLUMN = "MetricName";

  /** The column holding a gauge's or sum's value. */
  public static final String VALUE_COLUMN = "Value";

  /** The column holding the aggregation temporality ({@code 1} delta, {@code 2} cumulative). */
  public static final String TEMPORALITY_COLUMN = "AggregationTemporality";

  /** The column holding a histogram's bucket counts (a JSON array). */
  public static final String BUCKET_COUNTS_COLUMN = "BucketCounts";

  /** The column holding a histogram's explicit bucket bounds (a JSON array). */
  public static final String BOUNDS_COLUMN = "ExplicitBounds";

  /** The column holding a histogram's number of observations. */
  public static final String COUNT_COLUMN = "Count";

  /** The column holding the service, part of a time series' identity. */
  public static final String SERVICE_COLUMN = "ServiceName";

  /** The prefixes of the (flattened) attribute columns that identify a time series. */
  public static final List<String> IDENTITY_PREFIXES =
      List.of("Attributes.", "ResourceAttributes.", "ScopeAttributes.");

  /**
   * @param column a column name
   * @return whether the column is part of a time series' identity
   */
  public static boolean identifies(String column) {
    if (column.equals(SERVICE_COLUMN)) {
      return true;
    }
    for (String p : IDENTITY_PREFIXES) {
      if (column.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
