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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Queries while one thread appends, with the head's parts built ahead on the sealing pool: every
 * query sees a prefix of the events appended, at least every one acknowledged before it started,
 * and its counts (all, a bare term, a field where) are the naive counts over that prefix; once the
 * appends stop, the answer is the one over the same events fully sealed.
 */
class BuildAheadTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final int BATCH = 97;

  @Test
  void queriesWhileAppendingSeeEveryAcknowledgedEventAndCountLikeANaiveReference()
      throws Exception {
    try (Engine engine = Engine.builder().segmentRows(16_384).build()) {
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
                      batch.add(event(n));
                    }
                    attempted.addAndGet(BATCH);
                    source.appendBatch(batch);
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
    }
  }

  private static Event event(int n) {
    String body = "request " + n + (n % 7 == 0 ? " Timeout after 30s" : " done");
    return new Event(
        T0 + n % 1_000, Map.of("Body", body, "SeverityText", n % 5 == 0 ? "error" : "info"));
  }

  /** What {@link #counts} answers over events {@code [0, n)}, counted one by one. */
  private static long[] naive(long n) {
    long timeouts = 0;
    long errors = 0;
    for (int i = 0; i < n; i++) {
      timeouts += i % 7 == 0 ? 1 : 0; // "Timeout" in the body
      errors += i % 5 == 0 ? 1 : 0;
    }
    return new long[] {n, timeouts, errors};
  }

  /**
   * All events, those with the bare term {@code timeout}, those with {@code SeverityText:error}.
   */
  private static long[] counts(Engine engine, Source source) {
    String id = source.id();
    ChartQuery q =
        new ChartQuery(
            T0,
            T0 + 60_000,
            Granularity.named("1m").orElseThrow(),
            List.of(
                Series.of(id, AggFn.COUNT, null, null),
                Series.of(id, AggFn.COUNT, null, "timeout"),
                Series.of(id, AggFn.COUNT, null, "SeverityText:error")),
            null);
    long[] out = new long[3];
    for (ChartResult.Row row : engine.query(q).rows()) {
      for (int i = 0; i < 3; i++) {
        out[i] += row.values().get(i).longValue();
      }
    }
    return out;
  }
}
