package dev.chartwell.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalTest {
  static final long T0 = RandomRequests.T0;

  static ExportLogsServiceRequest request(Resource resource, LogRecord... records) {
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(
            ResourceLogs.newBuilder()
                .setResource(resource)
                .addScopeLogs(ScopeLogs.newBuilder().addAllLogRecords(List.of(records))))
        .build();
  }

  static LogRecord record(long time) {
    return LogRecord.newBuilder().setTimeUnixNano(time).build();
  }

  @Test
  void checkingCountsRecordsAndWhatTheirSharedResourceAddsToEach() throws Exception {
    Resource big = Resource.newBuilder().addAttributes(RowTest.kv("pad", "p".repeat(1000))).build();
    ExportLogsServiceRequest r = request(big, record(T0), record(T0 + 1), record(T0 + 2));
    Checked c = Signal.LOGS.check(r.toByteArray());
    assertEquals(3, c.records());
    int record = record(T0).getSerializedSize();
    assertEquals(3L * (record + big.getSerializedSize()), c.expandedBytes());
  }

  @Test
  void aResourceKeyNoColumnCanBeNamedAfterRejectsEveryRecordUnderIt() throws Exception {
    Resource bad = Resource.newBuilder().addAttributes(RowTest.kv("new\nline", "x")).build();
    List<String> reasons = new ArrayList<>();
    Signal.LOGS.decode(
        request(bad, record(T0), record(T0)).toByteArray(),
        0,
        new RowSink() {
          @Override
          public void row(OtelTable table, dev.chartwell.engine.Event row, long chars, long n) {
            throw new AssertionError("stored");
          }

          @Override
          public void reject(long n, String reason) {
            reasons.add(n + " " + reason);
          }
        });
    assertEquals(
        List.of(
            "0 ResourceAttributes: the key 'new?line' holds a control character",
            "1 ResourceAttributes: the key 'new?line' holds a control character"),
        reasons);
  }

  @Test
  void recordsNestingTooDeepAreRefusedWithTheirPath() {
    AnyValue v = AnyValue.newBuilder().setStringValue("x").build();
    for (int i = 0; i < 30; i++) {
      v =
          AnyValue.newBuilder()
              .setKvlistValue(
                  KeyValueList.newBuilder()
                      .addValues(KeyValue.newBuilder().setKey("k").setValue(v)))
              .build();
    }
    LogRecord deep = record(T0).toBuilder().setBody(v).build();
    OtlpFormatException e =
        assertThrows(
            OtlpFormatException.class,
            () ->
                Signal.LOGS.check(
                    request(Resource.getDefaultInstance(), record(T0), deep).toByteArray()));
    assertEquals(
        "resourceLogs[0].scopeLogs[0].logRecords[1]: messages nest more than 64 levels deep"
            + " (key-value lists and arrays inside attribute values count)",
        e.getMessage());
    assertTrue(Signal.MAX_RECORD_DEPTH < 100); // tighter than protobuf's own default
  }

  @Test
  void aGroupEndInsideARecordFailsItAsProtobufDoes() throws Exception {
    byte[] log = record(T0).toByteArray();
    byte[] broken = new byte[log.length + 1];
    broken[0] = 0x0c; // an end-group tag (field 1, wire type 4) where the record starts
    System.arraycopy(log, 0, broken, 1, log.length);
    byte[] damaged = rewrap(broken);
    assertThrows(
        com.google.protobuf.InvalidProtocolBufferException.class,
        () -> ExportLogsServiceRequest.parseFrom(damaged));
    OtlpFormatException e =
        assertThrows(OtlpFormatException.class, () -> Signal.LOGS.check(damaged));
    assertEquals(
        "resourceLogs[0].scopeLogs[0].logRecords[0]: a group end that matches no group start",
        e.getMessage());
    assertEquals(1, Signal.LOGS.check(rewrap(log)).records());
  }

  /**
   * The shrunk falsifying input of {@code SignalProperties} (seed 40906874018613): a metric whose
   * data is first a gauge whose bytes do not decode (one byte, {@code 0x61}: the tag of a 64-bit
   * field with no bytes after it), then a summary, which replaces it. Protobuf parses the gauge
   * before dropping it and refuses the request; it used to be dropped unread and the request
   * accepted.
   */
  @Test
  void aMetricsDataThatALaterMemberReplacesMustStillDecode() {
    byte[] body = {
      0x0a,
      0x09, // resourceMetrics[0], 9 bytes
      0x12,
      0x07, //   scopeMetrics[0], 7 bytes
      0x12,
      0x05, //     metrics[0], 5 bytes
      0x2a,
      0x01,
      0x61, //  gauge, 1 byte: field 12, 64 bits, cut short
      0x5a,
      0x00 //         summary, empty: replaces the gauge
    };
    assertThrows(
        com.google.protobuf.InvalidProtocolBufferException.class,
        () -> ExportMetricsServiceRequest.parseFrom(body));
    OtlpFormatException e =
        assertThrows(OtlpFormatException.class, () -> Signal.METRICS.check(body));
    assertEquals(
        "resourceMetrics[0].scopeMetrics[0].metrics[0].gauge (replaced by a later summary): the"
            + " data ends in the middle of a field (the body is truncated, or a length inside it"
            + " is wrong)",
        e.getMessage());
  }

  @Test
  void aReplacedMetricsDataPointsMustDecodeButAreNeitherCountedNorStored() throws Exception {
    NumberDataPoint point = NumberDataPoint.newBuilder().setTimeUnixNano(T0).setAsInt(1).build();
    byte[] gauge =
        Metric.newBuilder().setGauge(Gauge.newBuilder().addDataPoints(point)).build().toByteArray();
    byte[] summary =
        Metric.newBuilder()
            .setName("m")
            .setSummary(
                Summary.newBuilder()
                    .addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(T0).setCount(2)))
            .build()
            .toByteArray();
    byte[] valid = rewrap(concat(gauge, summary));
    assertEquals(Metric.DataCase.SUMMARY, firstMetric(valid).getDataCase());
    assertEquals(1, Signal.METRICS.check(valid).records());
    List<OtelTable> tables = new ArrayList<>();
    Signal.METRICS.decode(
        valid,
        0,
        new RowSink() {
          @Override
          public void row(OtelTable table, dev.chartwell.engine.Event row, long chars, long n) {
            tables.add(table);
          }

          @Override
          public void reject(long n, String reason) {
            throw new AssertionError(reason);
          }
        });
    assertEquals(List.of(OtelTable.SUMMARY), tables);

    byte[] badPoint = point.toByteArray();
    badPoint[0] = 0; // a field tag of zero
    byte[] broken = rewrap(concat(field(5, field(1, badPoint)), field(7, new byte[0]), summary));
    assertThrows(
        com.google.protobuf.InvalidProtocolBufferException.class,
        () -> ExportMetricsServiceRequest.parseFrom(broken));
    OtlpFormatException e =
        assertThrows(OtlpFormatException.class, () -> Signal.METRICS.check(broken));
    assertEquals(
        "resourceMetrics[0].scopeMetrics[0].metrics[0].gauge (replaced by a later sum)"
            + ".dataPoints[0]: a field tag of zero",
        e.getMessage());
  }

  private static Metric firstMetric(byte[] body) throws Exception {
    return ExportMetricsServiceRequest.parseFrom(body)
        .getResourceMetrics(0)
        .getScopeMetrics(0)
        .getMetrics(0);
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** A request of one resource, one scope and one record whose bytes are {@code record}. */
  private static byte[] rewrap(byte[] record) throws java.io.IOException {
    byte[] scope = field(2, record);
    byte[] resource = field(2, scope);
    return field(1, resource);
  }

  private static byte[] field(int number, byte[] bytes) throws java.io.IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    com.google.protobuf.CodedOutputStream c =
        com.google.protobuf.CodedOutputStream.newInstance(out);
    c.writeByteArray(number, bytes);
    c.flush();
    return out.toByteArray();
  }

  @Test
  void responsesCarryPartialSuccessOnlyWhenSomethingWasRejected() throws Exception {
    assertEquals(0, Signal.TRACES.response(0, null).length);
    var r =
        io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse.parseFrom(
            Signal.METRICS.response(3, "why"));
    assertEquals(3, r.getPartialSuccess().getRejectedDataPoints());
    assertEquals("why", r.getPartialSuccess().getErrorMessage());
  }
}
