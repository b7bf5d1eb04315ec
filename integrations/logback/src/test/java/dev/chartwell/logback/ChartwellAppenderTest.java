package dev.chartwell.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import dev.chartwell.engine.Engine;
import dev.chartwell.integrations.Queries;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** Real Logback, configured from XML, into a real engine on disk. */
class ChartwellAppenderTest {
  @TempDir Path dir;
  private Engine engine;
  private LoggerContext context;

  @BeforeEach
  void open() {
    engine = Engine.builder().dataDirectory(dir).build();
    // Logback's own context, as an application has it (it carries the MDC), set up anew.
    context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    context.getStatusManager().clear();
  }

  @AfterEach
  void close() {
    context.reset();
    engine.close();
  }

  private void configure(String appenderSettings) throws JoranException {
    String xml =
        "<configuration>"
            + "<appender name='CHARTWELL' class='dev.chartwell.logback.ChartwellAppender'>"
            + appenderSettings
            + "</appender>"
            + "<root level='DEBUG'><appender-ref ref='CHARTWELL'/></root>"
            + "</configuration>";
    JoranConfigurator c = new JoranConfigurator();
    c.setContext(context);
    c.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    for (Status s : context.getStatusManager().getCopyOfStatusList()) {
      if (s.getLevel() >= Status.WARN) {
        throw new AssertionError("configuration: " + s);
      }
    }
  }

  private ChartwellAppender appender() {
    return (ChartwellAppender) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("CHARTWELL");
  }

  @Test
  void everyEventFromManyThreadsIsStoredWithMdcAndException() throws Exception {
    configure(
        "<serviceName>orders</serviceName><queueSize>100000</queueSize>"
            + "<batchSize>64</batchSize><batchDelayMillis>20</batchDelayMillis>");
    assertEquals(1, ChartwellAppender.attach(engine));
    int threads = 4;
    int perThread = 500;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread w =
          new Thread(
              () -> {
                org.slf4j.Logger log = context.getLogger("app.worker");
                try {
                  go.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
                MDC.put("worker", Integer.toString(id));
                for (int i = 0; i < perThread; i++) {
                  log.info("item {} of worker {}", i, id);
                }
                MDC.clear();
              },
              "worker-" + t);
      w.start();
      workers.add(w);
    }
    go.countDown();
    for (Thread w : workers) {
      w.join();
    }
    org.slf4j.Logger log = context.getLogger("app.orders");
    MDC.put("orderId", "42");
    try {
      log.error("order {} failed", 42, new IllegalStateException("card declined"));
    } finally {
      MDC.clear();
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
    assertEquals("ERROR", row.get("SeverityText"));
    assertEquals(17L, row.get("SeverityNumber"));
    assertEquals("app.orders", row.get("ScopeName"));
    assertEquals("orders", row.get("ServiceName"));
    assertEquals(Thread.currentThread().getName(), row.get("LogAttributes.thread.name"));
    assertEquals(
        Thread.currentThread().getId() + "", String.valueOf(row.get("LogAttributes.thread.id")));
    assertEquals("java.lang.IllegalStateException", row.get("LogAttributes.exception.type"));
    assertEquals("card declined", row.get("LogAttributes.exception.message"));
    String stack = (String) row.get("LogAttributes.exception.stacktrace");
    assertTrue(stack.startsWith("java.lang.IllegalStateException: card declined"), stack);
    assertTrue(stack.contains("at dev.chartwell.logback.ChartwellAppenderTest"), stack);
    long millis = (Long) row.get("Timestamp");
    long nanos = (Long) row.get("TimestampNanos");
    assertEquals(millis, nanos / 1_000_000);
    // Searched like any OTLP log: a bare term looks in the body.
    assertEquals(1, Queries.count(engine, "otel_logs", "declined OR failed"));
  }

  @Test
  void aFullQueueDropsAndCounts() throws Exception {
    configure("<queueSize>10</queueSize><serviceName>tiny</serviceName>");
    ChartwellAppender appender = appender();
    org.slf4j.Logger log = context.getLogger("app");
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
        context.getStatusManager().getCopyOfStatusList().stream()
            .anyMatch(
                s ->
                    s.getLevel() == Status.WARN
                        && s.getMessage().contains("15 log events were dropped")),
        "a status warning reports the drops");
  }

  @Test
  void stoppingStoresWhatIsQueued() throws Exception {
    // Batches that would wait a minute: only the stop writes them.
    configure(
        "<batchSize>100000</batchSize><batchDelayMillis>60000</batchDelayMillis>"
            + "<serviceName>stopping</serviceName><sourceId>app-logs</sourceId>");
    ChartwellAppender.attach(context, engine);
    org.slf4j.Logger log = context.getLogger("app");
    for (int i = 0; i < 300; i++) {
      log.warn("event {}", i);
    }
    context.reset(); // what Logback's shutdown does: stops every appender
    assertEquals(300, Queries.count(engine, "app-logs", "SeverityText:WARN"));
  }
}
