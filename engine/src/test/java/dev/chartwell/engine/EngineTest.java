package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.internal.segment.Segment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EngineTest {
  static final long T0 = 1_700_000_000_000L;

  @Test
  void createsFindsListsAndDropsSources() {
    try (Engine engine = Engine.builder().workerThreads(2).build()) {
      Source a = engine.createSource(SourceSpec.logs("a"));
      assertTrue(a.id().matches("[0-9a-f]{24}"), a.id());
      Source b =
          engine.createSource(
              new SourceSpec("my-id", "b", SourceKind.TRACE, "ts", null, null, List.of()));
      assertEquals("my-id", b.id());
      assertEquals(Optional.of(a), engine.source(a.id()));
      assertEquals(2, engine.sources().size());
      assertThrows(
          IllegalArgumentException.class,
          () ->
              engine.createSource(
                  new SourceSpec("my-id", "c", SourceKind.LOG, "ts", null, null, List.of())));
      assertTrue(engine.dropSource("my-id"));
      assertFalse(engine.dropSource("my-id"));
      assertEquals(List.of(a), engine.sources());
    }
  }

  @Test
  void rejectsBadSettings() {
    assertThrows(IllegalArgumentException.class, () -> Engine.builder().workerThreads(0));
    assertThrows(IllegalArgumentException.class, () -> Engine.builder().segmentRows(0));
    assertThrows(IllegalArgumentException.class, () -> Engine.builder().memoryLimitBytes(0));
    assertThrows(IllegalArgumentException.class, () -> Engine.builder().maxMemoryBytes(0));
    assertThrows(IllegalArgumentException.class, () -> Engine.builder().maxHeapOccupancy(0));
    assertThrows(IllegalArgumentException.class, () -> Engine.builder().maxHeapOccupancy(1.5));
  }

  @Test
  void appendsAreRefusedWhileTheEventsHeldExceedTheLimitAndNothingIsEvicted() {
    try (Engine engine =
        Engine.builder().segmentRows(1000).maxMemoryBytes(1 << 20).workerThreads(1).build()) {
      Source a = engine.createSource(SourceSpec.logs("a"));
      long accepted = 0;
      WritesRefusedException refused = null;
      for (int batch = 0; batch < 1000 && refused == null; batch++) {
        List<Event> events = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          events.add(new Event(T0 + batch * 1000L + i, Map.of("Body", "event " + batch + "-" + i)));
        }
        try {
          accepted += a.appendBatch(events).accepted();
        } catch (WritesRefusedException e) {
          refused = e;
        }
      }
      assertTrue(refused != null, "never refused");
      assertTrue(refused.getMessage().contains("reached the limit of 1 MB"), refused.getMessage());
      // Sealing in the background shrinks what is held: fill again, one event at a time, with
      // every seal done, until the held events are over the limit for good.
      a.awaitSealing();
      for (int i = 0; i < 100_000 && engine.heldBytes() <= 1 << 20; i++) {
        a.append(new Event(T0, Map.of("Body", "more " + i)));
        accepted++;
        a.awaitSealing();
      }
      // Everything accepted is still there (nothing was evicted), nothing of the refused batch.
      assertEquals(accepted, a.stats().rows());
      assertEquals(0, a.stats().evictedRows());
      assertThrows(
          WritesRefusedException.class, () -> a.append(new Event(T0, Map.of("Body", "x"))));
      // Dropping data makes room again.
      engine.dropSource(a.id());
      Source b = engine.createSource(SourceSpec.logs("b"));
      b.append(new Event(T0, Map.of("Body", "x")));
      assertEquals(1, b.stats().rows());
    }
  }

  @Test
  void closedEngineRefusesNewSources() {
    Engine engine = Engine.builder().build();
    engine.close();
    assertThrows(EngineClosedException.class, () -> engine.createSource(SourceSpec.logs("x")));
  }

  @Test
  void memoryLimitEvictsTheOldestSealedSegmentsFirst() {
    // Measure one segment's size, then allow about three of them.
    long oneSegment;
    try (Engine probe = Engine.builder().segmentRows(1000).build()) {
      Source s = probe.createSource(SourceSpec.logs("probe"));
      fill(s, 0, 1000);
      s.awaitSealing();
      oneSegment = s.core().sealedSegments().get(0).bytes();
    }
    try (Engine engine =
        Engine.builder()
            .segmentRows(1000)
            .memoryLimitBytes(oneSegment * 3 + oneSegment / 2)
            .build()) {
      Source older = engine.createSource(SourceSpec.logs("older"));
      Source newer = engine.createSource(SourceSpec.logs("newer"));
      fill(older, 0, 2000); // times 0..1999
      fill(newer, 10_000, 3000); // times 10000..12999
      older.awaitSealing();
      newer.awaitSealing();
      EngineStats stats = engine.stats();
      assertTrue(stats.bytes() - headBytes(stats) <= oneSegment * 3 + oneSegment / 2);
      SourceStats o =
          stats.sources().stream().filter(x -> x.name().equals("older")).findFirst().orElseThrow();
      SourceStats n =
          stats.sources().stream().filter(x -> x.name().equals("newer")).findFirst().orElseThrow();
      assertEquals(2, o.evictedSegments(), "the older source's segments hold the oldest events");
      assertEquals(2000, o.evictedRows());
      assertEquals(0, o.rows());
      assertEquals(0, n.evictedSegments());
      assertEquals(3000, n.rows());
      assertEquals(
          List.of(T0 + 10_000L, T0 + 11_000L, T0 + 12_000L),
          newer.core().sealedSegments().stream().map(Segment::minTimestamp).toList());
    }
  }

  private static long headBytes(EngineStats stats) {
    return stats.sources().stream().mapToLong(SourceStats::headBytes).sum();
  }

  private static void fill(Source s, long start, int n) {
    for (int i = 0; i < n; i++) {
      s.append(new Event(T0 + start + i, Map.of("Body", "event number " + i, "status", 200L)));
    }
  }
}
