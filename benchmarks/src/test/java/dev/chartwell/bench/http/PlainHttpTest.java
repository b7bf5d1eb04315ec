package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
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

  @Test
  void postsABodyAndReadsStatusHeadersAndBodyOnOneConnection() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger calls = new AtomicInteger();
    server.createContext(
        "/echo",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          String auth = exchange.getRequestHeaders().getFirst("Authorization");
          byte[] answer =
              (auth + "|" + new String(body, StandardCharsets.UTF_8))
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Server-Timing", "engine;dur=1.5");
          boolean chunked = calls.incrementAndGet() % 2 == 0;
          exchange.sendResponseHeaders(201, chunked ? 0 : answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    server.start();
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
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger calls = new AtomicInteger();
    server.createContext(
        "/large",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          boolean chunked = calls.incrementAndGet() % 2 == 0;
          exchange.sendResponseHeaders(200, chunked ? 0 : large.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(large);
          }
        });
    server.start();
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
