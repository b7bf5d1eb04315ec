package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's limits over HTTP: a query past its deadline is a 503, one over its memory budget or
 * its group limit a 400 (and stops early), and ingestion past {@code --max-memory} a 503 with
 * {@code Retry-After} that keeps what it accepted while the server stays responsive.
 */
class QueryLimitsIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String BASE = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final long T = 1_767_225_600_000L;

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String token;
  String serviceId;
  String sourceId;

  void start(String... flags) throws Exception {
    server = TestServers.start(dataDir, flags);
    http = new HttpTestClient(server.port());
    JsonNode created =
        admin("POST", BASE, "{\"name\":\"Limits\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "the service running",
        () ->
            admin("GET", BASE + "/" + serviceId, null).get("state").textValue().equals("running"));
    sourceId =
        admin(
                "POST",
                BASE + "/" + serviceId + "/clickstack/sources",
                "{\"name\":\"app\",\"kind\":\"log\"}")
            .get("id")
            .textValue();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  HttpResponse<String> ingest(int events) throws Exception {
    return ingest(sourceId, events);
  }

  HttpResponse<String> ingest(String source, int events) throws Exception {
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < events; i++) {
      ndjson
          .append("{\"Timestamp\":")
          .append(T + i)
          .append(",\"Body\":\"request ")
          .append(i)
          .append(" took ")
          .append(i % 977)
          .append(" ms\",\"d\":")
          .append(i % 1000)
          .append("}\n");
    }
    return http.send(
        "POST",
        "/api/v2/sources/" + source + "/events",
        ndjson.toString(),
        "Authorization",
        "Bearer " + token,
        "Content-Type",
        "application/x-ndjson");
  }

  HttpResponse<String> chart(String aggFn, String field, String where, String groupBy)
      throws Exception {
    String series =
        "{\"sourceId\":\""
            + sourceId
            + "\",\"aggFn\":\""
            + aggFn
            + "\""
            + (field == null ? "" : ",\"field\":\"" + field + "\"")
            + ",\"where\":\""
            + where
            + "\",\"whereLanguage\":\"sql\",\"groupBy\":"
            + groupBy
            + "}";
    return http.send(
        "POST",
        "/api/v2/charts/series",
        "{\"startTime\":"
            + T
            + ",\"endTime\":"
            + (T + 86_400_000)
            + ",\"granularity\":\"1d\",\"series\":["
            + series
            + "]}",
        "Authorization",
        "Bearer " + token,
        "Content-Type",
        "application/json");
  }

  static String error(HttpResponse<String> r) throws Exception {
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  @Test
  void aQueryPastItsDeadlineIsA503NamingTheLimit() throws Exception {
    start("--query-timeout", "1ms");
    assertEquals(200, ingest(200_000).statusCode());
    HttpResponse<String> r = chart("p99", "d", "Body ILIKE '%_%_%_%_%9 ms'", "[]");
    assertEquals(503, r.statusCode(), r.body());
    assertTrue(
        error(r).startsWith("SERVICE_UNAVAILABLE: the query ran longer than its limit of 1 ms"),
        r.body());
    assertEquals(200, http.send("GET", "/health", null).statusCode());
  }

  @Test
  void aQueryOverItsMemoryBudgetOrGroupLimitIsA400() throws Exception {
    start("--query-memory", "1m");
    assertEquals(200, ingest(200_000).statusCode());
    HttpResponse<String> memory = chart("p99", "d", "", "[]");
    assertEquals(400, memory.statusCode(), memory.body());
    assertTrue(error(memory).contains("memory budget of 1 MB"), memory.body());
    HttpResponse<String> groups = chart("count", null, "", "[\"Body\",\"d\"]");
    assertEquals(400, groups.statusCode(), groups.body());
    assertTrue(error(groups).contains("more than 10,000 groups"), groups.body());
    // A query within the limits still answers.
    HttpResponse<String> count = chart("count", null, "", "[]");
    assertEquals(200, count.statusCode(), count.body());
    assertTrue(count.body().contains("200000"), count.body());
  }

  /**
   * Sealed segments live in files, so what {@code --max-memory} bounds is the unsealed heads (each
   * sealed at a sixteenth of the limit, at least 1 MB). Filler sources of 7,500 events each (a
   * third of a MB of head, far from the 1 MB that would seal one) are added while one more still
   * fits under the limit, so the room left is less than one filler. The third source's first batch
   * of 8,192 events is then taken and passes the limit, and nothing is sealed afterwards, so every
   * later write is refused however fast the sealing thread is. The fillers are measured, not
   * assumed, since how many bytes a head counts per event is the engine's business.
   */
  @Test
  void ingestionPastMaxMemoryIsA503ThatKeepsWhatItAccepted() throws Exception {
    start("--max-memory", "2m");
    long limit = 2 << 20;
    long held = 0;
    long filler = 0;
    for (int i = 0; held + filler < limit; i++) {
      String other =
          admin(
                  "POST",
                  BASE + "/" + serviceId + "/clickstack/sources",
                  "{\"name\":\"filler" + i + "\",\"kind\":\"log\"}")
              .get("id")
              .textValue();
      assertEquals(200, ingest(other, 7_500).statusCode());
      JsonNode stats = sourceStats(other);
      assertEquals(0, stats.get("segments").asLong(), "a filler's head was sealed: " + stats);
      filler = stats.get("headBytes").asLong();
      held += filler;
    }
    HttpResponse<String> r = ingest(100_000);
    assertEquals(503, r.statusCode(), r.body());
    assertEquals("5", r.headers().firstValue("Retry-After").orElse(null));
    String text = error(r);
    assertTrue(text.contains("reached the limit of 2 MB"), text);
    long stored =
        Long.parseLong(text.replaceAll(".*; (\\d+) events of this request before line.*", "$1"));
    assertEquals(8_192, stored, text);
    assertEquals(0, sourceStats(sourceId).get("sealBacklog").asLong(), "a seal is in flight");
    // Later writes are refused too; the server answers everything else, with all it accepted.
    assertEquals(503, ingest(10).statusCode());
    assertEquals(200, http.send("GET", "/health", null).statusCode());
    HttpResponse<String> count = chart("count", null, "", "[]");
    assertEquals(200, count.statusCode(), count.body());
    assertTrue(count.body().contains("\"series_0.data\":" + stored), count.body());
  }

  /** The source's entry in {@code GET /api/v2/stats}. */
  JsonNode sourceStats(String source) throws Exception {
    HttpResponse<String> r =
        http.send("GET", "/api/v2/stats", null, "Authorization", "Bearer " + token);
    assertEquals(200, r.statusCode(), r.body());
    for (JsonNode s : MAPPER.readTree(r.body()).get("data").get("sources")) {
      if (s.get("id").textValue().equals(source)) {
        return s;
      }
    }
    throw new AssertionError("no stats for source " + source + ": " + r.body());
  }

  @Test
  void aQueryWhoseClientDisconnectsIsCancelled() throws Exception {
    start("--query-timeout", "60s");
    assertEquals(200, ingest(300_000).statusCode());
    String where = "Body ILIKE '" + "%_".repeat(40) + "%9 ms'";
    String body =
        "{\"startTime\":"
            + T
            + ",\"endTime\":"
            + (T + 86_400_000)
            + ",\"granularity\":\"1d\",\"series\":[{\"sourceId\":\""
            + sourceId
            + "\",\"aggFn\":\"p99\",\"field\":\"d\",\"whereLanguage\":\"sql\",\"where\":\""
            + where
            + "\"}]}";
    for (int attempt = 0; attempt < 5; attempt++) {
      long cancelledBefore = server.queryCounters().cancelled();
      long completedBefore = server.queryCounters().completed();
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
        byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        s.getOutputStream()
            .write(
                ("POST /api/v2/charts/series HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + token
                        + "\r\nContent-Type: application/json\r\nContent-Length: "
                        + b.length
                        + "\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        s.getOutputStream().write(b);
        s.getOutputStream().flush();
        // Wait until the query runs (or has already answered: then try again), then hang up.
        long deadline = System.nanoTime() + Await.HUNG.toNanos();
        while (server.queryCounters().running() == 0
            && server.queryCounters().completed() == completedBefore) {
          assertTrue(System.nanoTime() < deadline, "the query never ran");
          Thread.sleep(5);
        }
      }
      Await.until("the query ended", () -> server.queryCounters().running() == 0);
      if (server.queryCounters().cancelled() > cancelledBefore) {
        assertEquals(0, server.queryCounters().running());
        return;
      }
    }
    throw new AssertionError("the query always finished before its client hung up");
  }
}
