package dev.chartwell.server.tenancy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A "ClickHouse" on 127.0.0.1 that describes its table at once and never answers a query: every
 * other request is held until the fake closes.
 */
final class FakeClickHouse implements AutoCloseable {
  static final String DESCRIBE =
      "Timestamp\tDateTime64(9)\t\t\t\t\t\nServiceName\tString\t\t\t\t\t\nBody\tString\t\t\t\t\t\n"
          + "TraceId\tString\t\t\t\t\t\nSpanId\tString\t\t\t\t\t\n";

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch closed = new CountDownLatch(1);
  final AtomicInteger held = new AtomicInteger();

  FakeClickHouse() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext(
        "/",
        x -> {
          String sql = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          if (sql.startsWith("DESCRIBE")) {
            byte[] b = DESCRIBE.getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
            return;
          }
          held.incrementAndGet();
          try {
            closed.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          x.close();
        });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
