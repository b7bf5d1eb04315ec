package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Request#onClientDisconnect}: a handler learns that its client went away. */
class ClientDisconnectTest {
  static ApiServer server;
  static int port;
  static volatile CountDownLatch cancelled;
  static volatile CountDownLatch started;
  static volatile CountDownLatch finished;
  static volatile boolean finishedCancelled;
  static final AtomicInteger actions = new AtomicInteger();

  /** Only stops a hung test: no outcome depends on it. */
  static final long HUNG_SECONDS = 60;

  @BeforeAll
  static void start() throws IOException {
    Json json = new Json();
    Handler waitUntilCancelled =
        req -> {
          if (req.method().equals("POST")) {
            json.readTree(req.bodyBytes());
          }
          CountDownLatch mine = cancelled;
          CountDownLatch done = finished;
          req.onClientDisconnect(
              () -> {
                actions.incrementAndGet();
                mine.countDown();
              });
          started.countDown();
          // By default the handler waits (10 minutes at most) until its client is gone.
          long wait = Long.parseLong(req.queryParam("ms").orElse("600000"));
          try {
            if (req.queryParam("until").orElse("").equals("pipelined")) {
              // Until the watch has consumed bytes of a following request.
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HUNG_SECONDS);
              while (!req.watchConsumedBytes() && System.nanoTime() < deadline) {
                Thread.sleep(10);
              }
            }
            boolean wasCancelled = mine.await(wait, TimeUnit.MILLISECONDS);
            finishedCancelled = wasCancelled;
            return Response.json(200, Map.of("cancelled", wasCancelled));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.json(200, Map.of("interrupted", true));
          } finally {
            done.countDown();
          }
        };
    Router router =
        new Router()
            .add("GET", "/wait", new Authenticator.None(), 1024, waitUntilCancelled)
            .add("POST", "/wait", new Authenticator.None(), 1024, waitUntilCancelled);
    server =
        ApiServer.bind(
            "127.0.0.1",
            0,
            ApiServer.Options.defaults(),
            json,
            new PrintStream(new ByteArrayOutputStream(), true));
    server.start(router);
    port = server.port();
  }

  @AfterAll
  static void stop() {
    server.stop(2);
  }

  @BeforeEach
  void reset() {
    cancelled = new CountDownLatch(1);
    started = new CountDownLatch(1);
    finished = new CountDownLatch(1);
    finishedCancelled = false;
    actions.set(0);
  }

  private static void closesAfterSending(String request) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      assertTrue(started.await(HUNG_SECONDS, TimeUnit.SECONDS), "the handler did not start");
    }
    assertTrue(cancelled.await(HUNG_SECONDS, TimeUnit.SECONDS), "the action did not run");
    assertTrue(finished.await(HUNG_SECONDS, TimeUnit.SECONDS), "the handler did not return");
    // The handler would have waited 10 minutes: the action woke it while it still ran, so the
    // close was noticed during the handler, not when its response was written.
    assertTrue(finishedCancelled, "the handler ended before the action ran");
    // The watch is done once it has run the actions: the count is final.
    assertEquals(1, actions.get(), "the action runs once");
  }

  @Test
  void closingTheSocketRunsTheAction() throws Exception {
    closesAfterSending("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
  }

  @Test
  void closingAfterABodyRunsTheAction() throws Exception {
    closesAfterSending(
        "POST /wait HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: 8\r\n\r\n{\"a\":1}\n");
  }

  @Test
  void aClientThatWaitsKeepsItsConnectionAndNoActionRuns() throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(HUNG_SECONDS));
      OutputStream out = s.getOutputStream();
      for (int i = 0; i < 3; i++) {
        reset();
        out.write("GET /wait?ms=200 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        RawHttp.Reply r = RawHttp.read(s.getInputStream());
        assertEquals(200, r.status());
        assertEquals("{\"cancelled\":false}", r.body());
        assertFalse("close".equalsIgnoreCase(r.header("Connection")));
      }
      assertEquals(0, actions.get());
    }
  }

  @Test
  void aPipelinedRequestIsNotADisconnect() throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(HUNG_SECONDS));
      OutputStream out = s.getOutputStream();
      // The handler returns once the watch has consumed the pipelined bytes.
      out.write("GET /wait?ms=0&until=pipelined HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      out.flush();
      assertTrue(started.await(HUNG_SECONDS, TimeUnit.SECONDS)); // the watch is armed
      out.write("GET /wait?ms=1 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      out.flush();
      RawHttp.Reply first = RawHttp.read(s.getInputStream());
      assertEquals("{\"cancelled\":false}", first.body());
      // Part of the next request was read while watching: that one is not answered, and the
      // connection closes so the client retries it.
      assertEquals("close", first.header("Connection"));
      assertEquals(-1, s.getInputStream().read());
      assertEquals(0, actions.get());
    }
  }
}
