package dev.chartwell.bench;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.source.Event;
import dev.chartwell.engine.source.Source;
import dev.chartwell.engine.source.SourceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ingestion through the Java API: {@code appendBatch} of bench-logs events into a fresh source,
 * sealing included, reported as events per second. One source serializes its appends, so "all
 * cores" means one source per thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+UseParallelGC"})
public class IngestBenchmark {
  static final int EVENTS = 262_144; // one segment

  private Engine engine;
  private List<List<Event>> batches;

  /** Generates the events once. */
  @Setup(Level.Trial)
  public void setUp() {
    engine = Engine.builder().build();
    batches = new ArrayList<>();
    BenchLogs gen = new BenchLogs(EVENTS, 42);
    List<Event> batch = new ArrayList<>();
    while (gen.hasNext()) {
      batch.add(gen.next());
      if (batch.size() == 10_000) {
        batches.add(batch);
        batch = new ArrayList<>();
      }
    }
    batches.add(batch);
  }

  /** Frees the engine. */
  @TearDown(Level.Trial)
  public void tearDown() {
    engine.close();
  }

  private long ingest() {
    Source s = engine.createSource(SourceSpec.logs("ingest"));
    long accepted = 0;
    for (List<Event> b : batches) {
      accepted += s.appendBatch(b).accepted();
    }
    s.seal();
    engine.dropSource(s.id());
    if (accepted != EVENTS) {
      throw new IllegalStateException("accepted " + accepted + " of " + EVENTS);
    }
    return accepted;
  }

  /**
   * @return events accepted
   */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(EVENTS)
  public long oneThread() {
    return ingest();
  }

  /**
   * @return events accepted
   */
  @Benchmark
  @Threads(Threads.MAX)
  @OperationsPerInvocation(EVENTS)
  public long allCores() {
    return ingest();
  }
}
