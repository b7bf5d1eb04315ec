package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine logs like a library: through {@link System.Logger} (java.util.logging unless the
 * application installs another backend), so that the application's logging receives its lines, and
 * it never prints to standard output or standard error itself.
 */
class EngineLoggingTest {
  @TempDir Path dir;

  /** Collects what the engine's logger receives, through java.util.logging (the default). */
  static final class Captured extends Handler implements AutoCloseable {
    final List<LogRecord> records = new ArrayList<>();
    private final Logger logger = Logger.getLogger("dev.chartwell.engine"); // held: JUL is weak
    private final boolean parents = logger.getUseParentHandlers();

    Captured() {
      logger.addHandler(this);
      logger.setUseParentHandlers(false); // keep the test's output quiet
    }

    @Override
    public synchronized void publish(LogRecord r) {
      records.add(r);
    }

    synchronized List<String> at(Level level) {
      return records.stream()
          .filter(r -> r.getLevel() == level)
          .map(LogRecord::getMessage)
          .toList();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
      logger.setUseParentHandlers(parents);
    }
  }

  private Engine open() {
    return Engine.builder().dataDirectory(dir).segmentRows(100).workerThreads(2).build();
  }

  @Test
  void progressIsLoggedAtInfoAndProblemsAtWarning() throws Exception {
    try (Captured log = new Captured()) {
      try (Engine engine = open()) {
        Source s = engine.createSource(DurableEngineTest.spec("logs"));
        s.appendBatch(DurableEngineTest.events(0, 350));
        s.awaitSealing();
      }
      try (Stream<Path> files = Files.list(dir.resolve("sources/logs/segments"))) {
        Files.delete(files.sorted().findFirst().orElseThrow()); // a listed file goes missing
      }
      try (Engine engine = open()) {
        assertEquals(250, engine.source("logs").orElseThrow().stats().rows());
      }
      List<String> info = log.at(Level.INFO);
      assertTrue(info.contains("opening 1 sources"), info.toString());
      assertTrue(
          info.stream().anyMatch(l -> l.startsWith("opened 250 events in ")), info.toString());
      List<String> warnings = log.at(Level.WARNING);
      assertEquals(1, warnings.size(), warnings.toString());
      assertTrue(warnings.get(0).contains("is listed but missing"), warnings.get(0));
      for (LogRecord r : log.records) {
        assertEquals("dev.chartwell.engine", r.getLoggerName());
      }
      long notes = info.stream().filter(l -> l.contains("read-ahead")).count();
      assertTrue(notes <= 1, "the read-ahead note is logged once per directory: " + info);
    }
  }

  @Test
  void anExceptionNothingCaughtInAnEngineThreadIsLoggedNotPrinted() throws Exception {
    try (Captured log = new Captured()) {
      Thread t =
          new Thread(
              () -> {
                throw new IllegalStateException("a bug");
              },
              "chartwell-test");
      t.setUncaughtExceptionHandler(dev.chartwell.engine.internal.storage.EngineLog::uncaught);
      t.start();
      t.join();
      List<LogRecord> severe =
          log.records.stream().filter(r -> r.getLevel() == Level.SEVERE).toList();
      assertEquals(1, severe.size());
      assertTrue(severe.get(0).getMessage().contains("chartwell-test"), severe.get(0).getMessage());
      assertEquals("a bug", severe.get(0).getThrown().getMessage());
    }
  }

  @Test
  void buildingAndUsingAnEngineWritesNothingToStandardOutputOrError() throws Exception {
    // The application's logging may print (java.util.logging's console handler does, to the real
    // standard error, bound when it was created); the engine itself must not.
    Logger.getLogger("").getHandlers();
    System.getLogger("dev.chartwell.engine");
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
    System.setOut(capture);
    System.setErr(capture);
    try {
      for (int run = 0; run < 2; run++) {
        try (Engine engine = open()) {
          Source s =
              engine
                  .source("logs")
                  .orElseGet(() -> engine.createSource(DurableEngineTest.spec("logs")));
          s.appendBatch(DurableEngineTest.events(run * 250, run * 250 + 250));
          s.awaitSealing();
          assertFalse(DurableEngineTest.chart(engine, "logs").rows().isEmpty());
          engine.dropSource(engine.createSource(DurableEngineTest.spec("gone")).id());
        }
      }
      try (Engine memory = Engine.builder().build()) {
        memory
            .createSource(DurableEngineTest.spec("m"))
            .appendBatch(DurableEngineTest.events(0, 10));
        assertFalse(DurableEngineTest.chart(memory, "m").rows().isEmpty());
      }
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    assertEquals("", printed.toString(StandardCharsets.UTF_8));
  }
}
