package dev.chartwell.server.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP front: the JDK's {@link HttpServer} on a bounded worker pool, dispatching through a
 * {@link Router}. It owns the cross-cutting rules of every response: the request id (header {@code
 * X-Request-Id} and envelope field), authentication before the handler, body limits and the error
 * envelope. No error response ever carries a stack trace or class name.
 */
public final class ApiServer implements AutoCloseable {
  private static final String JSON_TYPE = "application/json; charset=utf-8";

  /** The JDK HttpServer's switch for TCP_NODELAY on accepted connections. */
  static final String NODELAY = "sun.net.httpserver.nodelay";

  private final HttpServer server;
  private final ThreadPoolExecutor workers;
  private final Router router;
  private final Json json;
  private final PrintStream log;
  private final AtomicInteger inFlight = new AtomicInteger();

  private ApiServer(
      HttpServer server, ThreadPoolExecutor workers, Router router, Json json, PrintStream log) {
    this.server = server;
    this.workers = workers;
    this.router = router;
    this.json = json;
    this.log = log;
  }

  /**
   * Binds and starts serving.
   *
   * @param host bind address
   * @param port port, 0 for any free port
   * @param workerThreads size of the request worker pool
   * @param queueCapacity requests that may wait for a worker; beyond that the accepting thread
   *     serves the request itself, which pushes back on new connections
   * @param router the routes
   * @param json the JSON codec
   * @param log where unexpected failures are logged (with their request id)
   * @return the running server
   * @throws IOException when the address cannot be bound
   */
  public static ApiServer start(
      String host,
      int port,
      int workerThreads,
      int queueCapacity,
      Router router,
      Json json,
      PrintStream log)
      throws IOException {
    // Without TCP_NODELAY the JDK server writes headers and body in separate packets, and
    // Nagle's algorithm with the client's delayed ACK adds about 40 ms to responses. The JDK reads
    // this property once, when the first server is created.
    if (System.getProperty(NODELAY) == null) {
      System.setProperty(NODELAY, "true");
    }
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 256);
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor workers =
        new ThreadPoolExecutor(
            workerThreads,
            workerThreads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(queueCapacity),
            r -> {
              Thread t = new Thread(r, "chartwell-http-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
    ApiServer api = new ApiServer(server, workers, router, json, log);
    server.createContext("/", api::serve);
    server.setExecutor(workers);
    server.start();
    return api;
  }

  /**
   * @return the bound port (useful when started on port 0)
   */
  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * Stops accepting connections, lets in-flight requests finish (up to the grace period) and stops
   * the workers.
   *
   * @param graceSeconds how long in-flight requests may take to finish
   */
  public void stop(int graceSeconds) {
    // JDK 17's HttpServer.stop(delay) always waits the whole delay, so wait for the in-flight
    // exchanges ourselves and then close at once.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
    synchronized (inFlight) {
      while (inFlight.get() > 0 && System.nanoTime() < deadline) {
        try {
          inFlight.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    server.stop(0);
    workers.shutdown();
    try {
      if (!workers.awaitTermination(graceSeconds, TimeUnit.SECONDS)) {
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop(5);
  }

  private void serve(HttpExchange exchange) {
    inFlight.incrementAndGet();
    try {
      serveCounted(exchange);
    } finally {
      if (inFlight.decrementAndGet() == 0) {
        synchronized (inFlight) {
          inFlight.notifyAll();
        }
      }
    }
  }

  private void serveCounted(HttpExchange exchange) {
    String requestId = UUID.randomUUID().toString();
    exchange.getResponseHeaders().set("X-Request-Id", requestId);
    try (exchange) {
      Response response;
      try {
        response = dispatch(exchange);
      } catch (ApiException e) {
        writeError(exchange, requestId, e);
        return;
      } catch (RuntimeException | IOException | StackOverflowError e) {
        log.println("request " + requestId + " failed: " + e);
        e.printStackTrace(log);
        writeError(
            exchange,
            requestId,
            new ApiException(
                ErrorCode.INTERNAL, "unexpected server error; request id " + requestId));
        return;
      }
      write(exchange, response.status(), body(response, requestId));
    } catch (IOException e) {
      // The client went away while we were answering; nothing left to tell it.
    }
  }

  private Response dispatch(HttpExchange exchange) throws IOException {
    URI uri = exchange.getRequestURI();
    String method = exchange.getRequestMethod();
    Router.Match match = router.route(method, uri.getPath());
    Route route = match.route();
    Principal principal =
        route
            .auth()
            .authenticate(exchange.getRequestHeaders().getFirst("Authorization"))
            .orElse(null);
    String declaredLength = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declaredLength != null) {
      try {
        if (Long.parseLong(declaredLength.trim()) > route.maxBodyBytes()) {
          throw LimitedInputStream.tooLarge(route.maxBodyBytes());
        }
      } catch (NumberFormatException e) {
        throw ApiException.badRequest("malformed Content-Length header");
      }
    }
    InputStream body = exchange.getRequestBody();
    Request request =
        new Request(
            method,
            uri,
            match.params(),
            exchange.getRequestHeaders(),
            principal,
            body,
            route.maxBodyBytes());
    return route.handler().handle(request);
  }

  private Object body(Response response, String requestId) {
    if (!response.enveloped()) {
      return response.body();
    }
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("status", response.status());
    envelope.put("requestId", requestId);
    if (response.body() != null) {
      envelope.put("result", response.body());
    }
    return envelope;
  }

  private void writeError(HttpExchange exchange, String requestId, ApiException e)
      throws IOException {
    e.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    if (e.code() == ErrorCode.PAYLOAD_TOO_LARGE) {
      // The rest of the body is not read; do not keep the connection for another request.
      exchange.getResponseHeaders().set("Connection", "close");
    }
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("status", e.code().status());
    envelope.put("error", e.envelopeText());
    envelope.put("requestId", requestId);
    write(exchange, e.code().status(), envelope);
  }

  private void write(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = json.mapper().writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", JSON_TYPE);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
