package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryAbortedException.Reason;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryLimits;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.TestAccess;
import dev.chartwell.engine.WhereLanguage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Queries are governed: a deadline, cancellation from another thread, a memory budget, group and
 * row limits that stop a query early, and a bounded number of queries running and waiting.
 */
@Timeout(60)
class QueryGovernanceTest {
  static final long T0 = 1_700_000_000_000L;

  private static Source load(Engine engine, int events, int groups) {
    Source s = engine.createSource(SourceSpec.logs("logs"));
    List<Event> batch = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      batch.add(
          new Event(
              T0 + i,
              Map.of(
                  "Body", "request " + i + " took " + (i % 977) + " ms",
                  "g", "group-" + (i % groups),
                  "v", (double) (i % 1000))));
      if (batch.size() == 10_000) {
        s.appendBatch(batch);
        batch.clear();
      }
    }
    s.appendBatch(batch);
    return s;
  }

  private static ChartQuery query(Source s, AggFn fn, String field, String where, String... by) {
    return new ChartQuery(
        T0,
        T0 + 10_000_000,
        Granularity.named("1d").orElseThrow(),
        List.of(new Series(s.id(), fn, field, null, where, WhereLanguage.SQL, List.of(by))),
        null);
  }

  @Test
  void aCancelledControlStopsTheQuery() {
    try (Engine engine = Engine.builder().workerThreads(2).build()) {
      Source s = load(engine, 50_000, 10);
      QueryControl control = new QueryControl();
      control.cancel("the client went away");
      QueryAbortedException e =
          assertThrows(
              QueryAbortedException.class,
              () ->
                  engine.query(
                      query(s, AggFn.COUNT, null, "Body ILIKE '%took 5%'"),
                      QueryOptions.DEFAULT.withControl(control)));
      assertEquals(Reason.CANCELLED, e.reason());
      assertEquals("the client went away", e.getMessage());
    }
  }

  @Test
  void cancellingFromAnotherThreadStopsARunningQuery() throws Exception {
    try (Engine engine = Engine.builder().workerThreads(2).segmentRows(4096).build()) {
      Source s = load(engine, 300_000, 10);
      // A query that takes a while: the where is evaluated on every row (no indexes).
      ChartQuery slow = query(s, AggFn.P99, "v", "Body ILIKE '%_%_%_%_%_%9 ms'", "g");
      for (int attempt = 0; attempt < 5; attempt++) {
        QueryControl control = new QueryControl();
        CompletableFuture<Object> running =
            CompletableFuture.supplyAsync(
                () -> engine.query(slow, new QueryOptions(false).withControl(control)));
        // Cancel while it runs (a query cancelled before it starts proves nothing here).
        awaitRunningOrDone(engine, running);
        control.cancel("cancelled by the test");
        try {
          running.get(HUNG_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          QueryAbortedException aborted = (QueryAbortedException) e.getCause();
          assertEquals(Reason.CANCELLED, aborted.reason());
          return;
        }
      }
      throw new AssertionError("the query finished before it could be cancelled, 5 times");
    }
  }

  @Test
  void theDeadlineStopsAQueryAndSaysWhichLimit() {
    try (Engine engine = Engine.builder().workerThreads(2).segmentRows(4096).build()) {
      Source s = load(engine, 300_000, 10);
      QueryAbortedException e =
          assertThrows(
              QueryAbortedException.class,
              () ->
                  engine.query(
                      query(s, AggFn.P99, "v", "Body ILIKE '%_%_%_%_%_%9 ms'", "g"),
                      new QueryOptions(false).withTimeout(Duration.ofMillis(1))));
      assertEquals(Reason.TIMEOUT, e.reason());
      assertTrue(e.getMessage().contains("limit of 1 ms"), e.getMessage());
      assertEquals(1, engine.queryCounters().timedOut());
      assertEquals(0, engine.queryCounters().running());
    }
  }

  @Test
  void tooManyGroupsStopsAfterTheFirstBatchPastTheLimit() {
    try (Engine engine = Engine.builder().workerThreads(1).segmentRows(1 << 18).build()) {
      Source s = load(engine, 200_000, 200_000);
      QueryControl control = new QueryControl();
      // Two group-by fields: groups are hashed tuples, built as rows are met.
      InvalidQueryException e =
          assertThrows(
              InvalidQueryException.class,
              () ->
                  engine.query(
                      query(s, AggFn.COUNT, null, "", "g", "Body"),
                      QueryOptions.DEFAULT.withControl(control)));
      assertTrue(e.getMessage().contains("more than 10,000 groups"), e.getMessage());
      // It stopped within a batch of the limit, not after all 200,000 groups.
      long states = control.claimedBytes() / 64;
      assertTrue(states <= QueryEngine.MAX_GROUPS + 4096, "states created: " + states);
    }
  }

  /**
   * A distinct count of strings claims the bitset each segment's state fills, once: where the state
   * keeps it (most of a segment's values seen), nothing more; it claimed before also the ids listed
   * from it, 4 bytes each, which it no longer makes.
   */
  @Test
  void aDistinctCountClaimsItsSegmentsBitsetsOnce() {
    int rows = 1 << 16;
    try (Engine engine = Engine.builder().workerThreads(2).segmentRows(rows).build()) {
      Source s = load(engine, 4 * rows, 4 * rows); // every value distinct
      s.seal();
      QueryControl control = new QueryControl();
      ChartResult r =
          engine.query(
              query(s, AggFn.COUNT_DISTINCT, "g", ""), QueryOptions.DEFAULT.withControl(control));
      assertEquals(4L * rows, r.rows().get(0).values().get(0));
      long bitsets = 4 * (rows / 8); // four segments, one bit per value of each dictionary
      long claimed = control.claimedBytes();
      assertTrue(claimed >= bitsets, claimed + " bytes claimed");
      assertTrue(claimed < bitsets + 4 * rows, claimed + " bytes claimed"); // not also the ids
    }
  }

  @Test
  void groupsSpreadOverSegmentsCountTogether() {
    // 8 segments of 2,000 distinct groups each: every segment stays under the limit, their
    // union of 16,000 does not; the segments' dictionaries alone cannot clear it.
    try (Engine engine = Engine.builder().workerThreads(2).segmentRows(2_000).build()) {
      Source s = engine.createSource(SourceSpec.logs("logs"));
      List<Event> batch = new ArrayList<>();
      for (int i = 0; i < 16_000; i++) {
        batch.add(new Event(T0 + i, Map.of("Body", "x", "svc", "a", "g", "group-" + i)));
      }
      s.appendBatch(batch);
      s.seal();
      InvalidQueryException e =
          assertThrows(
              InvalidQueryException.class,
              () -> engine.query(query(s, AggFn.COUNT, null, "", "g"), QueryOptions.DEFAULT));
      assertTrue(e.getMessage().contains("more than 10,000 groups"), e.getMessage());
      // One group in more rows than the limit (16,000 one-millisecond buckets) passes.
      ChartQuery fine =
          new ChartQuery(
              T0,
              T0 + 16_000,
              new Granularity("1ms", 1),
              List.of(
                  new Series(
                      s.id(), AggFn.COUNT, null, null, "", WhereLanguage.SQL, List.of("svc"))),
              null);
      assertEquals(16_000, engine.query(fine).rows().size());
    }
  }

  @Test
  void aQueryOverItsMemoryBudgetIsStopped() {
    QueryLimits limits = QueryLimits.defaults(2).withMemoryBytes(1 << 20);
    try (Engine engine = Engine.builder().workerThreads(2).queryLimits(limits).build()) {
      Source s = load(engine, 300_000, 10);
      // An exact quantile keeps every value: 300,000 × 8 bytes is more than 1 MB.
      QueryAbortedException e =
          assertThrows(
              QueryAbortedException.class, () -> engine.query(query(s, AggFn.P99, "v", "")));
      assertEquals(Reason.MEMORY, e.reason());
      assertTrue(e.getMessage().contains("memory budget of 1 MB"), e.getMessage());
      // Within budget the same engine answers.
      assertEquals(1, engine.query(query(s, AggFn.COUNT, null, "")).rows().size());
      assertEquals(
          new dev.chartwell.engine.QueryCounters(0, 1, 0, 0, 1, 0), engine.queryCounters());
    }
  }

  @Test
  void queriesBeyondTheRunningAndWaitingLimitsAreRefused() throws Exception {
    ExecutorService workers = Executors.newFixedThreadPool(2);
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Engine engine = Engine.builder().build()) {
      Source real = load(engine, 10, 2);
      QueryLimits limits =
          new QueryLimits(Duration.ofSeconds(30), 1 << 26, 1, 1, Duration.ofMillis(200));
      QueryEngine queries =
          new QueryEngine(
              id -> {
                // The first query holds its turn here until the test lets it go.
                if (inside.getCount() > 0) {
                  inside.countDown();
                  await(release);
                }
                return Optional.of(TestAccess.core(real));
              },
              workers,
              2,
              limits,
              timer);
      ChartQuery q = query(real, AggFn.COUNT, null, "");
      CompletableFuture<Object> first =
          CompletableFuture.supplyAsync(() -> queries.run(q, QueryOptions.DEFAULT));
      assertTrue(inside.await(HUNG_SECONDS, TimeUnit.SECONDS));
      // One may wait (up to 200 ms) and is then refused; with one already waiting, the next is
      // refused at once.
      CompletableFuture<Object> waiting =
          CompletableFuture.supplyAsync(() -> queries.run(q, QueryOptions.DEFAULT));
      // (Should it have given up already on a stalled machine, the next one waits instead and
      // is refused all the same: the turn is held until both are.)
      awaitCondition(() -> queries.waiting() == 1 || waiting.isDone());
      QueryAbortedException now =
          assertThrows(QueryAbortedException.class, () -> queries.run(q, QueryOptions.DEFAULT));
      assertEquals(Reason.BUSY, now.reason());
      assertTrue(now.getMessage().contains("too many queries at once"), now.getMessage());
      ExecutionException later =
          assertThrows(ExecutionException.class, () -> waiting.get(HUNG_SECONDS, TimeUnit.SECONDS));
      assertEquals(Reason.BUSY, ((QueryAbortedException) later.getCause()).reason());
      release.countDown();
      first.get(HUNG_SECONDS, TimeUnit.SECONDS);
      // The turn is free again.
      assertEquals(1, queries.run(q, QueryOptions.DEFAULT).rows().size());
      assertEquals(2, queries.counters().refused());
      assertEquals(2, queries.counters().completed());
    } finally {
      release.countDown();
      workers.shutdownNow();
      timer.shutdownNow();
    }
  }

  @Test
  void closingTheEngineStopsRunningQueries() throws Exception {
    Engine engine = Engine.builder().workerThreads(2).segmentRows(4096).build();
    Source s = load(engine, 300_000, 10);
    ChartQuery slow = query(s, AggFn.P99, "v", "Body ILIKE '%_%_%_%_%_%9 ms'", "g");
    CompletableFuture<Object> running =
        CompletableFuture.supplyAsync(() -> engine.query(slow, new QueryOptions(false)));
    // Close while it runs (not before it starts: a closed engine refuses new queries outright).
    awaitRunningOrDone(engine, running);
    engine.close();
    try {
      running.get(HUNG_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      assertEquals(Reason.SHUTDOWN, ((QueryAbortedException) e.getCause()).reason());
    }
    // Whether it finished first or was stopped, no new query is taken.
    assertThrows(EngineClosedException.class, () -> engine.query(slow));
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Only stops a hung test: no outcome depends on it. */
  static final long HUNG_SECONDS = 60;

  static void awaitRunningOrDone(Engine engine, CompletableFuture<?> query)
      throws InterruptedException {
    awaitCondition(() -> engine.queryCounters().running() > 0 || query.isDone());
  }

  static void awaitCondition(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HUNG_SECONDS);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "still waiting after " + HUNG_SECONDS + " s");
      Thread.sleep(1);
    }
  }
}
