package dev.chartwell.bench;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.internal.storage.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write-ahead log alone: appends of batches of 10,000 records of 150 bytes (166 on disk with
 * framing) from one and two threads sharing a log, under each fsync policy, reported as records per
 * second; MB/s is that times 166 bytes. {@code oneRecord} appends single records (appends per
 * second). The log lives in a fresh directory under {@code java.io.tmpdir} (set it to the disk to
 * measure) and is truncated as it passes 512 MiB, as the engine would once segments are published.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class WalBenchmark {
  static final int RECORDS = 10_000;
  static final int RECORD_BYTES = 150;
  static final long KEEP_BYTES = 512L << 20;

  /** The fsync policy, as {@code --fsync} takes it. */
  @Param({"request", "interval:100", "never"})
  public String fsync;

  private Path dir;
  private WriteAheadLog wal;

  /** One thread's batch of records, made once. */
  @State(Scope.Thread)
  public static class Batch {
    List<byte[]> records;

    /** Fills the records with random bytes. */
    @Setup(Level.Trial)
    public void setUp() {
      SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
      records = new ArrayList<>(RECORDS);
      for (int i = 0; i < RECORDS; i++) {
        byte[] r = new byte[RECORD_BYTES];
        for (int j = 0; j < r.length; j++) {
          r[j] = (byte) random.nextInt(256);
        }
        records.add(r);
      }
    }
  }

  /**
   * Opens a log in a fresh directory.
   *
   * @throws IOException when it cannot be created
   */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("chartwell-wal-bench");
    wal = WriteAheadLog.open(dir, FsyncPolicy.parse(fsync));
  }

  /**
   * Closes the log and deletes its directory.
   *
   * @throws IOException when deleting fails
   */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    wal.close();
    deleteTree(dir);
  }

  /**
   * @param batch this thread's records
   * @return the last position
   * @throws IOException when truncating fails
   */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(RECORDS)
  public long oneThread(Batch batch) throws IOException {
    return append(batch);
  }

  /**
   * @param batch this thread's records
   * @return the last position
   * @throws IOException when truncating fails
   */
  @Benchmark
  @Threads(2)
  @OperationsPerInvocation(RECORDS)
  public long twoThreads(Batch batch) throws IOException {
    return append(batch);
  }

  /**
   * One record per append from one thread: with {@code request}, appends per second are fsyncs per
   * second, the latency floor of a small acknowledged write.
   *
   * @param batch this thread's records (the first is appended)
   * @return the position
   * @throws IOException when truncating fails
   */
  @Benchmark
  @Threads(1)
  public long oneRecord(Batch batch) throws IOException {
    long last = wal.append(batch.records.get(0));
    if (wal.bytesOnDisk() > KEEP_BYTES) {
      wal.truncateBefore(last);
    }
    return last;
  }

  private long append(Batch batch) throws IOException {
    long last = wal.append(batch.records);
    if (wal.bytesOnDisk() > KEEP_BYTES) {
      wal.truncateBefore(last);
    }
    return last;
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
