package dev.chartwell.examples.embedded;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.logback.ChartwellAppender;
import dev.chartwell.micrometer.ChartwellEngineMetrics;
import dev.chartwell.micrometer.ChartwellMeterRegistry;
import dev.chartwell.micrometer.ChartwellRegistryConfig;
import dev.chartwell.server.ChartwellServer;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * A small shop that keeps its own logs and metrics in an embedded engine and shows them in the web
 * UI. Run it with the JVM flags the embedded server needs (see {@code docs/integrations.md}):
 *
 * <pre>
 * java $CHARTWELL_FLAGS -cp ... dev.chartwell.examples.embedded.EmbeddedApp --port 8080 --data-dir shop-data
 * </pre>
 *
 * It places some orders, prints a chart of them, and serves the UI until stopped.
 */
public final class EmbeddedApp implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedApp.class);
  private static final Logger ORDERS = LoggerFactory.getLogger("shop.orders");

  private final Engine engine;
  private final ChartwellMeterRegistry meters;
  private final ChartwellServer server;
  private final Counter placed;
  private final Timer checkout;

  private EmbeddedApp(Engine engine, ChartwellMeterRegistry meters, ChartwellServer server) {
    this.engine = engine;
    this.meters = meters;
    this.server = server;
    this.placed = Counter.builder("orders.placed").register(meters);
    this.checkout = Timer.builder("checkout.latency").register(meters);
  }

  /**
   * Opens the engine, attaches the logging and metrics integrations and starts the server.
   *
   * @param dataDir the engine's data directory (the server's state goes in {@code server/} under
   *     it)
   * @param port the server's port, {@code 0} for a free one
   * @return the running application
   * @throws IOException when the server cannot start
   */
  public static EmbeddedApp start(Path dataDir, int port) throws IOException {
    Engine engine = Engine.builder().dataDirectory(dataDir.resolve("engine")).build();
    try {
      ChartwellAppender.attach(engine); // the appender of logback.xml now writes to it
      ChartwellMeterRegistry meters =
          new ChartwellMeterRegistry(ChartwellRegistryConfig.DEFAULT, Clock.SYSTEM, engine);
      new ChartwellEngineMetrics(engine).bindTo(meters);
      ChartwellServer server =
          ChartwellServer.embedded(engine)
              .port(port)
              .stateDirectory(dataDir.resolve("server"))
              .serviceName("shop")
              .start();
      LOG.info("shop started, web UI at http://127.0.0.1:{}/", server.port());
      return new EmbeddedApp(engine, meters, server);
    } catch (IOException | RuntimeException e) {
      engine.close();
      throw e;
    }
  }

  /**
   * Places orders: one log event each (every tenth fails, with an exception), a counter and a
   * timer.
   *
   * @param n how many
   */
  public void placeOrders(int n) {
    for (int i = 0; i < n; i++) {
      MDC.put("customer", "c-" + (i % 7));
      try {
        long millis = 5 + (i % 40);
        checkout.record(Duration.ofMillis(millis));
        placed.increment();
        if (i % 10 == 9) {
          ORDERS.error("order {} failed", i, new IllegalStateException("card declined"));
        } else {
          ORDERS.info("order {} placed in {} ms", i, millis);
        }
      } finally {
        MDC.remove("customer");
      }
    }
  }

  /**
   * Waits until every log event and meter so far is stored in the engine.
   *
   * @return whether the logs were all stored in time
   */
  public boolean flush() {
    boolean logs = ChartwellAppender.flushAll(Duration.ofSeconds(10));
    meters.flush();
    return logs;
  }

  /**
   * Charts the orders of the last hour per minute: placed (info) and failed (error).
   *
   * @return the chart: per minute, the count of each
   */
  public ChartResult ordersPerMinute() {
    long now = System.currentTimeMillis();
    String orders = "ScopeName:\"shop.orders\"";
    return engine.query(
        new ChartQuery(
            now - 3_600_000,
            now + 60_000,
            Granularity.named("1m").orElseThrow(),
            List.of(
                Series.of("otel_logs", AggFn.COUNT, null, orders + " SeverityText:INFO"),
                Series.of("otel_logs", AggFn.COUNT, null, orders + " SeverityText:ERROR")),
            null));
  }

  /**
   * @return the embedded server
   */
  public ChartwellServer server() {
    return server;
  }

  /**
   * @return the engine
   */
  public Engine engine() {
    return engine;
  }

  /** Stops the server, stores the last log events and meters, then closes the engine. */
  @Override
  public void close() throws IOException {
    try {
      server.close();
    } finally {
      meters.close(); // publishes a last time
      ChartwellAppender.flushAll(Duration.ofSeconds(10));
      engine.close();
    }
  }

  /**
   * @param args {@code --port N} (8080), {@code --data-dir DIR} ({@code ./shop-data}), {@code
   *     --orders N} (1000), {@code --exit} to stop after printing the chart instead of serving
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    int port = 8080;
    Path dataDir = Path.of("shop-data");
    int orders = 1000;
    boolean exit = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--data-dir" -> dataDir = Path.of(args[++i]);
        case "--orders" -> orders = Integer.parseInt(args[++i]);
        case "--exit" -> exit = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    EmbeddedApp app = start(dataDir, port);
    app.placeOrders(orders);
    app.flush();
    for (ChartResult.Row row : app.ordersPerMinute().rows()) {
      LOG.info(
          "{}: {} placed, {} failed",
          java.time.Instant.ofEpochMilli(row.bucket()),
          row.values().get(0),
          row.values().get(1));
    }
    ChartwellServer.Access access = app.server().access().orElseThrow();
    LOG.info(
        "sign in at http://127.0.0.1:{}/ with key id {} (secret: {})",
        app.server().port(),
        access.adminKeyId(),
        access.adminKeySecret().orElse("as printed on the first start"));
    if (exit) {
      app.close();
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    app.close();
                  } catch (IOException e) {
                    LOG.warn("closing: {}", e.toString());
                  }
                  stopped.countDown();
                }));
    stopped.await();
  }
}
