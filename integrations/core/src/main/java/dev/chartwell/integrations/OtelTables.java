package dev.chartwell.integrations;

import static dev.chartwell.engine.ColumnType.BOOL;
import static dev.chartwell.engine.ColumnType.DOUBLE;
import static dev.chartwell.engine.ColumnType.LONG;
import static dev.chartwell.engine.ColumnType.STRING;

import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The engine sources an application's logs and meters go to, shaped as the server's OTLP ingestion
 * shapes the OpenTelemetry ClickHouse exporter's tables: the same time, body and implicit columns
 * and the same declared columns with the same types, so that a source created here and one created
 * by an OTLP write are interchangeable. The source's id is the table's name ({@code otel_logs},
 * {@code otel_metrics_gauge}, ...), which is how the embedded server finds them.
 *
 * <p>Attributes become string columns named {@code <map>.<key>} when first seen: {@code
 * LogAttributes.<key>} for a log record, {@code Attributes.<key>} for a metric point, {@code
 * ResourceAttributes.<key>} for both.
 */
public enum OtelTables {
  /** Log records: {@code otel_logs}. */
  LOGS(
      "otel_logs",
      SourceKind.LOG,
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

  /** Gauge points: {@code otel_metrics_gauge}. */
  GAUGE("otel_metrics_gauge", SourceKind.METRIC, "TimeUnix", null, null, metric("Value", DOUBLE)),

  /** Sum points with their temporality and monotonicity: {@code otel_metrics_sum}. */
  SUM(
      "otel_metrics_sum",
      SourceKind.METRIC,
      "TimeUnix",
      null,
      null,
      metric("Value", DOUBLE, "AggregationTemporality", LONG, "IsMonotonic", BOOL)),

  /** Explicit-bucket histogram points: {@code otel_metrics_histogram}. */
  HISTOGRAM(
      "otel_metrics_histogram",
      SourceKind.METRIC,
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
          "AggregationTemporality", LONG));

  /** {@code AggregationTemporality}: each point holds the change since the previous one. */
  public static final long DELTA = 1;

  /** {@code AggregationTemporality}: each point holds the total since the start time. */
  public static final long CUMULATIVE = 2;

  private final String tableName;
  private final SourceKind kind;
  private final String timestampColumn;
  private final String bodyColumn;
  private final String implicitColumn;
  private final List<ColumnSpec> columns;

  OtelTables(
      String tableName,
      SourceKind kind,
      String timestampColumn,
      String bodyColumn,
      String implicitColumn,
      List<ColumnSpec> columns) {
    this.tableName = tableName;
    this.kind = kind;
    this.timestampColumn = timestampColumn;
    this.bodyColumn = bodyColumn;
    this.implicitColumn = implicitColumn;
    this.columns = columns;
  }

  /**
   * @return the table's name, which is also the default id of its source
   */
  public String tableName() {
    return tableName;
  }

  /**
   * @return the column of the event time (epoch milliseconds)
   */
  public String timestampColumn() {
    return timestampColumn;
  }

  /**
   * @return the declared columns (the time column is not among them)
   */
  public List<ColumnSpec> columns() {
    return columns;
  }

  /**
   * @param sourceId the id of the source
   * @return the definition of a source shaped as this table
   */
  public SourceSpec spec(String sourceId) {
    // The one place this module builds a SourceSpec.
    return new SourceSpec(
        sourceId, tableName, kind, timestampColumn, bodyColumn, implicitColumn, columns);
  }

  /**
   * Finds the source, or creates it shaped as this table. Two callers racing to create it both get
   * the one that was created.
   *
   * @param engine the engine
   * @param sourceId the id of the source
   * @return the source
   */
  public Source ensure(Engine engine, String sourceId) {
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(sourceId, "sourceId");
    return engine
        .source(sourceId)
        .orElseGet(
            () -> {
              try {
                return engine.createSource(spec(sourceId));
              } catch (IllegalArgumentException e) {
                return engine.source(sourceId).orElseThrow(() -> e);
              }
            });
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
