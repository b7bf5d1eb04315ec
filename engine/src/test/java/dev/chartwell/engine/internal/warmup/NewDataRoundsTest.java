package dev.chartwell.engine.internal.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When the warm-up over new data runs: past the events asked, twice the last, and quiet. */
class NewDataRoundsTest {
  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong clock = new AtomicLong();
  private final List<String> lines = new CopyOnWriteArrayList<>();

  @Test
  void dueFromTheLeastEventsAndThenAtTwiceTheEventsWarmedUpOn() {
    NewDataRounds rounds = rounds(List::of, 100);
    assertFalse(rounds.due(99));
    assertTrue(rounds.due(100));
    rounds.warmedAt(1_000);
    assertFalse(rounds.due(1_999));
    assertTrue(rounds.due(2_000));
  }

  @Test
  void runsOnceTheEventsStopArrivingAndNotAgainUntilTheyDouble() throws Exception {
    try (Engine engine = Engine.builder().reporter(line -> {}).build()) {
      Source app = engine.createSource(SourceSpec.log("app").build());
      append(app, 0, 600);
      NewDataRounds rounds = rounds(engine::sources, 500);
      assertFalse(rounds.check(), "the first look only counts");
      clock.addAndGet(SECOND / 2);
      append(app, 600, 100);
      assertFalse(rounds.check(), "events arrived since the last look");
      clock.addAndGet(SECOND / 2);
      assertFalse(rounds.check(), "quiet for half a second only");
      assertFalse(rounds.idle(), "due, waiting for the events to stop");
      clock.addAndGet(SECOND);
      assertTrue(rounds.check());
      assertEquals(1, lines.size(), lines.toString());
      assertTrue(
          lines
              .get(0)
              .matches(
                  "warm-up over new data done in .* s: [1-9][0-9]* query shapes over the 700"
                      + " events of 1 sources × [1-9][0-9]* rounds \\(the JIT compiler"
                      + " (settled|still compiling)\\)"),
          lines.get(0));
      assertTrue(rounds.idle());
      assertEquals(0, engine.queryCounters().completed(), "its queries are not the engine's");

      append(app, 700, 600); // 1,300 events: fewer than twice 700
      clock.addAndGet(10 * SECOND);
      assertFalse(rounds.check());
      clock.addAndGet(10 * SECOND);
      assertFalse(rounds.check());
      assertTrue(rounds.idle());
      append(app, 1_300, 100); // 1,400
      rounds.check();
      clock.addAndGet(2 * SECOND);
      assertTrue(rounds.check());
      assertEquals(2, lines.size(), lines.toString());
    }
  }

  @Test
  void endsWhenTheWarmUpIsStopped() {
    Pacing pacing = new Pacing(() -> false);
    NewDataRounds rounds =
        new NewDataRounds(List::of, 1, pacing, lines::add, clock::get, NewDataRounds.LEAST_EVENTS);
    pacing.stop();
    org.junit.jupiter.api.Assertions.assertThrows(InterruptedException.class, rounds::watch);
  }

  private NewDataRounds rounds(
      java.util.function.Supplier<List<Source>> sources, long leastEvents) {
    return new NewDataRounds(
        sources, 2, new Pacing(() -> false), lines::add, clock::get, leastEvents);
  }

  private static void append(Source source, int from, int count) {
    Instant start = Instant.now().minusSeconds(3_000);
    for (int i = from; i < from + count; i++) {
      source.append(
          Event.at(
              start.plusSeconds(i),
              Map.of(
                  "Body",
                  "request " + (i % 7 == 0 ? "failed" : "served"),
                  "status",
                  i % 3,
                  "Duration",
                  i * 1.5)));
    }
  }
}
