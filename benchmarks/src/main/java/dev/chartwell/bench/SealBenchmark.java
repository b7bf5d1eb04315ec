package dev.chartwell.bench;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sealing alone: one full head of {@code bench-logs} events (262,144, in arrival order, 2% late)
 * built into a time-sorted segment with its dictionaries, posting lists and the token index of
 * {@code Body}, on one thread. Nothing is written: this is the CPU a sealing thread spends per
 * segment before the file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+UseParallelGC"})
public class SealBenchmark {
  static final int ROWS = 262_144;

  private SegmentBuilder head;

  /** Fills one head with the first segment's worth of bench-logs events. */
  @Setup
  public void setUp() {
    List<String> columns = new ArrayList<>();
    head = new SegmentBuilder(ROWS);
    BenchLogs gen = new BenchLogs(ROWS, 42);
    while (gen.hasNext()) {
      Event e = gen.next();
      Object[] row = new Object[columns.size() + e.fields().size()];
      for (Map.Entry<String, Object> f : e.fields().entrySet()) {
        int c = columns.indexOf(f.getKey());
        if (c < 0) {
          c = columns.size();
          columns.add(f.getKey());
          head.addColumn(
              f.getKey(),
              f.getValue() instanceof String
                  ? ColumnType.STRING
                  : f.getValue() instanceof Long ? ColumnType.LONG : ColumnType.DOUBLE);
        }
        row[c] = f.getValue();
      }
      head.append(e.timestamp(), row);
    }
  }

  /**
   * @return the sealed segment
   */
  @Benchmark
  public Segment seal() {
    Segment s = head.build(1, "Body");
    if (s.rows() != ROWS) {
      throw new IllegalStateException("sealed " + s.rows() + " rows");
    }
    return s;
  }
}
