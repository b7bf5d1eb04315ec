package dev.chartwell.server.alerts;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A webhook receiver on 127.0.0.1 (the JDK's HTTP server) that records every request and answers
 * with the statuses it is told, one per request, then 200. A status of 0 hangs: the request is
 * never answered (until the receiver closes).
 */
final class Receiver implements AutoCloseable {
  /**
   * One request received.
   *
   * @param path the path and query
   * @param headers the headers (names lower-case)
   * @param body the body
   */
  record Received(String path, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final Deque<Integer> statuses = new ArrayDeque<>();
  private final List<Received> received = new ArrayList<>();
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile Runnable onRequest = () -> {};

  Receiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * @return the receiver's URL ({@code http://127.0.0.1:port/hook})
   */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  /**
   * @param codes the statuses of the next requests (0: hang)
   * @return this receiver
   */
  synchronized Receiver answer(Integer... codes) {
    statuses.addAll(List.of(codes));
    return this;
  }

  /**
   * @param action run when a request arrives, before it is answered
   */
  void onRequest(Runnable action) {
    onRequest = action;
  }

  /**
   * @return the requests received so far
   */
  synchronized List<Received> received() {
    return new ArrayList<>(received);
  }

  /**
   * Waits until at least {@code n} requests arrived.
   *
   * @param n how many
   * @param seconds how long at most
   * @return the requests
   */
  List<Received> await(int n, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    synchronized (this) {
      while (received.size() < n && System.nanoTime() < deadline) {
        wait(100);
      }
      return new ArrayList<>(received);
    }
  }

  private void handle(HttpExchange x) throws IOException {
    Map<String, String> headers = new TreeMap<>();
    x.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
    String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    int status;
    synchronized (this) {
      received.add(new Received(x.getRequestURI().toString(), headers, body));
      status = statuses.isEmpty() ? 200 : statuses.poll();
      notifyAll();
    }
    onRequest.run();
    if (status == 0) {
      try {
        released.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      x.close();
      return;
    }
    if (status >= 300 && status < 400) {
      x.getResponseHeaders().add("Location", "http://10.0.0.1/elsewhere");
    }
    x.sendResponseHeaders(status, -1);
    x.close();
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
