package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentRows;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.engine.testing.KilledChild;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills ({@code kill -9}) a process that appends to a durable engine, at random moments, many times
 * on the same data directory: after every kill, each acknowledged event is there exactly once, no
 * event is there twice, every segment file verifies, and the next process goes on.
 */
class EngineCrashTest {
  static final int RUNS = 24;

  @TempDir Path tmp;

  @Test
  void everyAcknowledgedEventSurvivesAKillExactlyOnce() throws Exception {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    Path dir = tmp.resolve("data");
    Map<String, Set<Long>> acknowledged = new HashMap<>();
    long events = 0;
    for (int run = 0; run < RUNS; run++) {
      List<String> lines =
          KilledChild.runAndKill(
              EngineCrashChild.class,
              100 + random.nextInt(700),
              // more than 100 acknowledged events, so that "the child made progress" holds
              printed -> acknowledgedEvents(printed) > 100,
              dir.toString(),
              "" + run);
      String what = "seed " + seed + ", run " + run;
      assertTrue(!lines.isEmpty() && lines.get(0).equals("ready end"), what + ": " + lines);
      for (String line : lines) {
        String[] w = line.split(" ");
        if (w.length == 5 && w[0].equals("ack") && w[4].equals("end")) {
          long first = Long.parseLong(w[2]);
          Set<Long> keys = acknowledged.computeIfAbsent(w[1], k -> new HashSet<>());
          for (int i = 0; i < Integer.parseInt(w[3]); i++) {
            keys.add(first + i);
          }
        }
      }
      try (Engine engine =
          Engine.builder().dataDirectory(dir).segmentRows(500).reporter(l -> {}).build()) {
        for (String id : List.of("a", "b")) {
          Source s = engine.source(id).orElse(null);
          Set<Long> acked = acknowledged.getOrDefault(id, Set.of());
          if (s == null) {
            assertTrue(acked.isEmpty(), what + ": source " + id + " is gone");
            continue;
          }
          Set<Long> present = keys(s, what);
          for (long k : acked) {
            assertTrue(
                present.contains(k), what + ": acknowledged " + id + "/" + k + " is missing");
          }
          events = Math.max(events, present.size());
        }
      }
    }
    int acks = acknowledged.values().stream().mapToInt(Set::size).sum();
    System.out.printf("engine crash test: %d kills, %d acknowledged events%n", RUNS, acks);
    assertTrue(acks > RUNS * 100, "the child made progress: " + acks);
  }

  /** The keys of every event of a source; fails when one is there twice or a file is damaged. */
  private static Set<Long> keys(Source s, String what) {
    Set<Long> keys = new HashSet<>();
    try (SourceSnapshot snap = s.core().snapshot()) {
      for (Segment seg : snap.segments()) {
        assertNull(seg.verify(), what);
        for (Map<String, Object> row : SegmentRows.read(seg)) {
          long key = (Long) row.get("key");
          assertTrue(keys.add(key), what + ": " + s.id() + "/" + key + " is there twice");
          assertEquals(
              EngineCrashChild.event((int) (key / 1_000_000_000L), key % 1_000_000_000L)
                  .timestamp(),
              (long) row.get("@ts"),
              what);
        }
      }
    }
    return keys;
  }

  /** The events acknowledged in the child's lines. */
  static long acknowledgedEvents(List<String> lines) {
    long n = 0;
    for (String line : lines) {
      String[] w = line.split(" ");
      if (w.length == 5 && w[0].equals("ack") && w[4].equals("end")) {
        n += Integer.parseInt(w[3]);
      }
    }
    return n;
  }
}
