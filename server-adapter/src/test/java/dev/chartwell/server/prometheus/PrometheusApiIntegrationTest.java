package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus routes over HTTP: answers, status codes, authentication, {@code /metrics}. */
class PrometheusApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String BASE = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String METRICS_TOKEN = "metrics-token-0123456789";
  static final long T0 = System.currentTimeMillis() - 60_000;

  @TempDir static Path dir;
  static ChartwellServer server;
  static HttpTestClient http;
  static String serviceId;
  static String token;
  static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dir, "--metrics-token", METRICS_TOKEN);
    http = new HttpTestClient(server.port());
    JsonNode created =
        MAPPER
            .readTree(
                http.send(
                        "POST",
                        BASE,
                        "{\"name\":\"Prom\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
                        "Authorization",
                        ADMIN)
                    .body())
            .get("result");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "service running",
        () ->
            MAPPER
                .readTree(
                    http.send("GET", BASE + "/" + serviceId, null, "Authorization", ADMIN).body())
                .path("result")
                .path("state")
                .asText()
                .equals("running"));
    RemoteWrite.Request r =
        new RemoteWrite.Request(
            List.of(
                new RemoteWrite.TimeSeries(
                    Labels.of("__name__", "up", "job", "api", "instance", "a:1"),
                    new long[] {T0, T0 + 15_000, T0 + 30_000},
                    new double[] {1, 1, SeriesData.STALE_NAN}),
                new RemoteWrite.TimeSeries(
                    Labels.of("__name__", "up", "job", "web", "instance", "b:1"),
                    new long[] {T0},
                    new double[] {0})),
            List.of(new RemoteWrite.Metadata(RemoteWrite.MetricType.GAUGE, "up", "is up", "")));
    assertEquals(204, write(RemoteWrite.encode(r), "Bearer " + token).statusCode());
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  static HttpResponse<String> write(byte[] body, String authorization) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/api/v1/write"))
            .header("Content-Type", "application/x-protobuf")
            .header("Content-Encoding", "snappy")
            .header("X-Prometheus-Remote-Write-Version", "0.1.0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode get(String path, int status) throws Exception {
    HttpResponse<String> r =
        http.send("GET", path, null, "Authorization", HttpTestClient.basic(serviceId, token));
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  @Test
  void writeAnswersFollowTheSpec() throws Exception {
    HttpResponse<String> garbage = write("not snappy".getBytes(), "Bearer " + token);
    assertEquals(400, garbage.statusCode(), garbage.body());
    assertTrue(garbage.body().contains("snappy"), garbage.body());
    assertEquals(
        401,
        write(RemoteWrite.encode(new RemoteWrite.Request(List.of(), List.of())), "Bearer wrong")
            .statusCode());
    assertEquals(
        204,
        write(
                RemoteWrite.encode(new RemoteWrite.Request(List.of(), List.of())),
                HttpTestClient.basic(serviceId, token))
            .statusCode());
  }

  @Test
  void lookUpsAnswerInPrometheusEnvelope() throws Exception {
    assertEquals(
        "{\"status\":\"success\",\"data\":[\"__name__\",\"instance\",\"job\"]}",
        get("/api/v1/labels", 200).toString());
    assertEquals("[\"api\",\"web\"]", get("/api/v1/label/job/values", 200).get("data").toString());
    JsonNode series = get("/api/v1/series?match[]=up%7Bjob%3D%22api%22%7D", 200);
    assertEquals(
        "[{\"__name__\":\"up\",\"instance\":\"a:1\",\"job\":\"api\"}]",
        series.get("data").toString());
    JsonNode limited = get("/api/v1/series?match[]=up&limit=1", 200);
    assertEquals(1, limited.get("data").size());
    assertEquals("[\"results truncated due to limit\"]", limited.get("warnings").toString());
    assertEquals(
        "{\"up\":[{\"type\":\"gauge\",\"help\":\"is up\",\"unit\":\"\"}]}",
        get("/api/v1/metadata", 200).get("data").toString());
    assertEquals(
        "2.42.0", get("/api/v1/status/buildinfo", 200).get("data").get("version").asText());
    JsonNode bad = get("/api/v1/series?match[]=%7Bjob%3D~%22.*%22%7D", 400);
    assertEquals("error", bad.get("status").asText());
    assertEquals("bad_data", bad.get("errorType").asText());
    assertTrue(
        bad.get("error").asText().contains("at least one non-empty matcher"), bad.toString());
    JsonNode badTime = get("/api/v1/labels?start=yesterday", 400);
    assertTrue(badTime.get("error").asText().contains("\"start\""), badTime.toString());
    HttpResponse<String> form =
        http.send(
            "POST",
            "/api/v1/label/job/values",
            "match%5B%5D=up%7Bjob%3D%22web%22%7D",
            "Content-Type",
            "application/x-www-form-urlencoded",
            "Authorization",
            "Bearer " + token);
    assertEquals(200, form.statusCode(), form.body());
    assertEquals("[\"web\"]", MAPPER.readTree(form.body()).get("data").toString());
  }

  @Test
  void promQlQueriesAnswerAsPrometheus() throws Exception {
    String t = Params.seconds(T0 + 20_000).toPlainString();
    assertEquals(
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":["
            + t
            + ",\"2\"]}}",
        http.send(
                "GET",
                "/api/v1/query?query=1%2B1&time=" + t,
                null,
                "Authorization",
                "Bearer " + token)
            .body());
    JsonNode vector = get("/api/v1/query?query=up%7Bjob%3D%22api%22%7D&time=" + t, 200);
    assertEquals(
        "{\"__name__\":\"up\",\"instance\":\"a:1\",\"job\":\"api\"}",
        vector.get("data").get("result").get(0).get("metric").toString());
    assertEquals("1", vector.get("data").get("result").get(0).get("value").get(1).asText());
    String start = Params.seconds(T0).toPlainString();
    String end = Params.seconds(T0 + 45_000).toPlainString();
    JsonNode range =
        get(
            "/api/v1/query_range?query=sum%20by%20(job)%20(up)&start="
                + start
                + "&end="
                + end
                + "&step=15s",
            200);
    JsonNode result = range.get("data").get("result");
    assertEquals("matrix", range.get("data").get("resultType").asText());
    assertEquals("{\"job\":\"api\"}", result.get(0).get("metric").toString());
    assertEquals(2, result.get(0).get("values").size(), "the staleness marker ends the series");
    assertEquals(4, result.get(1).get("values").size(), "web's one sample within the lookback");
    JsonNode bad = get("/api/v1/query?query=sum(", 400);
    assertEquals("bad_data", bad.get("errorType").asText());
    JsonNode noStep = get("/api/v1/query_range?query=up&start=1&end=2", 400);
    assertTrue(noStep.get("error").asText().contains("\"step\""), noStep.toString());
  }

  @Test
  void metricsNeedAnAdminKeyOrTheToken() throws Exception {
    assertEquals(401, http.send("GET", "/metrics", null).statusCode());
    assertEquals(
        401, http.send("GET", "/metrics", null, "Authorization", "Bearer nope").statusCode());
    HttpResponse<String> byToken =
        http.send("GET", "/metrics", null, "Authorization", "Bearer " + METRICS_TOKEN);
    assertEquals(200, byToken.statusCode());
    assertTrue(byToken.body().contains("chartwell_http_requests_seconds_count{"), byToken.body());
    assertTrue(byToken.body().contains("jvm_memory_used_bytes"));
    assertTrue(byToken.body().contains("chartwell_engine_seal_backlog"));
    assertTrue(
        byToken
            .body()
            .contains("chartwell_ingest_events_total{protocol=\"prometheus_remote_write\"}"));
    HttpResponse<String> open =
        http.send(
            "GET",
            "/metrics",
            null,
            "Authorization",
            ADMIN,
            "Accept",
            "application/openmetrics-text; version=1.0.0");
    assertEquals(200, open.statusCode());
    assertTrue(open.body().endsWith("# EOF\n"), "OpenMetrics ends with # EOF");
    JsonNode dev =
        MAPPER
            .readTree(
                http.send(
                        "POST",
                        "/v1/organizations/" + TestServers.ORG + "/keys",
                        MAPPER.writeValueAsString(
                            Map.of("name", "dev", "roles", List.of("developer"))),
                        "Authorization",
                        ADMIN)
                    .body())
            .get("result");
    assertEquals(
        403,
        http.send(
                "GET",
                "/metrics",
                null,
                "Authorization",
                HttpTestClient.basic(
                    dev.get("keyId").textValue(), dev.get("keySecret").textValue()))
            .statusCode());
  }
}
