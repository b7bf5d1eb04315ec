package dev.chartwell.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import dev.chartwell.integrations.Queries;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real Log4j 2, configured from XML, into a real engine on disk. */
class ChartwellAppenderTest {
  @TempDir Path dir;
  private Engine engine;
  private LoggerContext context;
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final StatusListener listener =
      new StatusListener() {
        @Override
        public void log(StatusData data) {
          if (data.getLevel().isMoreSpecificThan(Level.WARN)) {
            warnings.add(data.getMessage().getFormattedMessage());
          }
        }

        @Override
        public Level getStatusLevel() {
          return Level.WARN;
        }

        @Override
        public void close() {}
      };

  @BeforeEach
  void open() {
    engine = Engine.builder().dataDirectory(dir).build();
    StatusLogger.getLogger().registerListener(listener);
  }

  @AfterEach
  void close() {
    if (context != null) {
      context.stop();
    }
    StatusLogger.getLogger().removeListener(listener);
    engine.close();
  }

  /** A context of its own, configured from XML, as log4j2.xml would configure it. */
  private void configure(String attributes) throws Exception {
    String xml =
        "<Configuration status='WARN'>"
            + "<Appenders><Chartwell name='CHARTWELL' "
            + attributes
            + "/></Appenders>"
            + "<Loggers><Root level='DEBUG'><AppenderRef ref='CHARTWELL'/></Root></Loggers>"
            + "</Configuration>";
    context = new LoggerContext("test-" + UUID.randomUUID());
    ConfigurationSource source =
        new ConfigurationSource(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    context.start(new XmlConfiguration(context, source));
  }

  private ChartwellAppender appender() {
    ChartwellAppender a = context.getConfiguration().getAppender("CHARTWELL");
    assertNotNull(a, "the plugin was configured");
    return a;
  }

  @Test
  void everyEventFromManyThreadsIsStoredWithContextAndException() throws Exception {
    configure("serviceName='orders' queueSize='100000' batchSize='64' batchDelayMillis='20'");
    assertEquals(1, ChartwellAppender.attach(context, engine));
    int threads = 4;
    int perThread = 500;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread w =
          new Thread(
              () -> {
                Logger log = context.getLogger("app.worker");
                try {
                  go.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
                ThreadContext.put("worker", Integer.toString(id));
                for (int i = 0; i < perThread; i++) {
                  log.info("item {} of worker {}", i, id);
                }
                ThreadContext.clearMap();
              },
              "worker-" + t);
      w.start();
      workers.add(w);
    }
    go.countDown();
    for (Thread w : workers) {
      w.join();
    }
    Logger log = context.getLogger("app.orders");
    ThreadContext.put("orderId", "42");
    try {
      log.fatal("order {} failed", 42, new IllegalStateException("card declined"));
    } finally {
      ThreadContext.clearMap();
    }
    ChartwellAppender appender = appender();
    assertTrue(appender.flush());

    int total = threads * perThread + 1;
    assertEquals(total, Queries.count(engine, "otel_logs", "ServiceName:orders"));
    assertEquals(perThread, Queries.count(engine, "otel_logs", "LogAttributes.worker:2"));
    assertEquals(threads * perThread, Queries.count(engine, "otel_logs", "SeverityNumber:9"));
    assertEquals(total, appender.writtenEvents());
    assertEquals(0, appender.droppedEvents());

    List<Map<String, Object>> found =
        Queries.search(engine, "otel_logs", "LogAttributes.orderId:42");
    assertEquals(1, found.size());
    Map<String, Object> row = found.get(0);
    assertEquals("order 42 failed", row.get("Body"));
    assertEquals("FATAL", row.get("SeverityText"));
    assertEquals(21L, row.get("SeverityNumber"));
    assertEquals("app.orders", row.get("ScopeName"));
    assertEquals(Thread.currentThread().getName(), row.get("LogAttributes.thread.name"));
    assertEquals(
        Long.toString(Thread.currentThread().getId()),
        String.valueOf(row.get("LogAttributes.thread.id")));
    assertEquals("java.lang.IllegalStateException", row.get("LogAttributes.exception.type"));
    assertEquals("card declined", row.get("LogAttributes.exception.message"));
    String stack = (String) row.get("LogAttributes.exception.stacktrace");
    assertTrue(stack.startsWith("java.lang.IllegalStateException: card declined"), stack);
    assertTrue(stack.contains("at dev.chartwell.log4j2.ChartwellAppenderTest"), stack);
    assertEquals(
        (Long) row.get("Timestamp"), ((Long) row.get("TimestampNanos")) / 1_000_000, "same time");
  }

  @Test
  void aFullQueueDropsAndCounts() throws Exception {
    configure("queueSize='10' serviceName='tiny'");
    ChartwellAppender appender = appender();
    Logger log = context.getLogger("app");
    // No engine yet: the queue fills and nothing takes from it, so exactly 15 are dropped.
    for (int i = 0; i < 25; i++) {
      log.info("event {}", i);
    }
    assertEquals(15, appender.droppedEvents());
    appender.setEngine(engine);
    assertTrue(appender.flush());
    assertEquals(10, Queries.count(engine, "otel_logs", "ServiceName:tiny"));
    assertEquals(10, appender.writtenEvents());
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("15 log events were dropped")),
        "the status logger reports the drops: " + warnings);
  }

  @Test
  void stoppingStoresWhatIsQueued() throws Exception {
    // Batches that would wait a minute: only the stop writes them.
    configure(
        "batchSize='100000' batchDelayMillis='60000' serviceName='stopping' sourceId='app-logs'");
    ChartwellAppender.attach(context, engine);
    Logger log = context.getLogger("app");
    for (int i = 0; i < 300; i++) {
      log.warn("event {}", i);
    }
    context.stop();
    context = null;
    assertEquals(300, Queries.count(engine, "app-logs", "SeverityText:WARN"));
  }
}
