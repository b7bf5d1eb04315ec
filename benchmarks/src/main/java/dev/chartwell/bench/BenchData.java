package dev.chartwell.bench;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The {@code bench-logs} data set loaded into an engine, in memory or in a data directory, with the
 * counts kept while generating it that the benchmarks check their answers against. A data directory
 * that already holds the data set (with the same number of events) is opened as it is, so that a
 * run can measure a restart instead of a load.
 */
final class BenchData {
  /** The id of the source holding the data set. */
  static final String SOURCE = "bench-logs";

  private static final String COUNTS_FILE = "bench-counts.properties";

  /**
   * What the checks need to know about the data set.
   *
   * @param rows events
   * @param errors events with SeverityText error
   * @param timeouts events whose Body contains "timeout"
   * @param svc3Failures Q4's answer: svc-3 events with status >= 500 in its 6 hours
   */
  record Counts(long rows, long errors, long timeouts, long svc3Failures) {}

  /**
   * A loaded data set.
   *
   * @param engine the engine holding it
   * @param counts what the checks compare with
   */
  record Loaded(Engine engine, Counts counts) {}

  private BenchData() {}

  /**
   * @param rows events to generate
   * @return the data set in an in-memory engine, sealed
   */
  static Loaded inMemory(int rows) {
    Engine engine = Engine.builder().build();
    return new Loaded(engine, append(engine.createSource(spec()), rows));
  }

  /**
   * @param dir a data directory: opened as it is when it holds the data set of {@code rows} events,
   *     else emptied and loaded
   * @param rows events
   * @param policy the fsync policy for loading
   * @return the data set in a durable engine
   */
  static Loaded onDisk(Path dir, int rows, FsyncPolicy policy) {
    try {
      Counts counts = readCounts(dir);
      if (counts != null && counts.rows() == rows) {
        long t0 = System.nanoTime();
        Engine engine = open(dir, policy);
        System.out.printf(
            Locale.ROOT,
            "opened %,d events in %s in %.1f s%n",
            rows,
            dir,
            (System.nanoTime() - t0) / 1e9);
        return new Loaded(engine, counts);
      }
      if (Files.exists(dir)) {
        deleteTree(dir);
      }
      Engine engine = open(dir, policy);
      counts = append(engine.createSource(spec()), rows);
      Properties p = new Properties();
      p.setProperty("rows", Long.toString(counts.rows()));
      p.setProperty("errors", Long.toString(counts.errors()));
      p.setProperty("timeouts", Long.toString(counts.timeouts()));
      p.setProperty("svc3Failures", Long.toString(counts.svc3Failures()));
      try (var out = Files.newOutputStream(dir.resolve(COUNTS_FILE))) {
        p.store(out, "bench-logs counts");
      }
      return new Loaded(engine, counts);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @param dir a directory
   * @param rows a size
   * @return whether it holds the data set of that size (so that {@link #onDisk} opens it)
   */
  static boolean holds(Path dir, int rows) {
    try {
      Counts counts = readCounts(dir);
      return counts != null && counts.rows() == rows;
    } catch (IOException e) {
      return false;
    }
  }

  static Engine open(Path dir, FsyncPolicy policy) {
    return open(dir, policy, false);
  }

  /**
   * @param dir a data directory
   * @param policy the fsync policy
   * @param warmUp whether the engine runs its start-up warm-up ({@code Engine.Builder.warmUp})
   * @return the engine, its lines printed with {@code engine: } before them
   */
  static Engine open(Path dir, FsyncPolicy policy, boolean warmUp) {
    return Engine.builder()
        .dataDirectory(dir)
        .fsyncPolicy(policy)
        .warmUp(warmUp)
        .reporter(line -> System.out.println("engine: " + line))
        .build();
  }

  private static Counts readCounts(Path dir) throws IOException {
    Path file = dir.resolve(COUNTS_FILE);
    if (!Files.exists(file)) {
      return null;
    }
    Properties p = new Properties();
    try (var in = Files.newInputStream(file)) {
      p.load(in);
    }
    return new Counts(
        Long.parseLong(p.getProperty("rows")),
        Long.parseLong(p.getProperty("errors")),
        Long.parseLong(p.getProperty("timeouts")),
        Long.parseLong(p.getProperty("svc3Failures")));
  }

  static SourceSpec spec() {
    return new SourceSpec(SOURCE, SOURCE, SourceKind.LOG, "Timestamp", "Body", "Body", List.of());
  }

  /** Generates and appends the data set in batches of 10,000, then seals. */
  static Counts append(Source source, int rows) {
    long q4Start = BenchLogs.END - BenchLogs.SPAN + 6 * 3_600_000L;
    long q4End = q4Start + 6 * 3_600_000L;
    long errors = 0;
    long timeouts = 0;
    long svc3Failures = 0;
    long t0 = System.nanoTime();
    BenchLogs gen = new BenchLogs(rows, 42);
    BenchLogs.Row row = new BenchLogs.Row();
    EventBatch batch = new EventBatch();
    int service = batch.field("ServiceName");
    int severity = batch.field("SeverityText");
    int host = batch.field("host");
    int status = batch.field("status");
    int duration = batch.field("Duration");
    int traceId = batch.field("TraceId");
    int method = batch.field("LogAttributes.http.method");
    int body = batch.field("Body");
    long n = 0;
    while (gen.hasNext()) {
      gen.next(row);
      errors += row.error() ? 1 : 0;
      timeouts += row.timeout ? 1 : 0;
      if (row.timestamp >= q4Start
          && row.timestamp <= q4End
          && row.service == 3
          && row.status >= 500) {
        svc3Failures++;
      }
      batch.startEvent();
      batch.timestamp(row.timestamp);
      batch.putString(service, row.serviceName());
      batch.putString(severity, row.severityText());
      batch.putString(host, row.host);
      batch.putLong(status, row.status);
      batch.putDouble(duration, row.duration);
      batch.putString(traceId, row.traceId);
      batch.putString(method, row.method);
      batch.putString(body, row.body);
      batch.endEvent();
      if (batch.size() == 10_000) {
        appendAll(source, batch);
      }
      if (++n % 10_000_000 == 0) {
        System.out.printf(
            Locale.ROOT, "loaded %,d events in %.0f s%n", n, (System.nanoTime() - t0) / 1e9);
      }
    }
    appendAll(source, batch);
    source.seal();
    return new Counts(rows, errors, timeouts, svc3Failures);
  }

  private static void appendAll(Source source, EventBatch batch) {
    long accepted = source.append(batch).accepted();
    if (accepted != batch.size()) {
      throw new IllegalStateException("accepted " + accepted + " of " + batch.size() + " events");
    }
    batch.clear();
  }

  static void deleteTree(Path root) throws IOException {
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * The data set in an engine of the given storage: {@code heap} (in memory) or {@code disk} (a
   * data directory, {@code -Dchartwell.bench.dir} when given and kept for later runs, else a
   * temporary one deleted at exit).
   *
   * @param rows events
   * @param storage {@code heap} or {@code disk}
   * @return the loaded engine and its counts
   */
  static Loaded load(int rows, String storage) {
    if (storage.equals("heap")) {
      return BenchData.inMemory(rows);
    }
    if (!storage.equals("disk")) {
      throw new IllegalArgumentException("storage is heap or disk, not " + storage);
    }
    String dir = System.getProperty("chartwell.bench.dir");
    try {
      Path path = dir != null ? Path.of(dir) : Files.createTempDirectory("chartwell-bench");
      if (dir == null) {
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> {
                      try {
                        BenchData.deleteTree(path);
                      } catch (IOException e) {
                        System.err.println("could not delete " + path + ": " + e);
                      }
                    }));
      }
      return BenchData.onDisk(path, rows, FsyncPolicy.REQUEST);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
