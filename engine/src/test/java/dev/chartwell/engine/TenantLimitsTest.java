package dev.chartwell.engine;

import static dev.chartwell.engine.DurableEngineTest.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenants sharing one engine: memory past the limit shared fairly, disk quotas and the disk limit
 * dropping only the largest tenant's events, and idle heads sealed on the engine's clock.
 */
class TenantLimitsTest {
  @TempDir Path dir;

  private static List<Event> batch(long time, int n, long seq) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          new Event(
              time + i,
              Map.of("Body", "event " + (seq + i) + " of a steady stream", "seq", seq + i)));
    }
    return out;
  }

  /** The tenant of a source: the text before its first dash. */
  private static String tenant(String sourceId) {
    int dash = sourceId.indexOf('-');
    return dash < 0 ? null : sourceId.substring(0, dash);
  }

  /** Appends to tenant a's sources until the engine refuses, spreading over many sources. */
  private static void fillMemory(Engine engine) {
    List<Source> many = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      many.add(engine.createSource(spec("a-" + i)));
    }
    long seq = 0;
    while (true) {
      for (Source s : many) {
        try {
          s.appendBatch(batch(DurableEngineTest.T0, 200, seq));
        } catch (WritesRefusedException full) {
          return;
        }
        seq += 200;
      }
    }
  }

  @Test
  void withoutTenantsOneWriterFillingTheMemoryRefusesEveryone() {
    // The reproduction: a shared limit lets one service's sources refuse another's ingestion.
    try (Engine engine = Engine.builder().maxMemoryBytes(2 << 20).build()) {
      fillMemory(engine);
      Source b = engine.createSource(spec("b-0"));
      assertThrows(
          WritesRefusedException.class, () -> b.appendBatch(batch(DurableEngineTest.T0, 10, 0)));
    }
  }

  @Test
  void aTenantUnderItsShareIsAdmittedWhileTheOneOverItIsRefused() {
    try (Engine engine =
        Engine.builder().maxMemoryBytes(2 << 20).tenants(TenantLimitsTest::tenant).build()) {
      fillMemory(engine);
      assertTrue(engine.heldBytes() > 2 << 20);
      Source b = engine.createSource(spec("b-0"));
      long seq = 0;
      // b may take up to its share (half the limit, two tenants holding memory) past the limit
      while (engine.source("b-0").orElseThrow().core().headBytes() + b.core().sealedBytes()
          < (1 << 20) / 2) {
        assertEquals(10, b.appendBatch(batch(DurableEngineTest.T0, 10, seq)).accepted());
        seq += 10;
      }
      Source a = engine.source("a-0").orElseThrow();
      WritesRefusedException refused =
          assertThrows(
              WritesRefusedException.class,
              () -> a.appendBatch(batch(DurableEngineTest.T0, 10, 0)));
      assertTrue(refused.getMessage().contains("fair share"), refused.getMessage());
      assertTrue(refused.getMessage().contains("tenant 'a'"), refused.getMessage());
    }
  }

  @Test
  void aTenantOverItsDiskQuotaLosesOnlyItsOwnOldestEvents() {
    Map<String, Long> quotas = new ConcurrentHashMap<>(Map.of("a", 200_000L));
    try (Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .segmentRows(1000)
            .tenants(TenantLimitsTest::tenant)
            .diskQuota(t -> quotas.getOrDefault(t, Long.MAX_VALUE))
            .reporter(line -> {})
            .build()) {
      Source b = engine.createSource(spec("b-0"));
      b.appendBatch(batch(DurableEngineTest.T0, 20_000, 0)); // b's events are the oldest
      b.awaitSealing();
      Source a = engine.createSource(spec("a-0"));
      for (int round = 0; round < 40; round++) {
        a.appendBatch(batch(DurableEngineTest.T0 + 1_000_000 + round * 1000L, 1000, round * 1000L));
        a.awaitSealing();
        engine.enforceStorageLimits();
        assertTrue(a.core().diskBytes() <= 200_000, "round " + round + ": " + a.core().diskBytes());
      }
      assertEquals(20_000, b.stats().rows(), "the other tenant's events are all kept");
      assertTrue(a.stats().rows() < 40_000, "the tenant over its quota lost its oldest");
    }
  }

  @Test
  void theDiskLimitDropsTheLargestTenantsEventsNotTheOldestOverall() {
    // The reproduction: before tenants, b's 20,000 events were the oldest and went first.
    long bBytes;
    try (Engine engine = Engine.builder().dataDirectory(dir).segmentRows(1000).build()) {
      Source b = engine.createSource(spec("b-0"));
      b.appendBatch(batch(DurableEngineTest.T0, 20_000, 0));
      b.awaitSealing();
      bBytes = b.core().diskBytes();
    }
    long limit = 3 * bBytes; // b holds a third: less than half, so never the largest
    try (Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .segmentRows(1000)
            .maxDiskBytes(limit)
            .tenants(TenantLimitsTest::tenant)
            .reporter(line -> {})
            .build()) {
      Source b = engine.source("b-0").orElseThrow();
      Source a = engine.createSource(spec("a-0"));
      for (int round = 0; round < 80; round++) {
        a.appendBatch(batch(DurableEngineTest.T0 + 1_000_000 + round * 1000L, 1000, round * 1000L));
        a.awaitSealing();
        engine.enforceStorageLimits();
        assertTrue(engine.diskBytes() <= limit, "round " + round + ": " + engine.diskBytes());
      }
      assertTrue(a.stats().rows() < 80_000, "the flooding tenant lost its oldest");
      assertEquals(20_000, b.stats().rows(), "the smaller tenant's events are all kept");
    }
  }

  @Test
  void aTenantWhoseUnsealedEventsFillTheDiskNeverDropsASmallerOnesSegments() {
    try (Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .segmentRows(1000)
            .maxDiskBytes(1_000_000)
            .tenants(TenantLimitsTest::tenant)
            .reporter(line -> {})
            .build()) {
      Source b = engine.createSource(spec("b-0"));
      b.appendBatch(batch(DurableEngineTest.T0, 5_000, 0));
      b.awaitSealing();
      assertTrue(b.core().diskBytes() < 500_000, "b holds less than its share");
      // a's events stay unsealed (less than a segment per source): only its logs grow
      for (int i = 0; i < 40; i++) {
        engine
            .createSource(spec("a-" + i))
            .appendBatch(batch(DurableEngineTest.T0 + 1_000_000, 900, 0));
      }
      assertTrue(engine.diskBytes() > 1_000_000, "over the limit: " + engine.diskBytes());
      assertEquals(0, engine.enforceStorageLimits());
      assertEquals(5_000, b.stats().rows(), "the smaller tenant's segments are kept");
    }
  }

  @Test
  void aHeadIdleForTheSealIdleTimeIsSealedOnTheEnginesClock() {
    StorageLimitsTest.TestClock clock = new StorageLimitsTest.TestClock();
    try (Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .clock(clock)
            .sealIdle(Duration.ofSeconds(30))
            .reporter(line -> {})
            .build()) {
      Source s = engine.createSource(spec("quiet"));
      s.appendBatch(batch(DurableEngineTest.T0, 3, 0));
      engine.sealIdleHeads(); // sees the head
      clock.millis.addAndGet(29_000);
      assertEquals(0, engine.sealIdleHeads(), "not idle long enough");
      s.appendBatch(batch(DurableEngineTest.T0, 1, 3)); // the head changed: idle from now on
      engine.sealIdleHeads();
      clock.millis.addAndGet(29_000);
      assertEquals(0, engine.sealIdleHeads());
      clock.millis.addAndGet(1_000);
      assertEquals(1, engine.sealIdleHeads());
      s.awaitSealing();
      assertEquals(1, s.core().sealedSegments().size());
      assertEquals(4, s.core().sealedSegments().get(0).rows());
      assertEquals(4, s.stats().rows());
      clock.millis.addAndGet(60_000);
      assertEquals(0, engine.sealIdleHeads(), "an empty head is never sealed");
    }
  }

  @Test
  void idleHeadsAreLeftAloneWithoutMemoryPressure() {
    StorageLimitsTest.TestClock clock = new StorageLimitsTest.TestClock();
    try (Engine engine =
        Engine.builder()
            .clock(clock)
            .maxMemoryBytes(1L << 30)
            .sealIdle(Duration.ofSeconds(30))
            .build()) {
      Source s = engine.createSource(spec("trickle"));
      s.appendBatch(batch(DurableEngineTest.T0, 3, 0));
      engine.sealIdleHeads();
      clock.millis.addAndGet(3_600_000);
      assertEquals(0, engine.sealIdleHeads(), "a trickle source is not cut into tiny segments");
      assertTrue(s.core().sealedSegments().isEmpty());
    }
  }
}
