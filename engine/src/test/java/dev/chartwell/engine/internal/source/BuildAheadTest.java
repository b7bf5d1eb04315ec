package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.TestAccess;
import dev.chartwell.engine.internal.storage.EngineLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Queries while one thread appends, with the head's parts built ahead on the sealing pool: every
 * query sees a prefix of the events appended, at least every one acknowledged before it started,
 * and its counts (all, a bare term, a field where) are the naive counts over that prefix; once the
 * appends stop, the answer is the one over the same events fully sealed; and no engine thread
 * failed meanwhile. Events arrive out of time order or in it (a part's rows are then sorted as they
 * came), with bodies all distinct (the head keeps each row's text) or from a few (a dictionary).
 */
class BuildAheadTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final int BATCH = 97;

  @ParameterizedTest
  @CsvSource({"false, false", "true, false", "true, true"})
  void queriesWhileAppendingSeeEveryAcknowledgedEventAndCountLikeANaiveReference(
      boolean inOrder, boolean fewBodies) throws Exception {
    try (ThreadFailures threadFailures = new ThreadFailures();
        Engine engine = Engine.builder().segmentRows(16_384).build()) {
      Source source = engine.createSource(SourceSpec.logs("logs"));
      SourceCore core = TestAccess.core(source);
      AtomicLong attempted = new AtomicLong();
      AtomicLong acked = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread writer =
          new Thread(
              () -> {
                try {
                  int n = 0;
                  while (!stop.get()) {
                    List<Event> batch = new ArrayList<>(BATCH);
                    for (int i = 0; i < BATCH; i++, n++) {
                      batch.add(event(n, inOrder, fewBodies));
                    }
                    attempted.addAndGet(BATCH);
                    source.append(Batches.of(batch));
                    acked.addAndGet(BATCH);
                  }
                } catch (Throwable t) {
                  failed.set(t);
                }
              },
              "build-ahead-writer");
      writer.start();
      int queries = 0;
      // Until parts were built ahead several times and heads were sealed meanwhile (conditions,
      // not time); bounded so that a broken build ahead fails rather than hangs.
      while (core.aheadBuilds() < 20 || core.sealedSegments().size() < 3 || queries < 100) {
        assertTrue(queries < 200_000, "no parts built ahead: " + core.aheadBuilds());
        assertEquals(null, failed.get());
        long before = acked.get();
        long[] counts = counts(engine, source);
        long after = attempted.get();
        assertTrue(
            before <= counts[0] && counts[0] <= after,
            counts[0] + " events seen, " + before + " acknowledged before, " + after + " sent");
        assertArrayEquals(naive(counts[0]), counts, "counts over the first " + counts[0]);
        queries++;
      }
      stop.set(true);
      writer.join();
      assertEquals(null, failed.get());
      long all = acked.get();
      assertArrayEquals(naive(all), counts(engine, source), "every event once the appends stopped");
      core.seal();
      assertArrayEquals(naive(all), counts(engine, source), "the same events fully sealed");
      // A build ahead that fails leaves its rows to the queries (the answers stay right): only
      // the engine's log tells.
      assertEquals(List.of(), threadFailures.messages(), "engine threads that failed");
    }
  }

  /** The engine's log lines of threads that failed, while open. */
  private static final class ThreadFailures extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger(EngineLog.NAME); // held: JUL's are weak
    private final List<String> messages = new ArrayList<>();

    ThreadFailures() {
      logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord r) {
      if (r.getLevel() == Level.SEVERE && r.getMessage().startsWith("thread ")) {
        messages.add(r.getMessage());
      }
    }

    synchronized List<String> messages() {
      return List.copyOf(messages);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  /**
   * Event {@code n}: in time order or not; its body with its number (each one distinct) or from a
   * few distinct bodies (the head keeps them as a dictionary), with the same tokens counted.
   */
  private static Event event(int n, boolean inOrder, boolean fewBodies) {
    String body =
        fewBodies
            ? "request" + (n == 4242 ? " 4242" : "") + (n % 7 == 0 ? " Timeout after 30s" : " done")
            : "request " + n + (n % 7 == 0 ? " Timeout after 30s" : " done");
    return new Event(
        T0 + (inOrder ? n / 100 : n % 1_000),
        Map.of("Body", body, "SeverityText", n % 5 == 0 ? "error" : "info"));
  }

  /** What {@link #counts} answers over events {@code [0, n)}, counted one by one. */
  private static long[] naive(long n) {
    long timeouts = 0;
    long errors = 0;
    for (int i = 0; i < n; i++) {
      timeouts += i % 7 == 0 ? 1 : 0; // "Timeout" in the body
      errors += i % 5 == 0 ? 1 : 0;
    }
    // "done" in every body without the timeout; "4242" (a token unique to one row) once.
    return new long[] {n, timeouts, errors, n - timeouts, n > 4242 ? 1 : 0};
  }

  /**
   * All events, those with the bare term {@code timeout}, those with {@code SeverityText:error},
   * those with the bare terms {@code done} (common) and {@code 4242} (in one row).
   */
  private static long[] counts(Engine engine, Source source) {
    String id = source.id();
    ChartQuery q =
        new ChartQuery(
            T0,
            T0 + 3_600_000,
            Granularity.named("1m").orElseThrow(),
            List.of(
                Series.of(id, AggFn.COUNT, null, null),
                Series.of(id, AggFn.COUNT, null, "timeout"),
                Series.of(id, AggFn.COUNT, null, "SeverityText:error"),
                Series.of(id, AggFn.COUNT, null, "done"),
                Series.of(id, AggFn.COUNT, null, "4242")),
            null);
    long[] out = new long[5];
    for (ChartResult.Row row : engine.query(q).rows()) {
      for (int i = 0; i < out.length; i++) {
        Number v = row.values().get(i); // none: no event of that series in the bucket
        out[i] += v == null ? 0 : v.longValue();
      }
    }
    return out;
  }
}
