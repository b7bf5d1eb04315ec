package dev.chartwell.otlp;

import static dev.chartwell.engine.ColumnType.BOOL;
import static dev.chartwell.engine.ColumnType.DOUBLE;
import static dev.chartwell.engine.ColumnType.LONG;
import static dev.chartwell.engine.ColumnType.STRING;

import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables OTLP data is written to, named and shaped as the OpenTelemetry ClickHouse exporter
 * creates them, so that the column names every HyperDX user knows work unchanged. Each table
 * declares its fixed columns with their types; attributes become further string columns named
 * {@code <map>.<key>} ({@code LogAttributes.http.method}) when first seen.
 *
 * <p>The engine keeps event time in milliseconds ({@link #timestampColumn()}); the full nanosecond
 * value is kept beside it in {@link #nanosColumn()}. Other times ({@code StartTimeUnix}, {@code
 * ObservedTimestamp}, the times inside events and exemplars) are epoch nanoseconds, and {@code
 * Duration} is nanoseconds. ClickHouse's arrays and nested columns ({@code BucketCounts}, {@code
 * Events.Name}, ...) are JSON arrays in string columns.
 */
public enum OtelTable {
  /** Log records. */
  LOGS(
      "otel_logs",
      "log",
      null,
      "Timestamp",
      "Body",
      "Body",
      columns(
          "TimestampNanos", LONG,
          "ObservedTimestamp", LONG,
          "TraceId", STRING,
          "SpanId", STRING,
          "TraceFlags", LONG,
          "SeverityText", STRING,
          "SeverityNumber", LONG,
          "ServiceName", STRING,
          "Body", STRING,
          "EventName", STRING,
          "ResourceSchemaUrl", STRING,
          "ScopeSchemaUrl", STRING,
          "ScopeName", STRING,
          "ScopeVersion", STRING)),

  /** Spans. */
  TRACES(
      "otel_traces",
      "trace",
      null,
      "Timestamp",
      null,
      "SpanName",
      columns(
          "TimestampNanos", LONG,
          "TraceId", STRING,
          "SpanId", STRING,
          "ParentSpanId", STRING,
          "TraceState", STRING,
          "TraceFlags", LONG,
          "SpanName", STRING,
          "SpanKind", STRING,
          "ServiceName", STRING,
          "ResourceSchemaUrl", STRING,
          "ScopeSchemaUrl", STRING,
          "ScopeName", STRING,
          "ScopeVersion", STRING,
          "Duration", LONG,
          "StatusCode", STRING,
          "StatusMessage", STRING,
          "Events.Timestamp", STRING,
          "Events.Name", STRING,
          "Events.Attributes", STRING,
          "Links.TraceId", STRING,
          "Links.SpanId", STRING,
          "Links.TraceState", STRING,
          "Links.Attributes", STRING)),

  /** Gauge data points. */
  GAUGE("otel_metrics_gauge", "metric", "gauge", "TimeUnix", null, null, metric("Value", DOUBLE)),

  /** Sum data points, with their temporality and monotonicity. */
  SUM(
      "otel_metrics_sum",
      "metric",
      "sum",
      "TimeUnix",
      null,
      null,
      metric("Value", DOUBLE, "AggregationTemporality", LONG, "IsMonotonic", BOOL)),

  /** Histogram data points with explicit bucket bounds. */
  HISTOGRAM(
      "otel_metrics_histogram",
      "metric",
      "histogram",
      "TimeUnix",
      null,
      null,
      metric(
          "Count", LONG,
          "Sum", DOUBLE,
          "BucketCounts", STRING,
          "ExplicitBounds", STRING,
          "Min", DOUBLE,
          "Max", DOUBLE,
          "AggregationTemporality", LONG)),

  /** Exponential histogram data points. */
  EXPONENTIAL_HISTOGRAM(
      "otel_metrics_exponential_histogram",
      "metric",
      "exponential histogram",
      "TimeUnix",
      null,
      null,
      metric(
          "Count", LONG,
          "Sum", DOUBLE,
          "Scale", LONG,
          "ZeroCount", LONG,
          "ZeroThreshold", DOUBLE,
          "PositiveOffset", LONG,
          "PositiveBucketCounts", STRING,
          "NegativeOffset", LONG,
          "NegativeBucketCounts", STRING,
          "Min", DOUBLE,
          "Max", DOUBLE,
          "AggregationTemporality", LONG)),

  /** Summary data points with their quantiles. */
  SUMMARY(
      "otel_metrics_summary",
      "metric",
      "summary",
      "TimeUnix",
      null,
      null,
      metric(
          "Count", LONG,
          "Sum", DOUBLE,
          "ValueAtQuantiles.Quantile", STRING,
          "ValueAtQuantiles.Value", STRING));

  private final String tableName;
  private final String sourceKind;
  private final String metricType;
  private final String timestampColumn;
  private final String bodyColumn;
  private final String implicitColumn;
  private final List<ColumnSpec> columns;

  OtelTable(
      String tableName,
      String sourceKind,
      String metricType,
      String timestampColumn,
      String bodyColumn,
      String implicitColumn,
      List<ColumnSpec> columns) {
    this.tableName = tableName;
    this.sourceKind = sourceKind;
    this.metricType = metricType;
    this.timestampColumn = timestampColumn;
    this.bodyColumn = bodyColumn;
    this.implicitColumn = implicitColumn;
    this.columns = columns;
  }

  /**
   * @return the table name, as the ClickHouse exporter names it
   */
  public String tableName() {
    return tableName;
  }

  /**
   * @return the ClickStack source kind that reads it: {@code log}, {@code trace} or {@code metric}
   */
  public String sourceKind() {
    return sourceKind;
  }

  /**
   * @return for a metric table, its key in a metric source's {@code metricTables} ({@code gauge},
   *     {@code sum}, {@code histogram}, {@code exponential histogram}, {@code summary}); otherwise
   *     {@code null}
   */
  public String metricType() {
    return metricType;
  }

  /**
   * @return the event time column: epoch milliseconds in the engine
   */
  public String timestampColumn() {
    return timestampColumn;
  }

  /**
   * @return the column holding the event time in epoch nanoseconds
   */
  public String nanosColumn() {
    return timestampColumn + "Nanos";
  }

  /**
   * @return the message column, or {@code null}
   */
  public String bodyColumn() {
    return bodyColumn;
  }

  /**
   * @return the column bare search terms look in (it gets a token index), or {@code null}
   */
  public String implicitColumn() {
    return implicitColumn;
  }

  /**
   * @return the declared columns with their types (the timestamp column is not among them)
   */
  public List<ColumnSpec> columns() {
    return columns;
  }

  /**
   * @return the metric tables, in the order of ClickStack's {@code metricTables}
   */
  public static List<OtelTable> metricTables() {
    return List.of(GAUGE, SUM, HISTOGRAM, EXPONENTIAL_HISTOGRAM, SUMMARY);
  }

  private static List<ColumnSpec> columns(Object... nameTypePairs) {
    List<ColumnSpec> out = new ArrayList<>();
    for (int i = 0; i < nameTypePairs.length; i += 2) {
      out.add(new ColumnSpec((String) nameTypePairs[i], (ColumnType) nameTypePairs[i + 1]));
    }
    return List.copyOf(out);
  }

  /** The columns every metric table has, then those of its kind of point. */
  private static List<ColumnSpec> metric(Object... own) {
    List<ColumnSpec> out =
        new ArrayList<>(
            columns(
                "TimeUnixNanos", LONG,
                "StartTimeUnix", LONG,
                "ResourceSchemaUrl", STRING,
                "ScopeName", STRING,
                "ScopeVersion", STRING,
                "ScopeDroppedAttrCount", LONG,
                "ScopeSchemaUrl", STRING,
                "ServiceName", STRING,
                "MetricName", STRING,
                "MetricDescription", STRING,
                "MetricUnit", STRING,
                "Flags", LONG,
                "Exemplars.FilteredAttributes", STRING,
                "Exemplars.TimeUnix", STRING,
                "Exemplars.Value", STRING,
                "Exemplars.SpanId", STRING,
                "Exemplars.TraceId", STRING));
    out.addAll(columns(own));
    return List.copyOf(out);
  }
}
