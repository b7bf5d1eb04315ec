package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request refused before its body is read (413 on the declared length, 429 from the handler)
 * while the client is still sending the body. The server reads and drops up to {@link
 * Dispatcher#DRAIN_LIMIT} bytes before it answers, so that the client reads the answer; before, it
 * answered and closed with the body unread, the kernel reset the connection, and a client still
 * writing saw "connection reset" or no answer at all (the flake of two integration tests).
 */
class RefusedBodyTest {
  /** Larger than the loopback socket buffers, so that the client is still writing when refused. */
  private static final int BODY = 900 * 1024;

  private ApiServer server;

  @BeforeEach
  void start() throws IOException {
    Router router =
        new Router()
            .add(
                "POST",
                "/small",
                new Authenticator.None(),
                64 * 1024,
                req -> Response.json(200, Map.of("read", req.bodyBytes().length)))
            .add(
                "POST",
                "/busy",
                new Authenticator.None(),
                4 << 20,
                req -> {
                  throw new ApiException(
                      ErrorCode.TOO_MANY_REQUESTS, "busy; retry later", Map.of("Retry-After", "1"));
                });
    server =
        ApiServer.bind(
            "127.0.0.1",
            0,
            ApiServer.Options.defaults(),
            new Json(),
            new PrintStream(new ByteArrayOutputStream(), true),
            null);
    server.start(router);
  }

  @AfterEach
  void stop() {
    server.stop(5);
  }

  @Test
  void aClientStillSendingABodyOverTheLimitReadsThe413() throws Exception {
    try (Socket s = SlowClientTest.connect(server.port())) {
      CompletableFuture<Void> sent = sendWhileRefused(s, post("/small", BODY));
      RawHttp.Reply reply = RawHttp.read(s.getInputStream());
      sent.join(); // the whole body went out: no reset
      assertEquals(413, reply.status());
      assertTrue(reply.body().contains("exceeds the limit of 65536 bytes"), reply.body());
      assertEquals("close", reply.header("connection"));
      assertEquals(-1, s.getInputStream().read(), "closed after the answer");
    }
  }

  @Test
  void aRefusedBodyIsReadAfterTheAnswerAndTheConnectionThenEndsCleanly() throws Exception {
    try (Socket s = SlowClientTest.connect(server.port())) {
      CompletableFuture<Void> sent = sendWhileRefused(s, post("/busy", BODY));
      RawHttp.Reply refused = RawHttp.read(s.getInputStream());
      sent.join();
      assertEquals(429, refused.status());
      assertEquals("1", refused.header("retry-after"));
      assertEquals("close", refused.header("connection"));
      assertEquals(-1, s.getInputStream().read(), "closed after the body, without a reset");
    }
  }

  @Test
  void theAnswerDoesNotWaitForTheBody() throws Exception {
    try (Socket s = SlowClientTest.connect(server.port())) {
      OutputStream out = s.getOutputStream();
      out.write(post("/busy", 1000)); // headers only: none of the announced bytes
      out.flush();
      RawHttp.Reply refused = RawHttp.read(s.getInputStream());
      assertEquals(429, refused.status());
      out.write(new byte[1000]); // the server is still reading it: no reset
      out.flush();
      assertEquals(-1, s.getInputStream().read(), "closed once the body has arrived");
    }
  }

  @Test
  void aChunkedRefusedBodyIsReadToItsEndToo() throws Exception {
    try (Socket s = SlowClientTest.connect(server.port())) {
      ByteArrayOutputStream chunked = new ByteArrayOutputStream();
      byte[] piece = new byte[16 * 1024];
      Arrays.fill(piece, (byte) 'x');
      for (int i = 0; i < 40; i++) {
        chunked.write(
            (Integer.toHexString(piece.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        chunked.write(piece);
        chunked.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      chunked.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String head =
          "POST /busy HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n";
      CompletableFuture<Void> sent =
          sendInBackground(s, head.getBytes(StandardCharsets.US_ASCII), chunked.toByteArray());
      RawHttp.Reply refused = RawHttp.read(s.getInputStream());
      sent.join();
      assertEquals(429, refused.status());
      assertEquals(-1, s.getInputStream().read(), "closed after the body, without a reset");
    }
  }

  @Test
  void aBodyLongerThanTheDrainLimitIsNotReadTheAnswerComesAtOnce() throws Exception {
    try (Socket s = SlowClientTest.connect(server.port())) {
      OutputStream out = s.getOutputStream();
      out.write(post("/busy", 3 << 20)); // headers only: the answer must not wait for the body
      out.flush();
      InputStream in = s.getInputStream();
      RawHttp.Reply refused = RawHttp.read(in);
      assertEquals(429, refused.status());
      assertEquals("close", refused.header("connection"));
      SlowClientTest.assertClosedByServer(s);
    }
  }

  private static byte[] post(String path, int length) {
    return ("POST "
            + path
            + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
            + length
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Sends the head and the first part of a {@link #BODY}-byte body, waits until the server has
   * either answered already or is reading the body, then sends the rest on another thread.
   */
  private CompletableFuture<Void> sendWhileRefused(Socket s, byte[] head) throws Exception {
    int first = 32 * 1024;
    OutputStream out = s.getOutputStream();
    out.write(head);
    out.write(new byte[first]);
    out.flush();
    InputStream in = s.getInputStream();
    SlowClientTest.await(
        "an answer, or the body being read",
        () -> {
          try {
            return in.available() > 0 || server.bodiesBeingRead() > 0;
          } catch (IOException e) {
            return true;
          }
        });
    return sendInBackground(s, new byte[0], new byte[BODY - first]);
  }

  /** Writes the head and body on another thread; the future fails if the connection is reset. */
  private static CompletableFuture<Void> sendInBackground(Socket s, byte[] head, byte[] body) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            OutputStream out = s.getOutputStream();
            out.write(head);
            out.write(body);
            out.flush();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }
}
