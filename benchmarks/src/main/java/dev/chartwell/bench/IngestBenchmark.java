package dev.chartwell.bench;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ingestion through the Java API: {@code appendBatch} of bench-logs events, 10,000 per call, into a
 * fresh source, sixteen segments' worth (4,194,304 events) per invocation, sealing included (the
 * invocation ends when the last segment is sealed, and with {@code disk} written, mapped and
 * published). Sealing runs on the engine's sealing threads while appends go on, as it does in
 * steady ingestion; only the last segment's seal has no appends beside it (it was a quarter of the
 * work with four segments an invocation, a sixteenth now). One source serializes its appends, so
 * "all cores" means one source per thread.
 *
 * <p>{@code storage}: {@code heap} (no data directory) or {@code disk} (a temporary data directory,
 * with {@code fsync} as the policy: {@code request}, {@code interval:100} or {@code never}).
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
  static final int SEGMENT = 262_144;
  static final int EVENTS = 16 * SEGMENT;

  /** {@code heap} or {@code disk}. */
  @Param({"heap", "disk"})
  public String storage;

  /** The fsync policy with {@code disk}. */
  @Param({"request"})
  public String fsync;

  /**
   * How events are handed over: {@code events}, lists of {@link Event} maps ({@code appendBatch});
   * {@code batch}, an {@link EventBatch} filled field by field with typed values, as a decoder of a
   * typed format would ({@code append(EventBatch)}).
   */
  @Param({"events", "batch"})
  public String api;

  private Engine engine;
  private Path dir;
  private List<List<Event>> batches;

  /** The events by field, for {@code batch}: names, then per event its values in that order. */
  private String[] names;

  private Object[][] values;
  private long[] timestamps;

  /** Generates one segment's events once; they are appended four times per invocation. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Engine.Builder b = Engine.builder().reporter(line -> {});
    if (storage.equals("disk")) {
      dir = Files.createTempDirectory("chartwell-ingest");
      b.dataDirectory(dir).fsyncPolicy(FsyncPolicy.parse(fsync));
    }
    engine = b.build();
    batches = new ArrayList<>();
    BenchLogs gen = new BenchLogs(SEGMENT, 42);
    List<Event> batch = new ArrayList<>();
    while (gen.hasNext()) {
      batch.add(gen.next());
      if (batch.size() == 10_000) {
        batches.add(batch);
        batch = new ArrayList<>();
      }
    }
    batches.add(batch);
    names = batches.get(0).get(0).fields().keySet().toArray(new String[0]);
    values = new Object[SEGMENT][names.length];
    timestamps = new long[SEGMENT];
    int i = 0;
    for (List<Event> events : batches) {
      for (Event e : events) {
        timestamps[i] = e.timestamp();
        for (int f = 0; f < names.length; f++) {
          values[i][f] = e.fields().get(names[f]);
        }
        i++;
      }
    }
  }

  /** Frees the engine and its files. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    engine.close();
    if (dir != null) {
      BenchData.deleteTree(dir);
    }
  }

  private long ingest() {
    Source s = engine.createSource(SourceSpec.logs("ingest"));
    long accepted = 0;
    EventBatch batch = new EventBatch();
    int[] fields = new int[names.length];
    for (int f = 0; f < names.length; f++) {
      fields[f] = batch.field(names[f]);
    }
    for (int round = 0; round < EVENTS / SEGMENT; round++) {
      if (api.equals("events")) {
        for (List<Event> b : batches) {
          accepted += s.appendBatch(b).accepted();
        }
        continue;
      }
      for (int i = 0; i < SEGMENT; i++) {
        batch.startEvent();
        batch.timestamp(timestamps[i]);
        Object[] row = values[i];
        for (int f = 0; f < fields.length; f++) {
          Object v = row[f];
          if (v instanceof String text) {
            batch.putString(fields[f], text);
          } else if (v instanceof Long n) {
            batch.putLong(fields[f], n);
          } else if (v instanceof Double d) {
            batch.putDouble(fields[f], d);
          } else {
            batch.put(names[f], v);
          }
        }
        batch.endEvent();
        if (batch.size() == 10_000 || i == SEGMENT - 1) {
          accepted += s.append(batch).accepted();
          batch.clear();
        }
      }
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
