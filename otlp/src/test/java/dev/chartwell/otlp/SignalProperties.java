package dev.chartwell.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.chartwell.engine.Event;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Laws of decoding, over random requests: checking counts every record; decoding hands each record
 * over exactly once, in order, as a row or a rejection; and a damaged body is refused by the check
 * exactly when protobuf itself cannot parse it, and then never half-decoded.
 */
class SignalProperties {
  /** Records every call, in order. */
  static final class Calls implements RowSink {
    final List<Long> records = new ArrayList<>();
    final List<Event> rows = new ArrayList<>();

    @Override
    public void row(OtelTable table, Event row, long chars, long record) {
      records.add(record);
      rows.add(row);
    }

    @Override
    public void reject(long record, String reason) {
      records.add(record);
    }
  }

  @ParameterizedTest
  @EnumSource(Signal.class)
  void everyRecordIsCheckedAndHandedOverOnceInOrder(Signal signal) {
    qt().withExamples(300)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              RandomRequests.Generated g = RandomRequests.of(signal, seed);
              byte[] body = g.message().toByteArray();
              try {
                assertEquals(g.records(), signal.check(body).records());
                Calls calls = new Calls();
                signal.decode(body, 1, calls);
                assertEquals(g.records(), calls.records.size());
                for (int i = 0; i < calls.records.size(); i++) {
                  assertEquals(i, calls.records.get(i));
                }
              } catch (OtlpFormatException e) {
                throw new AssertionError(e.getMessage());
              }
            });
  }

  @ParameterizedTest
  @EnumSource(Signal.class)
  void aDamagedBodyIsRefusedExactlyWhenProtobufRefusesIt(Signal signal) {
    qt().withExamples(500)
        .forAll(longs().all(), integers().between(0, 1_000_000), integers().between(0, 255))
        .checkAssert(
            (seed, where, value) -> {
              byte[] body = RandomRequests.of(signal, seed).message().toByteArray();
              if (body.length == 0) {
                return;
              }
              byte[] damaged;
              if (value % 4 == 0) {
                damaged = java.util.Arrays.copyOf(body, where % body.length); // cut short
              } else {
                damaged = body.clone();
                damaged[where % body.length] = (byte) value.intValue();
              }
              boolean protobufParses = parses(signal, damaged);
              Checked checked;
              try {
                checked = signal.check(damaged);
              } catch (OtlpFormatException e) {
                assertEquals(
                    false, protobufParses, "refused what protobuf parses: " + e.getMessage());
                return;
              }
              assertEquals(true, protobufParses, "accepted what protobuf refuses");
              Calls calls = new Calls();
              try {
                signal.decode(damaged, 1, calls);
              } catch (OtlpFormatException e) {
                throw new AssertionError("checked but failed to decode: " + e.getMessage());
              }
              assertEquals(checked.records(), calls.records.size());
            });
  }

  private static boolean parses(Signal signal, byte[] body) {
    try {
      switch (signal) {
        case LOGS -> ExportLogsServiceRequest.parseFrom(body);
        case TRACES -> ExportTraceServiceRequest.parseFrom(body);
        case METRICS -> ExportMetricsServiceRequest.parseFrom(body);
      }
      return true;
    } catch (InvalidProtocolBufferException e) {
      return false;
    }
  }
}
