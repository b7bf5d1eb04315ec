package dev.chartwell.server.http;

import static dev.chartwell.server.http.ProtocolErrorTest.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Clients that are slow, silent, many or still busy when the server stops. */
class SlowClientTest {
  static final String HALF_BODY =
      "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Content-Length: 100\r\n\r\n{\"half\":";

  static ApiServer start(ApiServer.Options options, CountDownLatch release) throws IOException {
    Json json = new Json();
    Router router =
        new Router()
            .add(
                "GET",
                "/health",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, Map.of("status", "ok")))
            .add(
                "POST",
                "/json",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, json.readTree(req.bodyBytes())))
            .add(
                "GET",
                "/slow",
                new Authenticator.None(),
                1024,
                req -> {
                  try {
                    release.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return Response.json(200, Map.of("done", true));
                });
    ApiServer server =
        ApiServer.bind(
            "127.0.0.1", 0, options, json, new PrintStream(new ByteArrayOutputStream(), true));
    server.start(router);
    return server;
  }

  static ApiServer.Options options(Duration idle, Duration header, Duration body, int connections) {
    return new ApiServer.Options(idle, header, body, connections, 200, 16384);
  }

  static Socket connect(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(15_000);
    return s;
  }

  @Test
  void fortyHalfBodiesNeverDelayHealthAndEachTimesOut() throws Exception {
    ApiServer server =
        start(
            options(Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(3), 1000),
            new CountDownLatch(0));
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 40; i++) {
        Socket s = connect(server.port());
        s.getOutputStream().write(HALF_BODY.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        slow.add(s);
      }
      Thread.sleep(300); // every slow request is now being read by a handler
      HttpTestClient http = new HttpTestClient(server.port());
      long worst = 0;
      for (int i = 0; i < 20; i++) {
        long start = System.nanoTime();
        assertEquals(200, http.send("GET", "/health", null).statusCode());
        worst = Math.max(worst, System.nanoTime() - start);
        Thread.sleep(50);
      }
      assertTrue(worst < TimeUnit.SECONDS.toNanos(1), "slowest /health took " + worst + " ns");
      long start = System.nanoTime();
      for (Socket s : slow) {
        String error = envelope(RawHttp.read(s.getInputStream()), 408);
        assertEquals("REQUEST_TIMEOUT: the request body stalled: no bytes arrived for 3 s", error);
      }
      long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(waited < 5_000, "the 408s took " + waited + " ms");
      for (Socket s : slow) {
        assertEquals(-1, s.getInputStream().read(), "the connection closes after the 408");
      }
    } finally {
      for (Socket s : slow) {
        s.close();
      }
      server.stop(2);
    }
  }

  @Test
  void tricklingHeadersGetA408AfterTheHeaderTimeout() throws Exception {
    ApiServer server =
        start(
            options(Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(3), 1000),
            new CountDownLatch(0));
    try (Socket s = connect(server.port())) {
      OutputStream out = s.getOutputStream();
      out.write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      long start = System.nanoTime();
      // One byte every 200 ms: never idle, never done.
      Thread trickle =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 50; i++) {
                    out.write('X');
                    out.flush();
                    Thread.sleep(200);
                  }
                } catch (IOException | InterruptedException e) {
                  // the server closed the connection
                }
              });
      trickle.start();
      RawHttp.Reply r = RawHttp.read(s.getInputStream());
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(
          "REQUEST_TIMEOUT: the request line and headers did not arrive within 1 s",
          envelope(r, 408));
      assertTrue(took >= 900 && took < 3_000, "closed after " + took + " ms");
      trickle.join(15_000);
    } finally {
      server.stop(2);
    }
  }

  @Test
  void idleConnectionsAreClosed() throws Exception {
    ApiServer server =
        start(
            options(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), 1000),
            new CountDownLatch(0));
    try (Socket s = connect(server.port())) {
      long start = System.nanoTime();
      assertEquals(-1, s.getInputStream().read());
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(took >= 900 && took < 3_000, "closed after " + took + " ms");
    } finally {
      server.stop(2);
    }
  }

  @Test
  void connectionsBeyondTheLimitWait() throws Exception {
    ApiServer server =
        start(
            options(Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(5), 3),
            new CountDownLatch(0));
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        Socket s = connect(server.port());
        s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        assertEquals(200, RawHttp.read(s.getInputStream()).status());
        held.add(s);
      }
      try (Socket extra = connect(server.port())) {
        extra.setSoTimeout(500);
        extra.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        InputStream in = extra.getInputStream();
        assertThrows(SocketTimeoutException.class, in::read, "served beyond the limit");
        held.remove(0).close();
        extra.setSoTimeout(5_000);
        assertEquals(200, RawHttp.read(in).status());
      }
    } finally {
      for (Socket s : held) {
        s.close();
      }
      server.stop(2);
    }
  }

  final List<String> laterStatus = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Test
  void stopLetsInFlightRequestsFinish() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ApiServer server = start(ApiServer.Options.defaults(), release);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      int port = server.port();
      HttpTestClient http = new HttpTestClient(port);
      Socket open = connect(port);
      open.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      assertEquals(200, RawHttp.read(open.getInputStream()).status());
      Future<Integer> inFlight = pool.submit(() -> http.send("GET", "/slow", null).statusCode());
      Thread.sleep(300);
      Thread laterRequest =
          new Thread(
              () -> {
                try {
                  Thread.sleep(200); // the server is stopping by now
                  open.getOutputStream()
                      .write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
                  laterStatus.add(envelope(RawHttp.read(open.getInputStream()), 503));
                } catch (Exception | AssertionError e) {
                  laterStatus.add(e.toString());
                }
              });
      laterRequest.start();
      Thread releaser =
          new Thread(
              () -> {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                release.countDown();
              });
      releaser.start();
      long start = System.nanoTime();
      server.stop(5);
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(200, inFlight.get(5, TimeUnit.SECONDS));
      assertTrue(took < 3_000, "stop took " + took + " ms");
      laterRequest.join(5_000);
      assertEquals(
          List.of("SERVICE_UNAVAILABLE: the server is shutting down or overloaded; retry later"),
          laterStatus);
      open.close();
      assertThrows(IOException.class, () -> connect(port).close(), "still accepting");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void stopIsBoundedWithHungClients() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    ApiServer server =
        start(
            options(Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(60), 1000),
            never);
    List<Socket> hung = new ArrayList<>();
    try {
      for (int i = 0; i < 5; i++) {
        Socket half = connect(server.port());
        half.getOutputStream().write(HALF_BODY.getBytes(StandardCharsets.US_ASCII));
        hung.add(half);
        Socket blocked = connect(server.port());
        blocked.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        hung.add(blocked);
        Socket headers = connect(server.port());
        headers.getOutputStream().write("GET /health HTTP/1.1\r\nHo".getBytes());
        hung.add(headers);
      }
      Thread.sleep(300);
      long start = System.nanoTime();
      server.stop(3);
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(took < 3_500, "stop took " + took + " ms");
    } finally {
      for (Socket s : hung) {
        s.close();
      }
      never.countDown();
    }
  }
}
