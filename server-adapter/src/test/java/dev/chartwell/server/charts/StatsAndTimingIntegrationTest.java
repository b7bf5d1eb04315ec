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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v2/stats} over real HTTP: each source of the token's warehouse with its table's
 * events, rate, seal backlog and bytes on disk; and the {@code Server-Timing} header of answers.
 */
class StatsAndTimingIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String BASE = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final long T = 1_767_225_600_000L;

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  @BeforeEach
  void setUp() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  /** A running service: its id and token. */
  String[] service(String name) throws Exception {
    JsonNode created =
        admin(
            "POST",
            BASE,
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String id = created.get("service").get("id").textValue();
    Await.until(
        "the service running",
        () -> admin("GET", BASE + "/" + id, null).get("state").textValue().equals("running"));
    return new String[] {id, created.get("password").textValue()};
  }

  String source(String serviceId, String name) throws Exception {
    return admin(
            "POST",
            BASE + "/" + serviceId + "/clickstack/sources",
            "{\"name\":\"" + name + "\",\"kind\":\"log\"}")
        .get("id")
        .textValue();
  }

  HttpResponse<String> bearer(String method, String path, String body, String token)
      throws Exception {
    return body == null
        ? http.send(method, path, null, "Authorization", "Bearer " + token)
        : http.send(
            method,
            path,
            body,
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            path.endsWith("/events") ? "application/x-ndjson" : "application/json");
  }

  JsonNode stats(String token) throws Exception {
    HttpResponse<String> r = bearer("GET", "/api/v2/stats", null, token);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("data").get("sources");
  }

  @Test
  void statsShowEachSourceOfTheWarehouseWithItsEventsRateAndDisk() throws Exception {
    String[] svc = service("Stats");
    String[] other = service("Other");
    String logs = source(svc[0], "logs");
    String empty = source(svc[0], "empty");
    source(other[0], "elsewhere");
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      ndjson
          .append("{\"Timestamp\":")
          .append(T + i)
          .append(",\"Body\":\"line ")
          .append(i)
          .append("\"}\n");
    }
    HttpResponse<String> ingest =
        bearer("POST", "/api/v2/sources/" + logs + "/events", ndjson.toString(), svc[1]);
    assertEquals(200, ingest.statusCode(), ingest.body());

    JsonNode sources = stats(svc[1]);
    assertEquals(2, sources.size(), "only this warehouse's sources: " + sources);
    JsonNode s = sources.get(0);
    assertEquals(logs, s.get("id").textValue());
    assertEquals("logs", s.get("name").textValue());
    assertEquals("default", s.get("databaseName").textValue());
    assertEquals("logs", s.get("tableName").textValue());
    assertEquals(500, s.get("rows").asLong());
    assertEquals(500, s.get("acceptedEvents").asLong());
    assertTrue(s.get("eventsPerSecond").asDouble() > 0, s.toString());
    assertEquals(500, s.get("headRows").asLong(), "fewer than a segment: all in the head");
    assertEquals(0, s.get("segments").asInt());
    assertEquals(0, s.get("sealBacklog").asInt());
    assertEquals(0, s.get("sealBacklogRows").asLong());
    long log = s.get("logBytes").asLong();
    assertEquals(log, s.get("diskBytes").asLong(), "nothing sealed yet: the log is all");
    String table =
        MAPPER
            .readTree(bearer("GET", "/api/v2/tables/default/logs", null, svc[1]).body())
            .get("data")
            .get("id")
            .textValue();
    assertEquals(logFilesBytes(table), log, "the table's log files on disk");

    JsonNode e = sources.get(1);
    assertEquals(empty, e.get("id").textValue());
    assertEquals(0, e.get("rows").asLong());
    assertEquals(0, e.get("acceptedEvents").asLong());
    assertEquals(0.0, e.get("eventsPerSecond").asDouble());

    assertEquals("elsewhere", stats(other[1]).get(0).get("name").textValue());
    assertEquals(401, http.send("GET", "/api/v2/stats", null).statusCode());
    assertEquals(401, bearer("GET", "/api/v2/stats", null, "not-a-token").statusCode());
  }

  @Test
  void eachTokenFindsItsServiceAgainAndARotatedOneNoLonger() throws Exception {
    String[] a = service("A");
    String[] b = service("B");
    source(a[0], "of-a");
    source(b[0], "of-b");
    for (int i = 0; i < 3; i++) { // the first use finds the service among all, later ones directly
      assertEquals("of-a", stats(a[1]).get(0).get("name").textValue());
      assertEquals("of-b", stats(b[1]).get(0).get("name").textValue());
    }
    String fresh =
        admin("PATCH", BASE + "/" + a[0] + "/password", "{}").get("password").textValue();
    assertEquals(401, bearer("GET", "/api/v2/stats", null, a[1]).statusCode());
    assertEquals("of-a", stats(fresh).get(0).get("name").textValue());
    assertEquals(401, bearer("GET", "/api/v2/stats", null, a[1]).statusCode());
    assertEquals("of-b", stats(b[1]).get(0).get("name").textValue());
  }

  private long logFilesBytes(String table) throws Exception {
    try (Stream<Path> files = Files.walk(dataDir.resolve("engine/sources/" + table))) {
      long total = 0;
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }

  @Test
  void answersCarryServerTimingAndChartsTheEngineTime() throws Exception {
    String[] svc = service("Timing");
    String src = source(svc[0], "timed");
    assertEquals(
        200,
        bearer(
                "POST",
                "/api/v2/sources/" + src + "/events",
                "{\"Timestamp\":" + T + ",\"Body\":\"x\"}\n",
                svc[1])
            .statusCode());
    HttpResponse<String> chart =
        bearer(
            "POST",
            "/api/v2/charts/series",
            "{\"startTime\":"
                + (T - 60_000)
                + ",\"endTime\":"
                + (T + 60_000)
                + ",\"granularity\":\"1m\",\"series\":[{\"sourceId\":\""
                + src
                + "\",\"aggFn\":\"count\"}]}",
            svc[1]);
    assertEquals(200, chart.statusCode(), chart.body());
    assertEquals(
        "{\"data\":[{\"ts_bucket\":" + T + ",\"group\":[],\"series_0.data\":1}]}", chart.body());
    Map<String, Double> t = timing(chart);
    assertEquals(java.util.Set.of("engine", "read", "write", "total"), t.keySet());
    assertTrue(
        t.get("engine") + t.get("read") + t.get("write") <= t.get("total") + 0.003, t.toString());

    HttpResponse<String> health = http.send("GET", "/health", null);
    assertEquals(java.util.Set.of("write", "total"), timing(health).keySet());
    HttpResponse<String> error = bearer("GET", "/api/v2/stats", null, "wrong");
    assertEquals(401, error.statusCode());
    assertEquals(java.util.Set.of("write", "total"), timing(error).keySet());
  }

  @Test
  void largeAnswersAreGzippedWhenTheClientAcceptsIt() throws Exception {
    String[] svc = service("Gzip");
    String src = source(svc[0], "many");
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < 600; i++) {
      ndjson.append("{\"Timestamp\":").append(T + i * 60_000L).append(",\"Body\":\"b\"}\n");
    }
    assertEquals(
        200,
        bearer("POST", "/api/v2/sources/" + src + "/events", ndjson.toString(), svc[1])
            .statusCode());
    String query =
        "{\"startTime\":"
            + T
            + ",\"endTime\":"
            + (T + 600 * 60_000L)
            + ",\"granularity\":\"1m\",\"series\":[{\"sourceId\":\""
            + src
            + "\",\"aggFn\":\"count\"}]}";
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    java.util.function.Function<String, HttpResponse<byte[]>> send =
        accept -> {
          var b =
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create(
                          "http://127.0.0.1:" + server.port() + "/api/v2/charts/series"))
                  .header("Authorization", "Bearer " + svc[1])
                  .header("Content-Type", "application/json")
                  .POST(java.net.http.HttpRequest.BodyPublishers.ofString(query));
          if (accept != null) {
            b.header("Accept-Encoding", accept);
          }
          try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        };
    HttpResponse<byte[]> plain = send.apply(null);
    HttpResponse<byte[]> gzipped = send.apply("gzip, deflate");
    HttpResponse<byte[]> refused = send.apply("gzip;q=0");
    assertEquals(200, gzipped.statusCode());
    assertTrue(plain.body().length > 8 * 1024, "large enough: " + plain.body().length);
    assertEquals(600, MAPPER.readTree(plain.body()).get("data").size());
    assertEquals("gzip", gzipped.headers().firstValue("Content-Encoding").orElse(null));
    assertEquals("Accept-Encoding", gzipped.headers().firstValue("Vary").orElse(null));
    assertTrue(gzipped.body().length < plain.body().length / 4, "compressed");
    try (var in =
        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzipped.body()))) {
      assertEquals(MAPPER.readTree(plain.body()), MAPPER.readTree(in.readAllBytes()));
    }
    assertTrue(
        gzipped.headers().firstValue("Server-Timing").orElseThrow().contains(", gzip;dur="),
        "the compression is timed");
    assertTrue(plain.headers().firstValue("Content-Encoding").isEmpty());
    assertTrue(refused.headers().firstValue("Content-Encoding").isEmpty());
    // small answers stay as they are
    HttpResponse<String> health = http.send("GET", "/health", null, "Accept-Encoding", "gzip");
    assertEquals("{\"status\":\"ok\"}", health.body());
  }

  private static Map<String, Double> timing(HttpResponse<String> r) {
    String header = r.headers().firstValue("Server-Timing").orElseThrow();
    Matcher m = Pattern.compile("([a-z]+);dur=(\\d+\\.\\d{3})(, |$)").matcher(header);
    Map<String, Double> out = new java.util.LinkedHashMap<>();
    int end = 0;
    while (m.find() && m.start() == end) {
      out.put(m.group(1), Double.parseDouble(m.group(2)));
      end = m.end();
    }
    assertEquals(header.length(), end, "well-formed: " + header);
    return out;
  }
}
