package dev.chartwell.bench;

import dev.chartwell.engine.Event;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.OtlpFormatException;
import dev.chartwell.otlp.RowSink;
import dev.chartwell.otlp.Signal;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Records per second through the OTLP decoder alone (no HTTP, no engine): both passes over a
 * protobuf request of {@value #RECORDS} records, the check and the conversion into rows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class OtlpDecodeBenchmark {
  static final int RECORDS = 2000;

  @Param({"LOGS", "TRACES", "METRICS"})
  public Signal signal;

  private byte[] body;

  @Setup
  public void build() {
    body = OtlpRequests.request(signal, RECORDS, 1, 1_767_225_600_000_000_000L).toByteArray();
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void checkAndDecode(Blackhole bh) throws OtlpFormatException {
    bh.consume(signal.check(body));
    signal.decode(
        body,
        0,
        new RowSink() {
          @Override
          public void row(OtelTable table, Event row, long chars, long record) {
            bh.consume(row);
          }

          @Override
          public void reject(long record, String reason) {
            throw new IllegalStateException(reason);
          }
        });
  }
}
