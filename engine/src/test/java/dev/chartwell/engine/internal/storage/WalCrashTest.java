package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.testing.KilledChild;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that appends with {@code request} at random moments, 20 times on the same
 * directory: after each kill, every acknowledged record is there exactly once, at the position its
 * append returned, and the next process continues after the last whole record.
 *
 * <p>{@code destroyForcibly} is SIGKILL: what the process wrote is in the page cache, so this
 * checks torn writes and recovery, not power loss (which fsync addresses).
 */
class WalCrashTest {
  static final int RUNS = 20;

  /** An acknowledged append. */
  private record Ack(int run, int thread, long counter, int count, long last) {}

  @TempDir Path tmp;

  @Test
  void everyAcknowledgedRecordSurvivesAKillExactlyOnce() throws Exception {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    Path dir = tmp.resolve("wal");
    List<Ack> acks = new ArrayList<>();
    int cuts = 0;
    for (int run = 0; run < RUNS; run++) {
      List<String> lines =
          KilledChild.runAndKill(
              WalCrashChild.class,
              50 + random.nextInt(300),
              // two acknowledged appends at least, so that "the child made progress" holds
              printed -> printed.stream().filter(l -> l.startsWith("ack ")).count() >= 2,
              dir.toString(),
              "" + run);
      assertTrue(
          lines.size() >= 1 && lines.get(0).startsWith("ready "), "seed " + seed + ": " + lines);
      for (String line : lines) {
        String[] w = line.split(" ");
        if (w.length == 7 && w[0].equals("ack") && w[6].equals("end")) {
          acks.add(
              new Ack(
                  Integer.parseInt(w[1]),
                  Integer.parseInt(w[2]),
                  Long.parseLong(w[3]),
                  Integer.parseInt(w[4]),
                  Long.parseLong(w[5])));
        }
      }
      try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.REQUEST, 64 * 1024)) {
        if (wal.recovery().bytesCut() > 0) {
          cuts++;
        }
        check(wal, acks, "seed " + seed + ", run " + run);
      }
    }
    System.out.printf(
        "crash test: %d kills, %d acknowledged appends, %d torn tails cut%n",
        RUNS, acks.size(), cuts);
    assertTrue(acks.size() > RUNS, "the child made progress");
  }

  private static void check(WriteAheadLog wal, List<Ack> acks, String what) throws Exception {
    Map<String, Long> positionOf = new HashMap<>();
    long[] next = {1};
    wal.replay(
        0,
        (p, r) -> {
          assertEquals(next[0]++, p, what);
          String key = WalCrashChild.key(r);
          assertNull(positionOf.put(key, p), what + ": " + key + " is in the log twice");
          String[] k = key.split(":");
          byte[] expected =
              WalCrashChild.payload(
                  Integer.parseInt(k[0]), Integer.parseInt(k[1]), Long.parseLong(k[2]));
          assertArrayEquals(expected, r, what + ": record " + p);
        });
    for (Ack a : acks) {
      for (int i = 0; i < a.count(); i++) {
        String key = a.run() + ":" + a.thread() + ":" + (a.counter() + i);
        assertNotNull(positionOf.get(key), what + ": acknowledged " + key + " is missing");
      }
      String last = a.run() + ":" + a.thread() + ":" + (a.counter() + a.count() - 1);
      assertEquals(a.last(), positionOf.get(last), what + ": position of " + last);
    }
  }
}
