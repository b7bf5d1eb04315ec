package dev.chartwell.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import dev.chartwell.engine.Event;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowTest {
  static KeyValue kv(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }

  /** Collects what a row hands over. */
  static final class Collect implements RowSink {
    final List<Event> rows = new ArrayList<>();
    final List<Long> chars = new ArrayList<>();

    @Override
    public void row(OtelTable table, Event row, long chars, long record) {
      rows.add(row);
      this.chars.add(chars);
    }

    @Override
    public void reject(long record, String reason) {
      throw new AssertionError(reason);
    }
  }

  @Test
  void attributesBecomeTextColumnsUnderTheirMap() {
    Row row = new Row();
    row.attributes("LogAttributes", List.of(kv("http.method", "GET"), kv("", "empty key")));
    Collect sink = new Collect();
    row.emit(OtelTable.LOGS, 5, 0, sink);
    assertEquals("GET", sink.rows.get(0).fields().get("LogAttributes.http.method"));
    assertEquals("empty key", sink.rows.get(0).fields().get("LogAttributes."));
    assertEquals(5, sink.rows.get(0).timestamp());
    assertEquals(12L, sink.chars.get(0));
  }

  @Test
  void keysNoColumnCanBeNamedAfterRejectTheRecord() {
    Row row = new Row();
    String longKey = "k".repeat(300);
    Rejected e =
        assertThrows(
            Rejected.class, () -> row.attributes("SpanAttributes", List.of(kv(longKey, "v"))));
    assertEquals(
        "SpanAttributes: the key '"
            + "k".repeat(40)
            + "...' is too long; column names"
            + " (SpanAttributes.<key>) have at most 256 characters",
        e.getMessage());
    e = assertThrows(Rejected.class, () -> row.attributes("Attributes", List.of(kv("a\tb", "v"))));
    assertEquals("Attributes: the key 'a?b' holds a control character", e.getMessage());
  }

  @Test
  void aRowHoldsAtMostItsShareOfText() {
    Row row = new Row();
    row.text("Body", "b".repeat(Signal.MAX_ROW_CHARS - 10));
    row.text("Small", "s".repeat(11));
    Rejected e = assertThrows(Rejected.class, () -> row.emit(OtelTable.LOGS, 0, 0, new Collect()));
    assertEquals(
        "Body: the record holds 4,194,305 characters of text (4,194,294 of them in this column),"
            + " more than the 4,194,304 one record may hold",
        e.getMessage());
  }

  @Test
  void idsTimesAndNumbersAreChecked() {
    assertEquals("", Row.traceId("TraceId", ByteString.EMPTY, false));
    assertEquals(
        "000102030405060708090a0b0c0d0eff",
        Row.traceId(
            "TraceId",
            ByteString.copyFrom(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, -1}),
            true));
    assertEquals(
        "SpanId: a span id has 8 bytes, this one has 0",
        assertThrows(Rejected.class, () -> Row.spanId("SpanId", ByteString.EMPTY, true))
            .getMessage());
    assertEquals(
        "StartTimeUnix: 9223372036854775808 ns is after the year 2262, the latest time that can"
            + " be stored",
        assertThrows(Rejected.class, () -> Row.checkedNanos("StartTimeUnix", Long.MIN_VALUE))
            .getMessage());
    Row row = new Row();
    assertEquals(
        "Sum: NaN cannot be stored, only finite numbers",
        assertThrows(Rejected.class, () -> row.real("Sum", Double.NaN)).getMessage());
    assertEquals(
        "Count: 18446744073709551615 is larger than the largest count stored",
        assertThrows(Rejected.class, () -> row.count("Count", -1)).getMessage());
  }
}
