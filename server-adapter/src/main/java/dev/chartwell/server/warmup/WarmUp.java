package dev.chartwell.server.warmup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.agg.ValueReader;
import dev.chartwell.engine.internal.segment.BucketRows;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.engine.internal.warmup.EngineWarmUp;
import dev.chartwell.engine.internal.warmup.JitSettle;
import dev.chartwell.engine.internal.warmup.Pacing;
import dev.chartwell.engine.internal.warmup.SourceRounds;
import dev.chartwell.engine.internal.warmup.SyntheticLogs;
import dev.chartwell.engine.internal.warmup.WarmUpQueries;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Warms a server up after it starts listening, so that the first request of each shape answers
 * nearly as fast as later ones: the classes, lazily built state and compiled code a request needs
 * (HTTP, JSON, ingestion, the query engine over memory-mapped segment files and over the head of
 * unsealed events) are made ready before users ask.
 *
 * <p>On a thread of its own it first prepares, for each source of the server, what its first query
 * would otherwise build: the query view of its unsealed events (after a restart, those replayed
 * from the write-ahead log) and the summaries aggregation derives from each segment, only reading.
 * Then it starts a throwaway server in the same JVM (a temporary data directory, a free loopback
 * port, the real server's query threads), creates a service, a table and a log source there, sends
 * it synthetic log events over HTTP as NDJSON (sealed into several segment files, the rest left in
 * the head), asks it each chart request of {@link WarmUpQueries} for ten rounds and more until the
 * JIT compiler has settled ({@link JitSettle}; the code that runs per query, per segment and per
 * point of an answer then runs compiled at its last tier, as it does after hundreds of requests),
 * stops it and deletes its directory. Last, it asks chart queries built from the real sources' own
 * fields over their last day ({@link SourceRounds}), on a query engine of its own, until the
 * compiler has settled on the real segments' shapes too. No service, source, event, query count or
 * metric of the real server changes. Before each step the warm-up waits while the real server runs
 * queries, so that it never holds one up; it ends after its rounds or its time budget, and a
 * failure inside it is reported in one line and ends only the warm-up.
 */
public final class WarmUp implements AutoCloseable {
  /** Events per ingestion request. */
  private static final int EVENTS_PER_REQUEST = 10_000;

  /**
   * The throwaway server's memory for unsealed events: its heads are sealed at a sixteenth of it,
   * so with 2 GiB (the default of a server in a 4 GiB heap) they are sealed by rows, at 262,144
   * (the real segment size), and the events end up in three segment files plus a head, as a real
   * source's do. A real segment's sizes matter twice: its sets of rows are stored as a real
   * segment's are (a frequent value's rows as bitmaps, a rare one's as arrays, per 65,536 rows),
   * and sealing and the queries' loops run their real trip counts. With files of about 70,000
   * events (128 MiB here before) the sealing code (sorting, dictionaries, the token index) ran
   * three times, too few for the optimizing compiler, and on other sizes: a fresh server's first 2M
   * events then paid for compiling it, a fifth of their CPU (issue 38 item 3). A smaller heap gets
   * half of its size (the server's own default), its heads then sealed by bytes.
   *
   * @param heap the heap's size
   * @return the throwaway server's {@code --max-memory}, in bytes
   */
  static long maxMemory(long heap) {
    return Math.min(2L << 30, heap / 2);
  }

  /**
   * The least heap the synthetic part runs in: its throwaway server and events would otherwise take
   * memory the real server's first requests need (a 128 MiB server refused a 64 MiB ingestion while
   * it ran). Below it only the real sources are prepared.
   */
  static final long MIN_HEAP_BYTES = 1L << 30;

  /**
   * How much it may run.
   *
   * @param events how many synthetic events are sent
   * @param rounds the least rounds of every query shape
   * @param maxRounds the most rounds: past {@code rounds} they go on until the JIT compiler has
   *     settled ({@link JitSettle})
   * @param maxTime the longest the synthetic part runs (it stops after the request under way); the
   *     rounds over the real sources get half as long again
   * @param sourceRounds the most rounds over the real sources ({@link SourceRounds})
   */
  record Budget(int events, int rounds, int maxRounds, Duration maxTime, int sourceRounds) {
    /**
     * What a server runs: three and a half segments of 262,144 events (three sealed, a head half
     * full, its rows not a power of two), as the embedded engine's warm-up ({@code
     * EngineWarmUp.Budget.forSegmentRows}).
     */
    static final Budget DEFAULT =
        new Budget((1 << 18) / 2 * 7 + 1_000, 10, 60, Duration.ofSeconds(60), 60);
  }

  private final int threads;
  private final Supplier<List<Source>> realSources;
  private final Pacing pacing;
  private final Consumer<String> progress;
  private final Budget budget;
  private final Path tempParent; // null: the system's temporary directory
  private final CountDownLatch done = new CountDownLatch(1);
  private final Thread thread;
  private volatile String outcome;

  WarmUp(
      int threads,
      Supplier<List<Source>> realSources,
      BooleanSupplier realQueriesRunning,
      Consumer<String> progress,
      Budget budget,
      Path tempParent) {
    this.threads = threads;
    this.realSources = realSources;
    this.pacing = new Pacing(realQueriesRunning);
    this.progress = progress;
    this.budget = budget;
    this.tempParent = tempParent;
    this.thread = new Thread(this::run, "chartwell-warm-up");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
  }

  /**
   * Starts the warm-up of a server that listens, unless {@code --warm-up false}.
   *
   * @param config the server's configuration (its query threads are the throwaway server's)
   * @param server the running server, whose running queries the warm-up gives way to
   * @param progress where the progress lines go
   * @return the warm-up under way, or {@code null} when turned off
   */
  public static WarmUp start(
      ServerConfig config, ChartwellServer server, Consumer<String> progress) {
    if (!config.warmUp()) {
      return null;
    }
    WarmUp w =
        new WarmUp(
            config.threads(),
            () -> server.engine().sources(),
            () -> server.queryCounters().running() > 0,
            progress,
            Budget.DEFAULT,
            null);
    w.thread.start();
    return w;
  }

  /** Starts the thread (for tests, which build the warm-up themselves). */
  void begin() {
    thread.start();
  }

  /**
   * @param timeout the longest to wait
   * @param unit its unit
   * @return the last progress line (how it ended), or {@code null} if it has not ended in time
   * @throws InterruptedException when interrupted while waiting
   */
  String await(long timeout, TimeUnit unit) throws InterruptedException {
    return done.await(timeout, unit) ? outcome : null;
  }

  private void run() {
    long started = System.nanoTime();
    progress.accept(
        "warming up the ingestion and query paths on synthetic events in the background"
            + " (--warm-up false turns it off)");
    Path dir = null;
    try {
      dir =
          tempParent == null
              ? Files.createTempDirectory("chartwell-warm-up-")
              : Files.createTempDirectory(tempParent, "chartwell-warm-up-");
      int[] prepared = prepareSources();
      long heap = Runtime.getRuntime().maxMemory();
      String synthetic;
      Boolean settled = null; // null: no query rounds ran
      if (heap < MIN_HEAP_BYTES) {
        synthetic =
            String.format(
                Locale.ROOT,
                "the synthetic events were skipped, the heap (%d MiB) being under %d MiB",
                heap >> 20,
                MIN_HEAP_BYTES >> 20);
      } else {
        int[] rounds = warm(dir);
        synthetic =
            String.format(
                Locale.ROOT,
                "%,d synthetic events sent, %d query shapes × %d rounds",
                budget.events(),
                rounds[0],
                rounds[1]);
        settled = rounds[2] == 1;
      }
      SourceRounds.Outcome own =
          SourceRounds.run(
              realSources.get(),
              threads,
              pacing,
              System.nanoTime() + budget.maxTime().toNanos() / 2,
              budget.sourceRounds());
      if (own.sources() > 0) {
        settled = own.settled();
      }
      report(
          String.format(
              Locale.ROOT,
              "warm-up done in %.1f s: %,d sources (%,d segments) prepared for queries, %s%s%s",
              Pacing.seconds(started),
              prepared[0],
              prepared[1],
              synthetic,
              own.then("real sources"),
              settled == null
                  ? ""
                  : settled
                      ? " (the JIT compiler settled)"
                      : " (the JIT compiler still compiling)"));
    } catch (InterruptedException e) {
      report(String.format(Locale.ROOT, "warm-up stopped after %.1f s", Pacing.seconds(started)));
    } catch (Exception | LinkageError | AssertionError e) {
      report(
          String.format(
              Locale.ROOT,
              "warm-up stopped after %.1f s: %s (serving is not affected)",
              Pacing.seconds(started),
              pacing.stopped() ? "the server is stopping" : Pacing.oneLine(e)));
    } finally {
      EngineWarmUp.deleteQuietly(dir);
      done.countDown();
    }
  }

  private void report(String line) {
    outcome = line;
    progress.accept(line);
  }

  /**
   * Prepares what the first query over each real source would otherwise build: the query view of
   * its unsealed events (after a restart, those replayed from the write-ahead log) with their
   * full-text index, and for every segment the summaries aggregation derives from it and keeps (a
   * small index of timestamps, the rows of each bucket of every granularity a request may name, the
   * block summaries of dense double columns and of string columns of few values). Only reads: the
   * events, the sources and their figures stay as they were.
   *
   * @return how many sources and segments were prepared
   */
  private int[] prepareSources() throws InterruptedException {
    int sources = 0;
    int segments = 0;
    for (Source source : realSources.get()) {
      pacing.next(Long.MAX_VALUE);
      try (SourceSnapshot snapshot = Snapshots.of(source)) {
        for (Segment segment : snapshot.segments()) {
          if (pacing.stopped()) {
            throw new InterruptedException();
          }
          if (segment.rows() == 0) {
            continue;
          }
          segment.tokenIndex();
          segment.firstRowAtOrAfter(Long.MIN_VALUE);
          for (Granularity g : Granularity.REQUESTABLE) {
            BucketRows.of(segment, g.millis());
          }
          for (String field : segment.columns().keySet()) {
            ValueReader.of(segment, field).prepareSummaries();
          }
          segments++;
        }
        sources++;
      } catch (EngineClosedException | IllegalStateException e) {
        // dropped or closed meanwhile: nothing to prepare
      }
    }
    return new int[] {sources, segments};
  }

  /**
   * @return the number of query shapes, of rounds run, and 1 if the JIT compiler settled (else 0)
   */
  private int[] warm(Path dir) throws Exception {
    String secret = UUID.randomUUID().toString();
    String org = UUID.randomUUID().toString();
    ServerConfig config =
        ServerConfig.parse(
            new String[] {
              "--host", "127.0.0.1",
              "--port", "0",
              "--data-dir", dir.toString(),
              "--org-id", org,
              "--api-key", "warm-up:" + secret,
              "--key-hash-iterations", "1000",
              "--threads", Integer.toString(threads),
              "--http-threads", "8",
              "--fsync", "never",
              "--max-memory", Long.toString(maxMemory(Runtime.getRuntime().maxMemory())),
              "--warm-up", "false"
            },
            Map.of());
    long deadline = System.nanoTime() + budget.maxTime().toNanos();
    try (ChartwellServer s =
        ChartwellServer.start(
            config,
            new PrintStream(OutputStream.nullOutputStream()),
            new ChartwellServer.Overrides(Clock.systemUTC(), false, Duration.ZERO, null))) {
      Loopback http = new Loopback(s.port());
      String admin =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(("warm-up:" + secret).getBytes(StandardCharsets.UTF_8));
      String[] source = source(http, admin, org);
      String bearer = "Bearer " + source[1];
      long end = System.currentTimeMillis();
      SyntheticLogs logs = new SyntheticLogs(42, end - 24 * 3_600_000L, end);
      int events = budget.events();
      for (int from = 0; from < events; from += EVENTS_PER_REQUEST) {
        if (!pacing.next(deadline)) {
          throw new IOException("out of time while sending the synthetic events");
        }
        int n = Math.min(EVENTS_PER_REQUEST, events - from);
        http.send(
            "POST",
            "/api/v2/sources/" + source[0] + "/events",
            bearer,
            "application/x-ndjson",
            WarmUpRequests.events(logs, from, n, events));
      }
      List<String> queries = WarmUpRequests.charts(WarmUpQueries.of(source[0], end));
      JitSettle jit = JitSettle.ofThisJvm();
      int round = 0;
      boolean settled = false;
      rounds:
      while (round < budget.maxRounds() && !(settled && round >= budget.rounds())) {
        for (String q : queries) {
          if (!pacing.next(deadline)) {
            break rounds;
          }
          http.json("POST", "/api/v2/charts/series", bearer, q);
        }
        round++;
        settled = jit.roundEnded();
      }
      return new int[] {queries.size(), round, settled ? 1 : 0};
    }
  }

  /** Creates a service, a table and a log source; returns the source's id and the token. */
  private static String[] source(Loopback http, String admin, String org) throws Exception {
    String services = "/v1/organizations/" + org + "/services";
    JsonNode created =
        http.json(
            "POST",
            services,
            admin,
            "{\"name\":\"warm up\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String service = created.path("result").path("service").path("id").asText();
    String token = created.path("result").path("password").asText();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!http.json("GET", services + "/" + service, admin, null)
        .path("result")
        .path("state")
        .asText()
        .equals("running")) {
      if (System.nanoTime() > until) {
        throw new IOException("the warm-up's service did not start within 30 s");
      }
      Thread.sleep(20);
    }
    http.json(
        "PUT",
        "/api/v2/tables/default/warm_up_logs",
        "Bearer " + token,
        "{\"implicitColumn\":\"Body\",\"bodyColumn\":\"Body\",\"columns\":["
            + "{\"name\":\"status\",\"type\":\"long\"},"
            + "{\"name\":\"Duration\",\"type\":\"double\"}]}");
    String id =
        http.json(
                "POST",
                services + "/" + service + "/clickstack/sources",
                admin,
                "{\"name\":\"warm-up\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\","
                    + "\"tableName\":\"warm_up_logs\"}}")
            .path("result")
            .path("id")
            .asText();
    return new String[] {id, token};
  }

  /** Stops the warm-up if it still runs, and waits until its throwaway server is gone. */
  @Override
  public void close() {
    pacing.stop(); // seen before the next request: a request under way is short
    try {
      done.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
