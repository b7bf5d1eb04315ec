package dev.chartwell.server.tenancy;

import static dev.chartwell.server.tenancy.TwoServices.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.Await;
import dev.chartwell.server.http.RawHttp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-service limits on every route that ingests or queries, not only the first ones: the
 * shippers' ingestion (Elasticsearch {@code _bulk}, Loki push) and Prometheus remote write are
 * refused at {@code --max-ingests-per-service} before their body is read; the Prometheus query API
 * and the explore routes (traces, facets, surrounding events, patterns) at {@code
 * --max-queries-per-service}; and the explore routes on a ClickHouse connection that never answers
 * are answered at {@code --query-timeout} off the HTTP workers.
 */
class RouteLimitsIntegrationTest {
  @TempDir Path dir;

  @Test
  void ingestionRoutesAreRefusedAtTheServiceLimitBeforeReadingTheirBody() throws Exception {
    try (TwoServices s =
        new TwoServices(dir, "--max-ingests-per-service", "1", "--body-timeout", "120s")) {
      String events = "/api/v2/sources/" + s.logSource(s.a, "default", "held") + "/events";
      int port = s.server.port();
      // An NDJSON request whose body never ends holds the flooding service's one ingestion permit.
      try (Hold held = new Hold(port, head("POST", events, s.a, "application/x-ndjson"))) {
        Await.until(
            "a held request has the service's one ingestion permit",
            () -> {
              if (held.answered()) {
                held.reopen(); // a probe took the permit first and the held request was refused
              }
              return s.v2(s.a, "POST", events, TwoServices.events(T, 0, 1, 10)).statusCode() == 429;
            });

        // Each route is sent its headers and none of its 1,000 announced body bytes: the 429
        // comes without waiting for them.
        RawHttp.Reply bulk =
            RawHttp.send(port, head("POST", "/elasticsearch/_bulk", s.a, "application/x-ndjson"));
        assertRefused(bulk);
        JsonNode error = TwoServices.MAPPER.readTree(bulk.body()).get("error");
        assertEquals("es_rejected_execution_exception", error.get("type").asText(), bulk.body());
        assertTrue(error.get("reason").asText().contains("--max-ingests-per-service"), bulk.body());
        assertEquals("Elasticsearch", bulk.header("X-Elastic-Product"), bulk.headers().toString());
        RawHttp.Reply indexBulk =
            RawHttp.send(
                port, head("PUT", "/elasticsearch/logs/_bulk", s.a, "application/x-ndjson"));
        assertRefused(indexBulk);
        assertTrue(indexBulk.body().contains("es_rejected_execution_exception"), indexBulk.body());

        RawHttp.Reply loki =
            RawHttp.send(port, head("POST", "/loki/api/v1/push", s.a, "application/json"));
        assertRefused(loki);
        assertTrue(loki.header("Content-Type").startsWith("text/plain"), loki.headers().toString());

        RawHttp.Reply write =
            RawHttp.send(
                port, head("POST", "/api/v1/write", s.a, "application/x-protobuf", "snappy", 1000));
        assertRefused(write);
        JsonNode envelope = TwoServices.MAPPER.readTree(write.body());
        assertEquals(429, envelope.get("status").asInt(), write.body());
        assertTrue(envelope.get("error").asText().startsWith("TOO_MANY_REQUESTS"), write.body());

        // The other service ingests meanwhile.
        assertEquals(200, bulk(s, s.b).statusCode());
      }
      // The held request's connection is gone: its permit is given back.
      Await.until("the service ingests again", () -> bulk(s, s.a).statusCode() == 200);
    }
  }

  @Test
  void queryRoutesHoldAPermitAndExternalExploreQueriesEndAtTheQueryTimeout() throws Exception {
    try (FakeClickHouse clickHouse = new FakeClickHouse();
        TwoServices s =
            new TwoServices(
                dir,
                "--http-threads",
                "8",
                "--query-timeout",
                "10s",
                "--max-queries-per-service",
                "8")) {
      String connection =
          s.ok(
                  s.a,
                  "POST",
                  "/api/v2/connections",
                  "{\"name\":\"slow\",\"host\":\"" + clickHouse.url() + "\",\"username\":\"u\"}")
              .get("data")
              .get("id")
              .textValue();
      String logs = s.logSource(s.a, connection, "logs");
      String spans =
          s.ok(
                  s.a,
                  "POST",
                  "/api/v2/sources",
                  "{\"name\":\"spans\",\"kind\":\"trace\",\"connection\":\""
                      + connection
                      + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"spans\"},"
                      + "\"timestampValueExpression\":\"Timestamp\",\"traceIdExpression\":"
                      + "\"TraceId\",\"spanIdExpression\":\"SpanId\"}")
              .get("data")
              .get("id")
              .textValue();
      String quiet = s.logSource(s.b, "default", "quiet");
      s.ok(s.b, "POST", "/api/v2/sources/" + quiet + "/events", TwoServices.events(T, 0, 10, 20));

      // Eight explore queries on the ClickHouse that never answers: the service's limit, as many
      // as the external runner runs at once, and as many as there are HTTP threads (some of which
      // are Jetty's acceptor and selectors).
      List<String[]> explore = explore(logs, spans);
      List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String[] r = explore.get(i % explore.size());
        slow.add(s.v2Async(s.a, r[0], r[1], r[2]));
      }
      Await.until(
          "eight explore queries held by the slow ClickHouse", () -> clickHouse.held.get() >= 8);

      // The workers are free: /health, the other service's search and PromQL query answer.
      HttpResponse<String> h =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + s.server.port() + "/health"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, h.statusCode());
      assertEquals(
          10,
          s.ok(
                  s.b,
                  "POST",
                  "/api/v2/search",
                  "{\"sourceId\":\""
                      + quiet
                      + "\",\"startTime\":\"2026-05-09T00:00:00Z\",\"endTime\":\"2026-05-11T00:00:00Z\"}")
              .get("rows")
              .asInt());
      assertEquals(200, prometheus(s, s.b, "GET", "/api/v1/query?query=up").statusCode());

      // The flooding service is at its limit: every query route answers 429 in its own shape.
      for (String path :
          List.of(
              "/api/v1/query?query=up",
              "/api/v1/query_range?query=up&start=1778371200&end=1778374800&step=60",
              "/api/v1/series?match[]=up",
              "/api/v1/labels",
              "/api/v1/label/job/values",
              "/api/v1/metadata")) {
        HttpResponse<String> r = prometheus(s, s.a, "GET", path);
        assertEquals(429, r.statusCode(), path + ": " + r.body());
        assertEquals("1", r.headers().firstValue("Retry-After").orElse(null), path);
        JsonNode body = TwoServices.MAPPER.readTree(r.body());
        assertEquals("error", body.get("status").asText(), r.body());
        assertEquals("unavailable", body.get("errorType").asText(), r.body());
        assertTrue(body.get("error").asText().contains("--max-queries-per-service"), r.body());
      }
      assertEquals(429, prometheus(s, s.a, "POST", "/api/v1/query").statusCode());
      assertEquals(
          200, prometheus(s, s.a, "GET", "/api/v1/status/buildinfo").statusCode(), "not a query");
      for (String[] r : explore) {
        HttpResponse<String> refused = s.v2(s.a, r[0], r[1], r[2]);
        assertEquals(429, refused.statusCode(), r[1] + ": " + refused.body());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null), r[1]);
        assertTrue(refused.body().contains("--max-queries-per-service"), refused.body());
      }

      // The slow queries are stopped at --query-timeout and answered.
      for (CompletableFuture<HttpResponse<String>> f : slow) {
        HttpResponse<String> r = f.join();
        assertEquals(503, r.statusCode(), r.body());
        assertTrue(r.body().contains("--query-timeout (10s)"), r.body());
      }
      Await.until(
          "the service's query permits given back",
          () -> prometheus(s, s.a, "GET", "/api/v1/query?query=up").statusCode() == 200);
    }
  }

  /** A request that sends its head and part of its body, and never the rest. */
  private static final class Hold implements AutoCloseable {
    private final int port;
    private final byte[] head;
    private Socket socket;

    Hold(int port, byte[] head) throws IOException {
      this.port = port;
      this.head = head;
      reopen();
    }

    void reopen() throws IOException {
      close();
      socket = new Socket("127.0.0.1", port);
      OutputStream out = socket.getOutputStream();
      out.write(head);
      out.write("{\"Timestamp\":".getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    /** Whether the server has answered (refused) it. */
    boolean answered() throws IOException {
      return socket.getInputStream().available() > 0;
    }

    @Override
    public void close() throws IOException {
      if (socket != null) {
        socket.close();
      }
    }
  }

  /** The explore routes on the connection's sources: method, path and body. */
  private static List<String[]> explore(String logs, String spans) {
    String range = "\"startTime\":\"2026-05-09T00:00:00Z\",\"endTime\":\"2026-05-11T00:00:00Z\"";
    return List.of(
        new String[] {"GET", "/api/v2/traces/abc123?sourceId=" + spans, null},
        new String[] {
          "POST",
          "/api/v2/facets",
          "{\"sourceId\":\"" + logs + "\"," + range + ",\"fields\":[\"ServiceName\"]}"
        },
        new String[] {
          "POST",
          "/api/v2/surrounding",
          "{\"sourceId\":\""
              + logs
              + "\",\"time\":\"2026-05-10T00:00:00Z\",\"field\":\"ServiceName\",\"value\":\"svc1\"}"
        },
        new String[] {"POST", "/api/v2/patterns", "{\"sourceId\":\"" + logs + "\"," + range + "}"});
  }

  private static HttpResponse<String> prometheus(
      TwoServices s, TwoServices.Service service, String method, String path) throws Exception {
    return method.equals("GET")
        ? s.http.send("GET", path, null, "Authorization", "Bearer " + service.token())
        : s.http.send(
            "POST",
            path,
            "query=up",
            "Authorization",
            "Bearer " + service.token(),
            "Content-Type",
            "application/x-www-form-urlencoded");
  }

  /** One document through {@code _bulk}. */
  private static HttpResponse<String> bulk(TwoServices s, TwoServices.Service service)
      throws Exception {
    return s.http.send(
        "POST",
        "/elasticsearch/_bulk",
        "{\"create\":{\"_index\":\"logs\"}}\n{\"@timestamp\":\"2026-05-10T00:00:00Z\",\"message\":\"m\"}\n",
        "Authorization",
        "Bearer " + service.token(),
        "Content-Type",
        "application/x-ndjson");
  }

  private static void assertRefused(RawHttp.Reply r) {
    assertEquals(429, r.status(), r.body());
    assertEquals("1", r.header("Retry-After"), r.headers().toString());
    assertTrue(r.body().contains("--max-ingests-per-service"), r.body());
  }

  /** The head of a request announcing 1,000 body bytes. */
  private static byte[] head(String method, String path, TwoServices.Service s, String type) {
    return head(method, path, s, type, "", 1000);
  }

  private static byte[] head(
      String method, String path, TwoServices.Service s, String type, String encoding, int length) {
    return (method
            + " "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + s.token()
            + "\r\nContent-Type: "
            + type
            + (encoding.isEmpty() ? "" : "\r\nContent-Encoding: " + encoding)
            + "\r\nContent-Length: "
            + length
            + "\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }
}
