package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The harness's client against a real HTTP server and against one that drops idle connections. */
class PlainHttpTest {

  /** What a test server answers to a request. */
  private interface Answerer {
    byte[] answer(HttpExchange exchange) throws IOException;
  }

  /**
   * A loopback server whose one path answers each request with {@code status} and what {@code
   * answerer} makes of it, with a fixed length and chunked in turns.
   */
  private static HttpServer serve(String path, int status, Answerer answerer) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger calls = new AtomicInteger();
    server.createContext(
        path,
        exchange -> {
          byte[] answer = answerer.answer(exchange);
          boolean chunked = calls.incrementAndGet() % 2 == 0;
          exchange.sendResponseHeaders(status, chunked ? 0 : answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    server.start();
    return server;
  }

  @Test
  void postsABodyAndReadsStatusHeadersAndBodyOnOneConnection() throws Exception {
    HttpServer server =
        serve(
            "/echo",
            201,
            exchange -> {
              byte[] body = exchange.getRequestBody().readAllBytes();
              String auth = exchange.getRequestHeaders().getFirst("Authorization");
              exchange.getResponseHeaders().add("Server-Timing", "engine;dur=1.5");
              return (auth + "|" + new String(body, StandardCharsets.UTF_8))
                  .getBytes(StandardCharsets.UTF_8);
            });
    try (PlainHttp client =
        new PlainHttp(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))) {
      for (int i = 0; i < 4; i++) { // fixed length and chunked answers, in turns
        PlainHttp.Answer a =
            client.post("/echo", Map.of("Authorization", "Bearer t"), ("body " + i).getBytes());
        assertEquals(201, a.status());
        assertEquals("engine;dur=1.5", a.headers().get("server-timing"));
        assertEquals("Bearer t|body " + i, a.text());
      }
    } finally {
      server.stop(0);
    }
  }

  @Test
  void readsAnswersLargerThanItsBufferWholeAndKeepsTheConnection() throws Exception {
    byte[] large = new byte[3 << 20]; // 3 MiB: many times the client's 64 KiB buffer
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) (i * 31 + (i >>> 13));
    }
    HttpServer server =
        serve(
            "/large",
            200,
            exchange -> {
              exchange.getRequestBody().readAllBytes();
              return large;
            });
    try (PlainHttp client =
        new PlainHttp(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))) {
      for (int i = 0; i < 4; i++) { // fixed length and chunked, in turns, on one connection
        PlainHttp.Answer a = client.post("/large", Map.of(), new byte[0]);
        assertEquals(200, a.status());
        assertArrayEquals(large, a.body());
        PlainHttp.Answer again = client.post("/large", Map.of(), new byte[0]);
        assertArrayEquals(large, again.body()); // the next answer starts where this one ended
      }
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aConnectionTheServerClosedIsOpenedAgain() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread serverThread =
          new Thread(
              () -> {
                // each connection gets one answer, then the server closes it, as after a
                // keep-alive timeout
                for (int i = 0; i < 3; i++) {
                  try (Socket s = listener.accept()) {
                    var in = s.getInputStream();
                    String head = "";
                    while (!head.endsWith("\r\n\r\n")) {
                      head += (char) in.read();
                    }
                    int length =
                        Integer.parseInt(head.replaceAll("(?s).*Content-Length: (\\d+).*", "$1"));
                    byte[] body = in.readNBytes(length);
                    s.getOutputStream()
                        .write(
                            ("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().write(body);
                  } catch (Exception e) {
                    return;
                  }
                }
              });
      serverThread.start();
      try (PlainHttp client =
          new PlainHttp(URI.create("http://127.0.0.1:" + listener.getLocalPort()))) {
        for (int i = 0; i < 3; i++) {
          byte[] body = ("query " + i).getBytes(StandardCharsets.UTF_8);
          PlainHttp.Answer a = client.post("/", Map.of(), body);
          assertEquals(200, a.status());
          assertArrayEquals(body, a.body());
        }
      }
      serverThread.join();
    }
  }
}
