package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests the HTTP layer refuses before any route sees them, sent as exact bytes: each gets the
 * error envelope with a 4xx (or 505) status and an X-Request-Id, never an HTML page or a class
 * name.
 */
class ProtocolErrorTest {
  static ApiServer server;
  static int port;

  @BeforeAll
  static void start() throws IOException {
    Router router =
        new Router()
            .add(
                "GET",
                "/echo/{name}",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, Map.of("name", req.pathParam("name"))))
            .add(
                "POST",
                "/json",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, Map.of("bytes", req.bodyBytes().length)));
    server =
        ApiServer.bind(
            "127.0.0.1",
            0,
            ApiServer.Options.defaults(),
            new Json(),
            new PrintStream(new ByteArrayOutputStream(), true));
    server.start(router);
    port = server.port();
  }

  @AfterAll
  static void stop() {
    server.stop(2);
  }

  /** Asserts the envelope and returns its error text. */
  static String envelope(RawHttp.Reply r, int status) throws IOException {
    assertEquals(status, r.status(), r.headers() + " " + r.body());
    assertEquals("application/json; charset=utf-8", r.header("Content-Type"), r.body());
    JsonNode body = ApiServerTest.MAPPER.readTree(r.body());
    assertEquals(List.of("status", "error", "requestId"), ApiServerTest.fieldNames(body));
    assertEquals(status, body.get("status").intValue());
    String id = body.get("requestId").textValue();
    assertTrue(ApiServerTest.UUID_V4.matcher(id).matches(), id);
    assertEquals(id, r.header("X-Request-Id"));
    String error = body.get("error").textValue();
    String lower = error.toLowerCase(Locale.ROOT);
    assertFalse(
        lower.contains("jetty") || lower.contains("exception") || lower.contains("org."), error);
    assertEquals(ErrorCode.forStatus(status).name(), error.substring(0, error.indexOf(':')));
    return error;
  }

  static RawHttp.Reply send(String request) throws IOException {
    return RawHttp.send(port, request);
  }

  @Test
  void badPercentEncodingIs400() throws IOException {
    assertEquals(
        "BAD_REQUEST: malformed HTTP request",
        envelope(send("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n"), 400));
    envelope(send("GET /echo/a%4 HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
  }

  @Test
  void overlongUtf8IsNotASlash() throws IOException {
    // %C0%AF is an overlong encoding of '/': it must be refused, never decoded to a separator.
    assertEquals(
        "BAD_REQUEST: malformed HTTP request: the path is not valid percent-encoded UTF-8",
        envelope(send("GET /echo/a%C0%AFb HTTP/1.1\r\nHost: x\r\n\r\n"), 400));
    envelope(send("GET /echo%C0%AFx HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
  }

  @Test
  void encodedSlashIsRefused() throws IOException {
    envelope(send("GET /echo/a%2Fb HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
  }

  @Test
  void garbageRequestLineIs400() throws IOException {
    envelope(send("HELLO\r\n\r\n"), 400);
    envelope(
        send("\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003\r\n\r\n"), 400);
    envelope(send("GET\r\n\r\n"), 400);
  }

  @Test
  void badContentLengthIs400() throws IOException {
    String post = "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    assertTrue(envelope(send(post + "Content-Length: -5\r\n\r\n{}"), 400).contains("malformed"));
    envelope(send(post + "Content-Length: 99999999999999999999999999\r\n\r\n{}"), 400);
    envelope(send(post + "Content-Length: abc\r\n\r\n{}"), 400);
    envelope(send(post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"), 400);
    envelope(send(post + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), 400);
  }

  @Test
  void hugeDeclaredLengthIs413BeforeAnyByteIsRead() throws IOException {
    String post = "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    assertEquals(
        "PAYLOAD_TOO_LARGE: request body exceeds the limit of 1024 bytes",
        envelope(send(post + "Content-Length: 1000000000000000\r\n\r\n{}"), 413));
  }

  @Test
  void headersTooLargeIs431() throws IOException {
    String error =
        envelope(
            send("GET /echo/x HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n"),
            431);
    assertTrue(error.contains("16384 bytes"), error);
  }

  @Test
  void uriTooLongIs414() throws IOException {
    String error =
        envelope(send("GET /echo/" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414);
    assertTrue(error.contains("16384 bytes"), error);
  }

  @Test
  void unknownMethodIsAnEnvelope() throws IOException {
    RawHttp.Reply r = send("BREW /echo/x HTTP/1.1\r\nHost: x\r\n\r\n");
    assertEquals(
        "METHOD_NOT_ALLOWED: BREW is not allowed on /echo/x (allowed: GET)", envelope(r, 405));
    envelope(send("GE(T /echo/x HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
  }

  @Test
  void http11WithoutHostIs400AndHttp10IsServed() throws IOException {
    envelope(send("GET /echo/x HTTP/1.1\r\n\r\n"), 400);
    RawHttp.Reply old = send("GET /echo/x HTTP/1.0\r\n\r\n");
    assertEquals(200, old.status(), old.body());
    assertEquals("{\"name\":\"x\"}", old.body());
  }

  @Test
  void unsupportedVersionIsRefused() throws IOException {
    RawHttp.Reply r = send("GET /echo/x HTTP/2.0\r\nHost: x\r\n\r\n");
    assertEquals(505, r.status(), r.toString());
    envelope(r, r.status());
    envelope(send("GET /echo/x HTTP/9.9\r\nHost: x\r\n\r\n"), 505);
  }

  @Test
  void unsupportedTransferEncodingIsRefused() throws IOException {
    RawHttp.Reply r =
        send(
            "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: gzip\r\n\r\n{}");
    assertTrue(r.status() == 400 || r.status() == 501, r.toString());
    envelope(r, r.status());
  }

  @Test
  void unknownExpectationIs417() throws IOException {
    assertEquals(
        "EXPECTATION_FAILED: the Expect header is not supported",
        envelope(send("GET /echo/x HTTP/1.1\r\nHost: x\r\nExpect: coffee\r\n\r\n"), 417));
  }

  @Test
  void malformedHeaderLineIs400() throws IOException {
    envelope(send("GET /echo/x HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n"), 400);
    envelope(send("GET /echo/x HTTP/1.1\r\nHost: x\r\nBad\u0001Name: v\r\n\r\n"), 400);
  }

  @Test
  void badChunkedBodyIs400() throws IOException {
    RawHttp.Reply r =
        RawHttp.send(
            port,
            ("POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
    envelope(r, 400);
  }
}
