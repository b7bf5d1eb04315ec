package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.internal.warmup.EngineWarmUp;
import dev.chartwell.engine.internal.warmup.SyntheticLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up warm-up ({@link Engine.Builder#warmUp(boolean)}): off unless asked for; when asked,
 * it runs on a throwaway engine and ends with a line, leaves the real engine's sources, events,
 * counters and files as they were, gives way to the real engine's queries, stops when the engine
 * closes, and a failure inside it ends only the warm-up.
 */
class EngineWarmUpTest {
  private static final Duration LONG = Duration.ofMinutes(5);

  /** Small: 30,000 events in segments of 8,000 rows (three sealed and a head), two rounds. */
  private static final EngineWarmUp.Budget SMALL =
      new EngineWarmUp.Budget(30_000, 8_000, 2, 2, LONG);

  /** Endless unless stopped. */
  private static final EngineWarmUp.Budget ENDLESS =
      new EngineWarmUp.Budget(20_000, 8_000, 1_000_000, 1_000_000, Duration.ofHours(1));

  @TempDir Path dir;

  private final List<String> lines = new CopyOnWriteArrayList<>();

  @Test
  void itsSegmentsAreOfTheEnginesSizeAndItsHeadIsNotAPowerOfTwo() {
    EngineWarmUp.Budget standard = EngineWarmUp.Budget.forSegmentRows(1 << 18);
    assertEquals(1 << 18, standard.segmentRows());
    int head = standard.events() - 3 * standard.segmentRows();
    assertTrue(head > 0 && head < standard.segmentRows() && Integer.bitCount(head) > 1, "" + head);
    // more than 65,536 rows (full roaring containers), at most the default's
    assertEquals(70_000, EngineWarmUp.Budget.forSegmentRows(10_000).segmentRows());
    assertEquals(1 << 18, EngineWarmUp.Budget.forSegmentRows(1 << 22).segmentRows());
    assertEquals(100_000, EngineWarmUp.Budget.forSegmentRows(100_000).segmentRows());
  }

  @Test
  void offByDefault() throws Exception {
    try (Engine engine = Engine.builder().reporter(lines::add).build()) {
      assertTrue(engine.awaitWarmUp(Duration.ZERO));
      engine.createSource(SourceSpec.log("app").build()).append(Event.now(Map.of("Body", "x")));
      assertEquals(1, total(engine, "app"));
    }
    assertEquals(List.of(), lines);
  }

  @Test
  void runsEndsAndLeavesTheEngineAsItWas() throws Exception {
    try (Engine engine =
        Engine.builder().dataDirectory(dir).reporter(lines::add).warmUp(SMALL).build()) {
      Source app = engine.createSource(SourceSpec.log("app").build());
      app.append(Event.now(Map.of("Body", "started", "SeverityText", "info")));
      assertTrue(engine.awaitWarmUp(LONG));
      List<String> warmUp = lines.stream().filter(l -> l.contains("warm")).toList();
      assertEquals(2, warmUp.size(), lines.toString());
      assertTrue(
          warmUp.get(0).startsWith("warming up the ingestion and query paths"), lines.get(0));
      assertTrue(
          warmUp.get(1).startsWith("warm-up done in ")
              && warmUp.get(1).contains("40,000 synthetic events appended, 17 query shapes × 2"),
          warmUp.get(1));
      assertEquals(List.of("app"), engine.sources().stream().map(Source::id).toList());
      assertEquals(1, total(engine, "app"));
      QueryCounters counters = engine.queryCounters();
      assertEquals(1, counters.completed(), "the warm-up's queries are not the engine's");
      assertEquals(1, app.stats().rows());
      try (Stream<Path> files = Files.list(dir)) {
        assertTrue(
            files.noneMatch(p -> p.getFileName().toString().contains("warm-up")),
            "the warm-up wrote into the real data directory");
      }
    }
  }

  @Test
  void endsWithRoundsOverTheEnginesOwnSources() throws Exception {
    Instant t = Instant.now().minusSeconds(3_000);
    try (Engine engine = Engine.builder().dataDirectory(dir).build()) {
      Source app = engine.createSource(SourceSpec.log("app").build());
      for (int i = 0; i < 2_000; i++) {
        app.append(
            Event.at(
                t.plusSeconds(i),
                Map.of("Body", "request " + (i % 7 == 0 ? "failed" : "served"), "status", i % 3)));
      }
    }
    try (Engine engine =
        Engine.builder().dataDirectory(dir).reporter(lines::add).warmUp(SMALL).build()) {
      assertTrue(engine.awaitWarmUp(LONG));
      String done = lines.get(lines.size() - 1);
      assertTrue(
          done.matches(
              "warm-up done in .* × 2 rounds, then [1-9][0-9]* query shapes over the events of 1"
                  + " sources × [1-9][0-9]* rounds \\(the JIT compiler (settled|still compiling)\\)"),
          done);
      assertEquals(0, engine.queryCounters().completed(), "the warm-up's queries are not counted");
      assertEquals(2_000, total(engine, "app"));
    }
  }

  @Test
  void runsAgainOverNewDataAndAwaitWaitsForIt() throws Exception {
    try (Engine engine = Engine.builder().reporter(lines::add).warmUp(SMALL).build()) {
      assertTrue(engine.awaitWarmUp(LONG));
      int before = lines.size();
      Source app = engine.createSource(SourceSpec.log("app").build());
      int events = 1 << 18;
      long end = System.currentTimeMillis();
      SyntheticLogs logs = new SyntheticLogs(3, end - 3_600_000L, end);
      EventBatch batch = new EventBatch();
      for (int from = 0; from < events; from += 10_000) {
        batch.clear();
        logs.put(batch, from, Math.min(10_000, events - from), events);
        app.append(batch);
      }
      assertTrue(engine.awaitWarmUp(LONG), "waits while the rounds over the new events are due");
      List<String> after = lines.subList(before, lines.size());
      assertEquals(1, after.size(), lines.toString());
      assertTrue(
          after
              .get(0)
              .matches(
                  "warm-up over new data done in .* s: [1-9][0-9]* query shapes over the 262,144"
                      + " events of 1 sources × [1-9][0-9]* rounds \\(the JIT compiler"
                      + " (settled|still compiling)\\)"),
          after.get(0));
      assertEquals(0, engine.queryCounters().completed(), "the warm-up's queries are not counted");
    }
    assertEquals(
        List.of(),
        lines.stream().filter(l -> l.contains("stopped")).toList(),
        "closing the engine while the warm-up watches for new data reports nothing");
  }

  @Test
  void closingTheEngineStopsItPromptly() throws Exception {
    Engine engine = Engine.builder().reporter(lines::add).warmUp(ENDLESS).build();
    until(() -> lines.size() == 1); // under way
    engine.close(); // returns once the warm-up has stopped
    assertTrue(engine.awaitWarmUp(Duration.ZERO));
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(1).startsWith("warm-up stopped after "), lines.get(1));
  }

  @Test
  void givesWayWhileTheRealEngineRunsQueries() throws Exception {
    AtomicBoolean busy = new AtomicBoolean(true);
    AtomicInteger asked = new AtomicInteger();
    EngineWarmUp w =
        new EngineWarmUp(
                2,
                FsyncPolicy.NEVER,
                null,
                () -> {
                  asked.incrementAndGet();
                  return busy.get();
                },
                lines::add,
                SMALL,
                List::of)
            .start();
    until(() -> asked.get() > 20); // it keeps asking, and waits
    assertFalse(w.await(Duration.ZERO), "it went on while queries ran");
    busy.set(false);
    assertTrue(w.await(LONG));
    assertTrue(lines.get(lines.size() - 1).startsWith("warm-up done in "), lines.toString());
  }

  @Test
  void aFailureEndsOnlyTheWarmUp() throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("a-file"), "x");
    try (Engine engine = Engine.builder().reporter(lines::add).build()) {
      EngineWarmUp w =
          new EngineWarmUp(
                  2,
                  FsyncPolicy.NEVER,
                  notADirectory, // its temporary directory cannot be made
                  () -> engine.queryCounters().running() > 0,
                  lines::add,
                  SMALL,
                  List::of)
              .start();
      assertTrue(w.await(LONG));
      String last = lines.get(lines.size() - 1);
      assertTrue(
          last.startsWith("warm-up stopped after ")
              && last.endsWith("(the engine is not affected)")
              && !last.contains("\n"),
          last);
      engine.createSource(SourceSpec.log("app").build()).append(Event.now(Map.of("Body", "x")));
      assertEquals(1, total(engine, "app"));
    }
  }

  @Test
  void aReporterThatThrowsDoesNotStopIt() throws Exception {
    AtomicInteger told = new AtomicInteger();
    EngineWarmUp w =
        new EngineWarmUp(
                2,
                FsyncPolicy.NEVER,
                null,
                () -> false,
                line -> {
                  told.incrementAndGet();
                  throw new IllegalStateException("the application's reporter failed");
                },
                SMALL,
                List::of)
            .start();
    assertTrue(w.await(LONG));
    assertEquals(2, told.get(), "it went on to its end line");
  }

  /** Waits for a condition (five minutes at most, then fails). */
  private static void until(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + LONG.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "the condition never held");
      Thread.sleep(5);
    }
  }

  private static long total(Engine engine, String source) {
    ChartResult r =
        engine.query(
            ChartQuery.last(Duration.ofHours(1))
                .source(source)
                .every(Granularity.HOUR)
                .series(Series.count())
                .build());
    long sum = 0;
    for (ChartResult.Row row : r.rows()) {
      sum += row.values().get(0).longValue();
    }
    return sum;
  }
}
