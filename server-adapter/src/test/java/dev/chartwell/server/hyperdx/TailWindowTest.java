package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tail's window against a naive reference: a plain list of the accounted events, each found
 * event new when the list holds fewer of its (time, fingerprint) than the search found so far.
 */
class TailWindowTest {
  @Test
  void findsExactlyTheEventsNotYetAccountedFor() {
    Random random = new Random(42);
    for (int run = 0; run < 200; run++) {
      TailWindow w = new TailWindow(0);
      List<long[]> reference = new ArrayList<>();
      for (int round = 0; round < 20; round++) {
        if (random.nextInt(4) == 0) {
          long to = w.start() + random.nextInt(3);
          w.advance(to);
          reference.removeIf(e -> e[0] < w.start());
        }
        List<Long> times = new ArrayList<>();
        List<Long> prints = new ArrayList<>();
        for (int i = random.nextInt(8); i > 0; i--) {
          times.add(w.start() + random.nextInt(4));
          prints.add((long) random.nextInt(3)); // few prints: many events alike
        }
        List<Integer> expected = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < times.size(); i++) {
          long t = times.get(i);
          long f = prints.get(i);
          long known = reference.stream().filter(e -> e[0] == t && e[1] == f).count();
          if (seen.merge(t + "/" + f, 1, Integer::sum) > known) {
            expected.add(i);
          }
        }
        List<Integer> fresh = w.fresh(times, prints);
        assertEquals(expected, fresh);
        for (int i : fresh) {
          w.add(times.get(i), prints.get(i));
          reference.add(new long[] {times.get(i), prints.get(i)});
        }
        assertEquals(reference.size(), w.size());
      }
    }
  }

  @Test
  void advancingForgetsTheEarlierEventsAndNeverGoesBack() {
    TailWindow w = new TailWindow(100);
    w.add(100, 1);
    w.add(101, 1);
    w.add(99, 1); // before the window: ignored
    assertEquals(2, w.size());
    w.advance(101);
    assertEquals(1, w.size());
    w.advance(50);
    assertEquals(101, w.start());
    assertEquals(List.of(0), w.fresh(List.of(100L), List.of(1L)));
    assertEquals(List.of(), w.fresh(List.of(101L), List.of(1L)));
  }

  @Test
  void fingerprintsTellTextsApart() {
    assertEquals(TailWindow.fingerprint("a"), TailWindow.fingerprint("a"));
    org.junit.jupiter.api.Assertions.assertNotEquals(
        TailWindow.fingerprint("{Body=a}"), TailWindow.fingerprint("{Body=b}"));
  }
}
