package dev.chartwell.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
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
          public void row(
              OtelTable table, dev.chartwell.engine.source.Event row, long chars, long n) {
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
