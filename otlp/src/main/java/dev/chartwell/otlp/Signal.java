package dev.chartwell.otlp;

import com.google.protobuf.Descriptors.Descriptor;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.util.List;

/**
 * The three OTLP signals: their export request and response, the tables their records go to, and
 * the decoding of a request.
 *
 * <p>Decoding is two passes over the request's bytes: {@link #check} parses every record and keeps
 * nothing, so that a body that does not decode is refused whole before anything is stored; {@link
 * #decode} then turns record after record into rows. Only one record (or one resource, scope or
 * metric header) exists as an object at a time, whatever the size of the request.
 */
public enum Signal {
  /** Logs: {@code /v1/logs}, into {@code otel_logs}. */
  LOGS(
      "/v1/logs",
      "log records",
      "rejectedLogRecords",
      ExportLogsServiceRequest.getDescriptor(),
      List.of(OtelTable.LOGS),
      new LogDecoder()),
  /** Traces: {@code /v1/traces}, into {@code otel_traces}. */
  TRACES(
      "/v1/traces",
      "spans",
      "rejectedSpans",
      ExportTraceServiceRequest.getDescriptor(),
      List.of(OtelTable.TRACES),
      new SpanDecoder()),
  /** Metrics: {@code /v1/metrics}, into the {@code otel_metrics_*} table of each point's kind. */
  METRICS(
      "/v1/metrics",
      "data points",
      "rejectedDataPoints",
      ExportMetricsServiceRequest.getDescriptor(),
      OtelTable.metricTables(),
      new MetricDecoder());

  /**
   * How deep the messages of one record (or resource, or scope) may nest: a key-value list inside
   * an attribute value costs three levels, an array two. Deeper records are refused, as the body
   * that holds them.
   */
  public static final int MAX_RECORD_DEPTH = 64;

  /**
   * The most characters of text one row may hold, its resource's and scope's columns included; past
   * it the record is rejected (and named), so that no single row outgrows what the engine logs in
   * one write.
   */
  public static final int MAX_ROW_CHARS = 4 << 20;

  private final String path;
  private final String records;
  private final String rejectedField;
  private final Descriptor request;
  private final List<OtelTable> tables;
  private final RequestDecoder decoder;

  Signal(
      String path,
      String records,
      String rejectedField,
      Descriptor request,
      List<OtelTable> tables,
      RequestDecoder decoder) {
    this.path = path;
    this.records = records;
    this.rejectedField = rejectedField;
    this.request = request;
    this.tables = tables;
    this.decoder = decoder;
  }

  /**
   * @return the OTLP/HTTP path, {@code /v1/logs}, {@code /v1/traces} or {@code /v1/metrics}
   */
  public String path() {
    return path;
  }

  /**
   * @return what its records are called, plural: {@code log records}, {@code spans}, {@code data
   *     points}
   */
  public String records() {
    return records;
  }

  /**
   * @return the JSON name of the response's count of rejected records ({@code rejectedSpans})
   */
  public String rejectedField() {
    return rejectedField;
  }

  /**
   * @return the protobuf descriptor of its export request, for reading its JSON encoding
   */
  public Descriptor requestDescriptor() {
    return request;
  }

  /**
   * @return the tables its records go to; the first is the one its ClickStack source reads
   */
  public List<OtelTable> tables() {
    return tables;
  }

  /**
   * Parses a whole request and keeps nothing.
   *
   * @param body the request's protobuf encoding
   * @return how many records it holds and about how large their rows are
   * @throws OtlpFormatException when it is not a valid export request of this signal
   */
  public Checked check(byte[] body) throws OtlpFormatException {
    Walk walk = Walk.checking(body);
    decoder.walk(walk);
    return walk.checked();
  }

  /**
   * Turns a request into rows, record by record, in request order. Check the request first: a body
   * that fails here has already given rows to the sink.
   *
   * @param body the request's protobuf encoding
   * @param receivedNanos when the request arrived, the time of log records without one
   * @param sink receives the rows and the rejected records
   * @throws OtlpFormatException when it is not a valid export request of this signal
   */
  public void decode(byte[] body, long receivedNanos, RowSink sink) throws OtlpFormatException {
    decoder.walk(Walk.converting(body, sink, receivedNanos));
  }

  /**
   * @param rejected how many records were rejected
   * @param message why, or {@code null} when none was
   * @return the protobuf encoding of the export response: empty on full success, with {@code
   *     partial_success} otherwise
   */
  public byte[] response(long rejected, String message) {
    if (rejected == 0 && message == null) {
      return new byte[0];
    }
    return switch (this) {
      case LOGS ->
          ExportLogsServiceResponse.newBuilder()
              .setPartialSuccess(
                  ExportLogsPartialSuccess.newBuilder()
                      .setRejectedLogRecords(rejected)
                      .setErrorMessage(message == null ? "" : message))
              .build()
              .toByteArray();
      case TRACES ->
          ExportTraceServiceResponse.newBuilder()
              .setPartialSuccess(
                  ExportTracePartialSuccess.newBuilder()
                      .setRejectedSpans(rejected)
                      .setErrorMessage(message == null ? "" : message))
              .build()
              .toByteArray();
      case METRICS ->
          ExportMetricsServiceResponse.newBuilder()
              .setPartialSuccess(
                  ExportMetricsPartialSuccess.newBuilder()
                      .setRejectedDataPoints(rejected)
                      .setErrorMessage(message == null ? "" : message))
              .build()
              .toByteArray();
    };
  }
}
