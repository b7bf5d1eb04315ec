package dev.chartwell.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The pipeline's counting, without a logging framework. */
class LogPipelineTest {
  private final List<String> warnings = new CopyOnWriteArrayList<>();

  private LogPipeline pipeline(int queueSize, long offerWaitMillis) {
    return new LogPipeline(
        new LogPipeline.Settings(queueSize, 100, 50, offerWaitMillis, "svc", "otel_logs"),
        warnings::add,
        "test-pipeline");
  }

  private static LogEntry entry(String message) {
    return new LogEntry(
        System.currentTimeMillis() * 1_000_000L,
        "INFO",
        Severity.INFO,
        "test",
        "main",
        1,
        message,
        Map.of("k", "v"),
        null);
  }

  private static long rows(Engine engine) {
    return engine.source("otel_logs").orElseThrow().stats().rows();
  }

  @Test
  void whatNoEngineEverTookIsDroppedAtClose() {
    LogPipeline p = pipeline(5, 0);
    for (int i = 0; i < 8; i++) {
      p.offer(entry("e" + i));
    }
    assertEquals(3, p.droppedEvents());
    assertFalse(p.flush(Duration.ofSeconds(1)), "nothing can be stored without an engine");
    p.close();
    assertEquals(8, p.droppedEvents());
    assertFalse(p.offer(entry("late")));
    assertEquals(9, p.droppedEvents());
    assertTrue(warnings.stream().anyMatch(w -> w.contains("(8 in all)")), warnings.toString());
  }

  @Test
  void aFullQueueWaitsAtMostItsBoundThenDrops() {
    LogPipeline p = pipeline(1, 1);
    assertTrue(p.offer(entry("fits")));
    assertFalse(p.offer(entry("waits a millisecond, then is dropped")));
    assertEquals(1, p.droppedEvents());
    p.close();
  }

  @Test
  void anEventTheEngineRejectsIsCountedAndTheOthersStored() {
    try (Engine engine = Engine.builder().build()) {
      LogPipeline p = pipeline(100, 0);
      p.attach(engine);
      p.offer(entry("fine"));
      p.offer(entry("not text: \uD800")); // an unpaired surrogate has no UTF-8 form
      p.offer(entry("fine too"));
      assertTrue(p.flush(Duration.ofSeconds(10)));
      assertEquals(2, p.writtenEvents());
      assertEquals(1, p.refusedEvents());
      assertEquals(2, rows(engine));
      assertTrue(warnings.stream().anyMatch(w -> w.contains("1 log events were rejected")));
      p.close();
    }
  }

  @Test
  void aClosedEngineRefusesAndIsCounted() {
    Engine engine = Engine.builder().build();
    LogPipeline p = pipeline(100, 0);
    p.attach(engine);
    engine.close();
    p.offer(entry("a"));
    p.offer(entry("b"));
    assertTrue(p.flush(Duration.ofSeconds(10)));
    assertEquals(2, p.refusedEvents());
    assertEquals(0, p.writtenEvents());
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("could not append")), warnings.toString());
    p.close();
  }

  @Test
  void aNewEngineTakesTheBatchesFromThenOn() {
    try (Engine first = Engine.builder().build();
        Engine second = Engine.builder().build()) {
      LogPipeline p = pipeline(100, 0);
      p.attach(first);
      p.offer(entry("one"));
      assertTrue(p.flush(Duration.ofSeconds(10)));
      p.attach(second);
      p.offer(entry("two"));
      p.offer(entry("three"));
      assertTrue(p.flush(Duration.ofSeconds(10)));
      assertEquals(1, rows(first));
      assertEquals(2, rows(second));
      p.close();
    }
  }
}
