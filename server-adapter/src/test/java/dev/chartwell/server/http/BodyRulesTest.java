package dev.chartwell.server.http;

import static dev.chartwell.server.http.ProtocolErrorTest.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Content-Type (415) and Content-Encoding (gzip, 415) rules, the same on every body route. */
class BodyRulesTest {
  static ApiServer server;
  static int port;

  @BeforeAll
  static void start() throws IOException {
    Json json = new Json();
    Route.Body events = new Route.Body(Set.of("application/x-ndjson", "application/json"), true);
    Router router =
        new Router()
            .add(
                "POST",
                "/json",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, json.readTree(req.bodyBytes())))
            .add(
                "PATCH",
                "/optional",
                new Authenticator.None(),
                1024,
                Route.Body.OPTIONAL_JSON,
                req -> Response.json(200, Map.of("bytes", req.bodyBytes().length)))
            .add(
                "POST",
                "/events",
                new Authenticator.None(),
                1024,
                events,
                req -> Response.json(200, Map.of("bytes", req.bodyBytes().length)))
            .add(
                "GET",
                "/nobody",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, Map.of("ok", true)));
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

  static RawHttp.Reply post(String path, String headers, byte[] body) throws IOException {
    byte[] head =
        ("POST "
                + path
                + " HTTP/1.1\r\nHost: x\r\n"
                + headers
                + "Content-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = Arrays.copyOf(head, head.length + body.length);
    System.arraycopy(body, 0, all, head.length, body.length);
    return RawHttp.send(port, all);
  }

  static RawHttp.Reply post(String path, String headers, String body) throws IOException {
    return post(path, headers, body.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(data);
    }
    return out.toByteArray();
  }

  @Test
  void jsonRoutesRefuseOtherOrMissingTypes() throws IOException {
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: Content-Type must be application/json, got 'text/plain'",
        envelope(post("/json", "Content-Type: text/plain\r\n", "{}"), 415));
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: a Content-Type header is required: application/json",
        envelope(post("/json", "", "{}"), 415));
    // No body and no type on a route that needs a body: 415, not a parse error.
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: a Content-Type header is required: application/json",
        envelope(post("/json", "", ""), 415));
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: charset must be utf-8, got 'iso-8859-1'",
        envelope(
            post("/json", "Content-Type: application/json; charset=iso-8859-1\r\n", "{}"), 415));
  }

  @Test
  void utf8CharsetAndCaseAreAccepted() throws IOException {
    RawHttp.Reply r = post("/json", "Content-Type: Application/JSON; Charset=\"UTF-8\"\r\n", "{}");
    assertEquals(200, r.status(), r.body());
    assertEquals("{}", r.body());
  }

  @Test
  void optionalBodyRouteAcceptsAnEmptyUntypedRequest() throws IOException {
    byte[] req =
        "PATCH /optional HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1);
    RawHttp.Reply r = RawHttp.send(port, req);
    assertEquals(200, r.status(), r.body());
    byte[] typed =
        "PATCH /optional HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            .getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: a Content-Type header is required: application/json",
        envelope(RawHttp.send(port, typed), 415));
  }

  @Test
  void aRouteNamesAllItsTypes() throws IOException {
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: Content-Type must be one of application/json,"
            + " application/x-ndjson, got 'text/csv'",
        envelope(post("/events", "Content-Type: text/csv\r\n", "a,b"), 415));
    assertEquals(200, post("/events", "Content-Type: application/x-ndjson\r\n", "{}\n").status());
  }

  @Test
  void routesWithoutBodyIgnoreTheType() throws IOException {
    RawHttp.Reply r =
        RawHttp.send(port, "GET /nobody HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\n\r\n");
    assertEquals(200, r.status(), r.body());
  }

  @Test
  void gzipBodiesAreDecoded() throws IOException {
    byte[] body = gzip("{\"a\":[1,2,3]}".getBytes(StandardCharsets.UTF_8));
    RawHttp.Reply r =
        post("/json", "Content-Type: application/json\r\nContent-Encoding: gzip\r\n", body);
    assertEquals(200, r.status(), r.body());
    assertEquals("{\"a\":[1,2,3]}", r.body());
  }

  @Test
  void gzipBombIs413OnTheDecodedSize() throws IOException {
    // 512 KiB of zeros inside a 1 KiB limit: small on the wire, refused once decoding passes it.
    byte[] bomb =
        gzip(("{\"pad\":\"" + "0".repeat(1 << 19) + "\"}").getBytes(StandardCharsets.UTF_8));
    assertEquals(true, bomb.length < 1024, "compressed to " + bomb.length);
    assertEquals(
        "PAYLOAD_TOO_LARGE: request body exceeds the limit of 1024 bytes",
        envelope(
            post("/json", "Content-Type: application/json\r\nContent-Encoding: gzip\r\n", bomb),
            413));
  }

  @Test
  void truncatedOrGarbageGzipIs400() throws IOException {
    byte[] whole = gzip("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
    byte[] truncated = Arrays.copyOf(whole, whole.length - 6);
    String headers = "Content-Type: application/json\r\nContent-Encoding: gzip\r\n";
    assertEquals(
        "BAD_REQUEST: the gzip request body is truncated",
        envelope(post("/json", headers, truncated), 400));
    assertEquals(
        "BAD_REQUEST: the gzip request body is malformed: it does not start with a gzip header",
        envelope(post("/json", headers, "{\"a\":1}"), 400));
    byte[] corrupt = whole.clone();
    corrupt[corrupt.length - 5] ^= 0x55; // the CRC
    assertEquals(
        "BAD_REQUEST: the gzip request body is malformed: its checksum or length does not match",
        envelope(post("/json", headers, corrupt), 400));
  }

  @Test
  void otherEncodingsAre415() throws IOException {
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: Content-Encoding must be gzip or identity, got 'br'",
        envelope(
            post("/json", "Content-Type: application/json\r\nContent-Encoding: br\r\n", "{}"),
            415));
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: Content-Encoding must name one coding (gzip)",
        envelope(
            post(
                "/json",
                "Content-Type: application/json\r\nContent-Encoding: gzip, gzip\r\n",
                "{}"),
            415));
    assertEquals(
        200,
        post("/json", "Content-Type: application/json\r\nContent-Encoding: identity\r\n", "{}")
            .status());
  }
}
