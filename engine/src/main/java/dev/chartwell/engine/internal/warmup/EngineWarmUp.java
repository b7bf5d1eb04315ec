package dev.chartwell.engine.internal.warmup;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.storage.Durable;
import dev.chartwell.engine.internal.storage.EngineLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The embedded engine's start-up warm-up ({@code Engine.Builder.warmUp}): on a daemon thread of low
 * priority, a throwaway engine of the same kind (in memory, or over a temporary data directory with
 * the same fsync policy when the real engine has one, so that the write-ahead log and segment files
 * are written as the real ones are) is given {@link SyntheticLogs} events through {@link
 * Source#append(EventBatch)} in batches of 10,000, sealed into several segments of more than 65,536
 * rows plus a head, and then asked the {@link WarmUpQueries} in rounds: at least {@link
 * Budget#rounds()}, then on until the JIT compiler has settled ({@link JitSettle}) or {@link
 * Budget#maxRounds()} or {@link Budget#maxTime()} is reached; last, its head is sealed and a second
 * source receives a batch. The classes, caches and compiled code the application's first appends,
 * seals and queries need are then ready. Last, {@link SourceRounds} ask the engine's own sources
 * chart queries until the compiler has settled on their shapes too; and from then on, until the
 * engine closes, the thread watches for new data: when the sources have grown to twice the events
 * those rounds saw, it runs them again once the events stop arriving ({@link NewDataRounds}).
 *
 * <p>Nothing of the real engine changes: its sources, events, query counters and files are not
 * touched. Before each batch and each query the warm-up waits while the real engine runs queries,
 * so that it never holds one up. It reports a line when it starts and one when it ends (how long it
 * took, or why it stopped); a failure inside it ends only the warm-up. {@link #close()} stops it
 * before its next step.
 */
public final class EngineWarmUp implements AutoCloseable {
  /** Events per append, as an application's batches. */
  static final int BATCH = 10_000;

  /** The most rounds over the real engine's own sources ({@link SourceRounds}). */
  static final int SOURCE_ROUNDS = 60;

  /** The source of the throwaway engine. */
  static final String SOURCE = "warm-up";

  /**
   * The least heap the warm-up runs in: its throwaway engine holds its events and their segments
   * beside the application's (it ran in a heap of 600 MiB with nothing else). Below it the warm-up
   * is skipped, with a line.
   */
  static final long MIN_HEAP_BYTES = 1L << 30;

  /**
   * How much it may run.
   *
   * @param events how many synthetic events are appended
   * @param segmentRows the throwaway engine's segment size: more than 65,536, so that a segment's
   *     sets of rows are stored as a real segment's are (a frequent value's rows as bitmaps, a rare
   *     one's as arrays, per 65,536 rows)
   * @param rounds the least rounds of every query
   * @param maxRounds the most rounds: past {@code rounds} they go on until the JIT compiler has
   *     settled ({@link JitSettle})
   * @param maxTime the longest the warm-up runs (it stops after the step under way)
   */
  public record Budget(int events, int segmentRows, int rounds, int maxRounds, Duration maxTime) {
    /**
     * What {@code Engine.Builder.warmUp(true)} runs: segments of the real engine's size (within
     * 70,000 and 262,144 rows), three and a half of them (three sealed and a head half full, its
     * rows not a power of two), at least ten rounds and at most 60 or a minute. Segments of the
     * real size matter: with the default 262,144 rows a segment's sets of rows span four 65,536-row
     * containers, and the loops over a segment run their real trip counts; on segments of 70,000
     * rows, a 2M load after the warm-up ran at 330,000 events/s, on segments of 262,144 at 837,000
     * (after a 2M unmeasured load of the real data: 949,000).
     *
     * @param segmentRows the real engine's segment size
     * @return the budget
     */
    public static Budget forSegmentRows(int segmentRows) {
      int rows = Math.max(70_000, Math.min(1 << 18, segmentRows));
      return new Budget(rows / 2 * 7 + 1_000, rows, 10, 60, Duration.ofSeconds(60));
    }
  }

  private final int workers;
  private final FsyncPolicy fsync;
  private final Path tempParent; // null: in memory
  private final Pacing pacing;
  private final Consumer<String> reporter;
  private final Budget budget;
  private final Supplier<List<Source>> realSources;
  private final NewDataRounds newData;
  private final CountDownLatch startUpEnded = new CountDownLatch(1);
  private final CountDownLatch threadEnded = new CountDownLatch(1);
  private volatile boolean watching; // for new data, after the start-up warm-up ended well
  private final Thread thread;

  /**
   * @param workers the real engine's query workers (the throwaway engine has as many)
   * @param fsync the real engine's fsync policy
   * @param tempParent where the throwaway engine's temporary data directory is made, or {@code
   *     null} for an engine in memory
   * @param realQueriesRunning whether the real engine runs queries now (the warm-up then waits)
   * @param reporter where the progress lines go
   * @param budget how much it may run
   * @param realSources the real engine's sources, asked {@link SourceQueries} at the end
   */
  public EngineWarmUp(
      int workers,
      FsyncPolicy fsync,
      Path tempParent,
      BooleanSupplier realQueriesRunning,
      Consumer<String> reporter,
      Budget budget,
      Supplier<List<Source>> realSources) {
    this.workers = workers;
    this.fsync = fsync;
    this.tempParent = tempParent;
    this.pacing = new Pacing(realQueriesRunning);
    this.reporter = reporter;
    this.budget = budget;
    this.realSources = realSources;
    this.newData =
        new NewDataRounds(
            realSources, workers, pacing, this::say, System::nanoTime, NewDataRounds.LEAST_EVENTS);
    this.thread = new Thread(this::run, "chartwell-warm-up");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.setUncaughtExceptionHandler(EngineLog::uncaught);
  }

  /**
   * Starts the thread.
   *
   * @return this warm-up
   */
  public EngineWarmUp start() {
    thread.start();
    return this;
  }

  /**
   * Starts the warm-up of an engine.
   *
   * @param workers the engine's query threads (the throwaway engine's)
   * @param fsync the engine's fsync policy
   * @param onDisk whether the engine keeps a data directory (the throwaway one then keeps one under
   *     {@code java.io.tmpdir})
   * @param realQueriesRunning whether the engine runs queries now (the warm-up gives way)
   * @param reporter where its lines go
   * @param budget how much it may run, or {@code null} for {@link Budget#forSegmentRows}
   * @param segmentRows the engine's segment size
   * @param realSources the engine's sources
   * @return the warm-up, under way
   */
  public static EngineWarmUp start(
      int workers,
      FsyncPolicy fsync,
      boolean onDisk,
      BooleanSupplier realQueriesRunning,
      Consumer<String> reporter,
      Budget budget,
      int segmentRows,
      Supplier<List<Source>> realSources) {
    Path temp = onDisk ? Path.of(System.getProperty("java.io.tmpdir")) : null;
    Budget b = budget != null ? budget : Budget.forSegmentRows(segmentRows);
    return new EngineWarmUp(workers, fsync, temp, realQueriesRunning, reporter, b, realSources)
        .start();
  }

  /**
   * Waits for the start-up warm-up to end, and then for the warm-up over new data ({@link
   * NewDataRounds}) while it runs or is due.
   *
   * @param timeout the longest to wait
   * @return whether no warm-up runs or is due: the start-up warm-up has ended (done, stopped or
   *     failed), and no rounds over new data run or wait for the events to stop arriving
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (!startUpEnded.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      return false;
    }
    while (watching && !newData.idle()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      Thread.sleep(
          Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, NewDataRounds.POLL_MILLIS / 5));
    }
    return true;
  }

  private void run() {
    try {
      if (startUp()) {
        watching = true;
        startUpEnded.countDown();
        watchNewData();
      }
    } finally {
      watching = false;
      startUpEnded.countDown();
      threadEnded.countDown();
    }
  }

  /** Runs the warm-up over new data until the engine closes. */
  private void watchNewData() {
    try {
      newData.watch();
    } catch (InterruptedException e) {
      // the engine closes
    } catch (Exception | LinkageError | AssertionError e) {
      problem(
          "warm-up over new data stopped: "
              + (pacing.stopped() ? "the engine is closing" : Pacing.oneLine(e))
              + " (the engine is not affected)");
    }
  }

  /**
   * @return whether the start-up warm-up ran to its end (not skipped, stopped or failed)
   */
  private boolean startUp() {
    long started = System.nanoTime();
    Path dir = null;
    try {
      say(
          "warming up the ingestion and query paths on synthetic events in the background"
              + " (Engine.Builder.warmUp)");
      long heap = Runtime.getRuntime().maxMemory();
      if (heap < MIN_HEAP_BYTES) {
        say(
            String.format(
                Locale.ROOT,
                "warm-up skipped: the heap (%d MiB) is under %d MiB",
                heap >> 20,
                MIN_HEAP_BYTES >> 20));
        return false;
      }
      dir = tempParent == null ? null : Files.createTempDirectory(tempParent, "chartwell-warm-up-");
      int[] rounds = warm(dir);
      List<Source> real = realSources.get();
      long realEvents = SourceRounds.events(real);
      SourceRounds.Outcome own =
          SourceRounds.run(
              real,
              workers,
              pacing,
              System.nanoTime() + budget.maxTime().toNanos() / 2,
              SOURCE_ROUNDS);
      say(
          String.format(
              Locale.ROOT,
              "warm-up done in %.1f s: %,d synthetic events appended, %d query shapes × %d rounds%s"
                  + " (the JIT compiler %s)",
              Pacing.seconds(started),
              budget.events() + BATCH,
              rounds[0],
              rounds[1],
              own.then("sources"),
              (own.sources() > 0 ? own.settled() : rounds[2] == 1)
                  ? "settled"
                  : "still compiling"));
      newData.warmedAt(realEvents);
      return true;
    } catch (InterruptedException e) {
      say(String.format(Locale.ROOT, "warm-up stopped after %.1f s", Pacing.seconds(started)));
    } catch (Exception | LinkageError | AssertionError e) {
      problem(
          String.format(
              Locale.ROOT,
              "warm-up stopped after %.1f s: %s (the engine is not affected)",
              Pacing.seconds(started),
              pacing.stopped() ? "the engine is closing" : Pacing.oneLine(e)));
    } finally {
      deleteQuietly(dir);
    }
    return false;
  }

  /** A progress line; a reporter that throws cannot end the warm-up's thread uncleanly. */
  private void say(String line) {
    try {
      reporter.accept(line);
    } catch (RuntimeException e) {
      // the application's reporter failed: the warm-up goes on without its line
    }
  }

  /** A failure's line: at {@code WARNING} with the default reporter. */
  private void problem(String line) {
    try {
      EngineLog.problem(reporter, line);
    } catch (RuntimeException e) {
      // as in say
    }
  }

  /**
   * @return the number of query shapes, of rounds run, and 1 if the JIT compiler settled (else 0)
   */
  private int[] warm(Path dir) throws InterruptedException {
    long deadline = System.nanoTime() + budget.maxTime().toNanos();
    Engine.Builder builder =
        Engine.builder()
            .workerThreads(workers)
            .segmentRows(budget.segmentRows())
            .reporter(line -> {});
    if (dir != null) {
      builder.dataDirectory(dir).fsyncPolicy(fsync);
    }
    try (Engine engine = builder.build()) {
      Source source = engine.createSource(SourceSpec.log(SOURCE).build());
      long end = System.currentTimeMillis();
      SyntheticLogs logs = new SyntheticLogs(42, end - 24 * 3_600_000L, end);
      EventBatch batch = new EventBatch();
      int events = budget.events();
      for (int from = 0; from < events; from += BATCH) {
        if (!pacing.next(deadline)) {
          throw new IllegalStateException("out of time while appending the synthetic events");
        }
        // every other batch a new one, as a server makes per request, else one cleared and
        // filled again, as a loader does: its arrays both grow and are reused, as they are then
        batch = from / BATCH % 2 == 0 ? new EventBatch() : batch;
        batch.clear();
        logs.put(batch, from, Math.min(BATCH, events - from), events);
        source.append(batch);
      }
      List<ChartQuery> queries = WarmUpQueries.of(SOURCE, end);
      JitSettle jit = JitSettle.ofThisJvm();
      int round = 0;
      boolean settled = false;
      rounds:
      while (round < budget.maxRounds() && !(settled && round >= budget.rounds())) {
        for (ChartQuery q : queries) {
          if (!pacing.next(deadline)) {
            break rounds;
          }
          engine.query(q);
        }
        round++;
        settled = jit.roundEnded();
      }
      pacing.next(deadline);
      sealAndStartAnother(engine, source, end);
      return new int[] {queries.size(), round, settled ? 1 : 0};
    }
  }

  /**
   * What an application also does, once the code is compiled: seals a head that is not full (its
   * rows not a power of two, unlike a full segment's, so that sorting it takes the merge sort's
   * short last runs), and appends a first batch to a new source (whose fields are new columns).
   * Before, the first real segments sealed by {@link Source#seal()} and the first append of a new
   * source met these branches for the first time, in compiled code that then fell back to the
   * interpreter.
   */
  private static void sealAndStartAnother(Engine engine, Source source, long end) {
    source.seal();
    Source another = engine.createSource(SourceSpec.log(SOURCE + "-2").build());
    EventBatch batch = new EventBatch();
    new SyntheticLogs(7, end - 24 * 3_600_000L, end).put(batch, 0, BATCH, BATCH);
    another.append(batch);
    another.seal();
  }

  /**
   * Stops the warm-up before its next step, and waits (10 seconds at most) until its throwaway
   * engine is closed.
   */
  @Override
  public void close() {
    pacing.stop();
    if (Thread.currentThread() == thread || !thread.isAlive()) {
      return;
    }
    try {
      threadEnded.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Deletes a warm-up's temporary directory and all in it, as far as it can.
   *
   * @param dir the directory, or {@code null} for none
   */
  public static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try {
      Durable.deleteTree(dir);
    } catch (IOException e) {
      // a temporary directory: the system cleans what is left
    }
  }
}
