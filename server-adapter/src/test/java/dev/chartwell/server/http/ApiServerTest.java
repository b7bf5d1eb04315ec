package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ApiServerTest {
  static final Pattern UUID_V4 =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final ApiServer.Options OPTIONS = ApiServer.Options.defaults();

  static ApiServer server;
  static HttpTestClient http;
  static final ByteArrayOutputStream log = new ByteArrayOutputStream();

  @BeforeAll
  static void start() throws IOException {
    Json json = new Json();
    Authenticator basic =
        new Authenticator.Basic(
            (user, password, client) -> {
              if (!user.equals("key") || !password.equals("secret")) {
                throw new ApiException(ErrorCode.UNAUTHORIZED, "invalid API key id or secret");
              }
              return () -> "key";
            });
    Authenticator bearer =
        new Authenticator.Bearer(
            (token, client) -> {
              if (!token.equals("tok")) {
                throw ApiException.forbidden("token refused");
              }
              return () -> "token";
            });
    Router router =
        new Router()
            .add(
                route(
                    "GET",
                    "/echo/{name}",
                    new Authenticator.None(),
                    1024,
                    req -> Response.json(200, Map.of("name", req.pathParam("name")))))
            .add(
                route(
                    "POST",
                    "/upload",
                    new Authenticator.None(),
                    100,
                    req -> Response.json(200, Map.of("bytes", req.bodyBytes().length))))
            .add(
                route(
                    "POST",
                    "/json",
                    new Authenticator.None(),
                    1024,
                    req -> Response.envelope(json.readTree(req.bodyBytes()))))
            .add(route("GET", "/secure", basic, 1024, req -> Response.emptyEnvelope()))
            .add(route("GET", "/token", bearer, 1024, req -> Response.json(200, List.of(1, 2))))
            .add(
                route(
                    "GET",
                    "/boom",
                    new Authenticator.None(),
                    1024,
                    req -> {
                      throw new IllegalStateException("internal detail in dev.chartwell.Secret");
                    }))
            .add(
                new Route(
                        "POST",
                        PathPattern.of("/own/{what}"),
                        bearer,
                        1024,
                        new Route.Body(java.util.Set.of("text/plain"), true),
                        req -> {
                          if (req.pathParam("what").equals("boom")) {
                            throw new IllegalStateException("dev.chartwell.Secret");
                          }
                          return Response.bytes(200, "text/plain", req.bodyBytes());
                        })
                    .withErrorBody(
                        (e, id, type) ->
                            new Response.Bytes(
                                "text/plain",
                                (e.code().status() + " " + e.envelopeText() + " " + type + " " + id)
                                    .getBytes(StandardCharsets.UTF_8))));
    server = ApiServer.bind("127.0.0.1", 0, OPTIONS, json, new PrintStream(log, true));
    server.start(router);
    http = new HttpTestClient(server.port());
  }

  private static Route route(String m, String p, Authenticator a, long limit, Handler h) {
    return new Route(m, PathPattern.of(p), a, limit, h);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Asserts the exact error envelope and returns its error text. */
  static String assertErrorEnvelope(HttpResponse<String> r, int status) throws IOException {
    assertEquals(status, r.statusCode(), r.body());
    assertEquals("application/json; charset=utf-8", r.headers().firstValue("Content-Type").get());
    JsonNode body = MAPPER.readTree(r.body());
    assertEquals(List.of("status", "error", "requestId"), fieldNames(body));
    assertEquals(status, body.get("status").intValue());
    assertTrue(body.get("status").isInt());
    String requestId = body.get("requestId").textValue();
    assertTrue(UUID_V4.matcher(requestId).matches(), requestId);
    assertEquals(requestId, r.headers().firstValue("X-Request-Id").orElseThrow());
    return body.get("error").textValue();
  }

  static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void smallAnswersDoNotWaitForDelayedAcks() throws Exception {
    // Without TCP_NODELAY a small answer written in two packets waits ~40 ms for the client's
    // delayed ACK (Nagle's algorithm holds the second until the first is acknowledged). The server
    // turns Nagle off on every connection it accepts; the sockets themselves say whether it did,
    // where a stopwatch would only guess (and fail on a busy machine).
    http.send("GET", "/echo/warm", null);
    for (int i = 0; i < 200; i++) {
      assertEquals(200, http.send("POST", "/upload", "x".repeat(50)).statusCode());
    }
    var connections = server.connections();
    assertFalse(connections.isEmpty(), "the client's connection is open");
    for (var endPoint : connections) {
      var channel = ((org.eclipse.jetty.io.SocketChannelEndPoint) endPoint).getChannel();
      assertTrue(
          channel.getOption(java.net.StandardSocketOptions.TCP_NODELAY),
          "Nagle's algorithm is on for " + endPoint);
    }
  }

  @Test
  void routesWithPathParameters() throws Exception {
    HttpResponse<String> r = http.send("GET", "/echo/hello%20world", null);
    assertEquals(200, r.statusCode());
    assertEquals("{\"name\":\"hello world\"}", r.body());
    assertTrue(UUID_V4.matcher(r.headers().firstValue("X-Request-Id").orElseThrow()).matches());
  }

  @Test
  void everyResponseGetsAFreshRequestId() throws Exception {
    String a = http.send("GET", "/echo/x", null).headers().firstValue("X-Request-Id").get();
    String b = http.send("GET", "/echo/x", null).headers().firstValue("X-Request-Id").get();
    assertNotEquals(a, b);
  }

  @Test
  void unknownPathIs404Envelope() throws Exception {
    assertEquals(
        "NOT_FOUND: no such resource: GET /nothing/here",
        assertErrorEnvelope(http.send("GET", "/nothing/here", null), 404));
  }

  @Test
  void wrongMethodIs405Envelope() throws Exception {
    HttpResponse<String> r = http.send("DELETE", "/echo/x", null);
    assertEquals(
        "METHOD_NOT_ALLOWED: DELETE is not allowed on /echo/x (allowed: GET)",
        assertErrorEnvelope(r, 405));
    assertEquals("GET", r.headers().firstValue("Allow").orElseThrow());
  }

  @Test
  void bodyWithinLimitIsRead() throws Exception {
    HttpResponse<String> r = http.send("POST", "/upload", "x".repeat(100));
    assertEquals(200, r.statusCode());
    assertEquals("{\"bytes\":100}", r.body());
  }

  @Test
  void declaredOversizedBodyIs413() throws Exception {
    assertEquals(
        "PAYLOAD_TOO_LARGE: request body exceeds the limit of 100 bytes",
        assertErrorEnvelope(http.send("POST", "/upload", "x".repeat(101)), 413));
  }

  @Test
  void chunkedOversizedBodyIs413WithoutReadingItAll() throws Exception {
    // Raw socket: a chunked body with no declared length, far larger than the limit. It goes out
    // in one write: the server answers 413 and closes as soon as it has read past the limit, and
    // a client still writing then would meet a reset instead of the answer.
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      StringBuilder request =
          new StringBuilder(
              "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n");
      String chunk = "x".repeat(1000);
      for (int i = 0; i < 3; i++) {
        request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk);
        request.append("\r\n");
      }
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertEquals("HTTP/1.1 413", head);
    }
  }

  @Test
  void malformedJsonIs400NotA500() throws Exception {
    String error = assertErrorEnvelope(http.send("POST", "/json", "{\"a\": tru"), 400);
    assertTrue(error.startsWith("BAD_REQUEST: malformed JSON at line 1, column"), error);
    assertFalse(error.contains("com.fasterxml"), error);
    assertEquals(
        "BAD_REQUEST: request body is empty; a JSON object is expected",
        assertErrorEnvelope(http.send("POST", "/json", ""), 400));
  }

  @Test
  void wellFormedJsonIsEnveloped() throws Exception {
    HttpResponse<String> r = http.send("POST", "/json", "{\"a\":[1,2]}");
    JsonNode body = MAPPER.readTree(r.body());
    assertEquals(List.of("status", "requestId", "result"), fieldNames(body));
    assertEquals(200, body.get("status").intValue());
    assertEquals("{\"a\":[1,2]}", body.get("result").toString());
  }

  @Test
  void unexpectedFailureIs500WithoutInternals() throws Exception {
    HttpResponse<String> r = http.send("GET", "/boom", null);
    String error = assertErrorEnvelope(r, 500);
    assertTrue(error.startsWith("INTERNAL: unexpected server error; request id "), error);
    assertFalse(error.contains("IllegalState") || error.contains("dev.chartwell"), error);
    assertTrue(log.toString().contains(r.headers().firstValue("X-Request-Id").get()));
  }

  @Test
  void aRouteMayWriteItsOwnBodiesAndErrors() throws Exception {
    HttpResponse<String> ok =
        http.send(
            "POST",
            "/own/echo",
            "raw",
            "Authorization",
            "Bearer tok",
            "Content-Type",
            "text/plain");
    assertEquals(200, ok.statusCode());
    assertEquals("text/plain", ok.headers().firstValue("Content-Type").orElse(""));
    assertEquals("raw", ok.body());
    // Every error of the route, before and inside its handler, is written its way.
    HttpResponse<String> unauthorized =
        http.send("POST", "/own/echo", "raw", "Content-Type", "text/plain");
    String id = unauthorized.headers().firstValue("X-Request-Id").orElseThrow();
    assertEquals(
        "401 UNAUTHORIZED: missing Authorization header (Bearer expected) text/plain " + id,
        unauthorized.body());
    assertEquals(
        "Bearer realm=\"chartwell\"",
        unauthorized.headers().firstValue("WWW-Authenticate").orElse(""));
    HttpResponse<String> unsupported =
        http.send(
            "POST",
            "/own/echo",
            "{}",
            "Authorization",
            "Bearer tok",
            "Content-Type",
            "application/json");
    assertEquals(415, unsupported.statusCode());
    assertTrue(
        unsupported
            .body()
            .startsWith("415 UNSUPPORTED_MEDIA_TYPE: Content-Type must be text/plain"),
        unsupported.body());
    HttpResponse<String> boom =
        http.send(
            "POST", "/own/boom", "x", "Authorization", "Bearer tok", "Content-Type", "text/plain");
    assertEquals(500, boom.statusCode());
    assertTrue(
        boom.body().startsWith("500 INTERNAL: unexpected server error; request id "), boom.body());
    assertFalse(boom.body().contains("Secret"), boom.body());
    // Unknown paths are not the route's: the usual envelope.
    assertErrorEnvelope(http.send("POST", "/own", "x", "Content-Type", "text/plain"), 404);
  }

  @Test
  void basicAuthentication() throws Exception {
    assertEquals(
        "UNAUTHORIZED: missing Authorization header (Basic expected)",
        assertErrorEnvelope(http.send("GET", "/secure", null), 401));
    assertEquals(
        "UNAUTHORIZED: malformed Authorization header: Basic expected",
        assertErrorEnvelope(http.send("GET", "/secure", null, "Authorization", "Bearer x"), 401));
    assertEquals(
        "UNAUTHORIZED: malformed Basic credentials: not base64",
        assertErrorEnvelope(http.send("GET", "/secure", null, "Authorization", "Basic %%%"), 401));
    assertEquals(
        "UNAUTHORIZED: malformed Basic credentials: expected key id and secret",
        assertErrorEnvelope(
            http.send("GET", "/secure", null, "Authorization", "Basic bm9jb2xvbg=="), 401));
    HttpResponse<String> wrong =
        http.send("GET", "/secure", null, "Authorization", HttpTestClient.basic("key", "nope"));
    assertEquals("UNAUTHORIZED: invalid API key id or secret", assertErrorEnvelope(wrong, 401));
    HttpResponse<String> ok =
        http.send("GET", "/secure", null, "Authorization", HttpTestClient.basic("key", "secret"));
    assertEquals(200, ok.statusCode());
    assertEquals(List.of("status", "requestId"), fieldNames(MAPPER.readTree(ok.body())));
  }

  @Test
  void bearerAuthentication() throws Exception {
    HttpResponse<String> missing = http.send("GET", "/token", null);
    assertEquals(
        "UNAUTHORIZED: missing Authorization header (Bearer expected)",
        assertErrorEnvelope(missing, 401));
    assertEquals(
        "Bearer realm=\"chartwell\"", missing.headers().firstValue("WWW-Authenticate").get());
    assertEquals(
        "UNAUTHORIZED: malformed Authorization header: empty or invalid Bearer",
        assertErrorEnvelope(http.send("GET", "/token", null, "Authorization", "Bearer a b"), 401));
    assertEquals(
        "FORBIDDEN: token refused",
        assertErrorEnvelope(http.send("GET", "/token", null, "Authorization", "Bearer bad"), 403));
    HttpResponse<String> ok = http.send("GET", "/token", null, "Authorization", "bearer tok");
    assertEquals(200, ok.statusCode());
    assertEquals("[1,2]", ok.body());
  }
}
