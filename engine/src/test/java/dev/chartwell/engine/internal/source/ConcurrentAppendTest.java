package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.TestAccess;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentRows;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Writers append while readers take snapshots: every snapshot holds only whole events, holds every
 * event acknowledged before it was taken, and the final state has each event exactly once.
 */
class ConcurrentAppendTest {
  static final int WRITERS = 4;
  static final int PER_WRITER = 5_000;

  @Test
  void snapshotsAreConsistentUnderConcurrentAppends() throws Exception {
    try (Engine engine = Engine.builder().segmentRows(1_000).build()) {
      SourceCore source = TestAccess.core(engine.createSource(SourceSpec.logs("c")));
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
      long[] acknowledged = new long[WRITERS];
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < PER_WRITER; i++) {
                    long id = writer * 1_000_000L + i;
                    if (i % 10 == 0) {
                      source.append(Batches.of(List.of(event(id))));
                    } else {
                      source.append(event(id));
                    }
                    synchronized (acknowledged) {
                      acknowledged[writer] = i + 1;
                    }
                  }
                  return null;
                }));
      }
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(
            pool.submit(
                () -> {
                  start.await();
                  int checks = 0;
                  while (writing.get()) {
                    long[] before;
                    synchronized (acknowledged) {
                      before = acknowledged.clone();
                    }
                    SourceSnapshot snap = source.snapshot();
                    Set<Long> ids = check(snap);
                    for (int w = 0; w < WRITERS; w++) {
                      for (long i = 0; i < before[w]; i++) {
                        assertTrue(ids.contains(w * 1_000_000L + i), "acknowledged event missing");
                      }
                    }
                    checks++;
                  }
                  return checks;
                }));
      }
      start.countDown();
      for (Future<?> f : writers) {
        f.get(60, TimeUnit.SECONDS);
      }
      writing.set(false);
      for (Future<Integer> f : readers) {
        assertTrue(f.get(60, TimeUnit.SECONDS) > 0);
      }
      pool.shutdown();

      Set<Long> ids = check(source.snapshot());
      assertEquals(WRITERS * PER_WRITER, ids.size());
      assertEquals(WRITERS * PER_WRITER, source.stats().rows());
    }
  }

  private static Event event(long id) {
    return new Event(
        1_700_000_000_000L + id % 977, Map.of("id", id, "double", id * 2, "Body", "event " + id));
  }

  /** Every row is whole (its three fields agree) and no id appears twice. */
  private static Set<Long> check(SourceSnapshot snap) {
    Set<Long> ids = new HashSet<>();
    for (Segment s : snap.segments()) {
      for (Map<String, Object> row : SegmentRows.read(s)) {
        long id = (Long) row.get("id");
        assertEquals(id * 2, row.get("double"));
        assertEquals("event " + id, row.get("Body"));
        assertEquals(1_700_000_000_000L + id % 977, row.get("@ts"));
        assertTrue(ids.add(id), "duplicate event " + id);
      }
    }
    return ids;
  }
}
