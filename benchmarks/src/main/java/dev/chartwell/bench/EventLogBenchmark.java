package dev.chartwell.bench;

import dev.chartwell.engine.Event;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.internal.storage.EventCodec;
import dev.chartwell.engine.internal.storage.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The durable half of ingestion on one thread, in events per second: {@link EventCodec} encoding
 * and decoding {@code bench-logs} events, and encoding a batch of 10,000 of them plus appending it
 * to a write-ahead log with {@code request} (one fsync per batch).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class EventLogBenchmark {
  static final int EVENTS = 10_000;

  private final EventCodec codec = new EventCodec();
  private List<Event> events;
  private List<byte[]> encoded;
  private Path dir;
  private WriteAheadLog wal;

  /**
   * Generates one batch of events and opens a log with {@code request}.
   *
   * @throws IOException when the log cannot be created
   */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    BenchLogs gen = new BenchLogs(EVENTS, 42);
    events = new ArrayList<>(EVENTS);
    encoded = new ArrayList<>(EVENTS);
    long bytes = 0;
    while (gen.hasNext()) {
      Event e = gen.next();
      events.add(e);
      byte[] b = codec.encode(e);
      encoded.add(b);
      bytes += b.length;
    }
    System.out.printf(
        "%nbench-logs events encode to %.1f bytes on average%n", bytes / 1.0 / EVENTS);
    dir = Files.createTempDirectory("chartwell-wal-bench");
    wal = WriteAheadLog.open(dir, FsyncPolicy.REQUEST);
  }

  /**
   * Closes the log and deletes its directory.
   *
   * @throws IOException when deleting fails
   */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    wal.close();
    WalBenchmark.deleteTree(dir);
  }

  /**
   * @param bh consumes the encodings
   */
  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void encode(Blackhole bh) {
    for (Event e : events) {
      bh.consume(codec.encode(e));
    }
  }

  /**
   * @param bh consumes the events
   */
  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void decode(Blackhole bh) {
    for (byte[] b : encoded) {
      bh.consume(codec.decode(b));
    }
  }

  /**
   * @return the last position
   * @throws IOException when truncating fails
   */
  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public long encodeAndAppendRequest() throws IOException {
    List<byte[]> batch = new ArrayList<>(EVENTS);
    for (Event e : events) {
      batch.add(codec.encode(e));
    }
    long last = wal.append(batch);
    if (wal.bytesOnDisk() > WalBenchmark.KEEP_BYTES) {
      wal.truncateBefore(last);
    }
    return last;
  }
}
