package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.otlp.OtelTable;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server embedded over an engine the test holds: its sources reach the API and the UI. */
class EmbeddedServerTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir Path engineDir;
  @TempDir Path stateDir;

  /** A source shaped as otel_logs, as the logging integrations make it. */
  private static Source otelLogs(Engine engine) {
    OtelTable t = OtelTable.LOGS;
    return engine.createSource(
        new SourceSpec(
            t.tableName(),
            t.tableName(),
            dev.chartwell.engine.SourceKind.LOG,
            t.timestampColumn(),
            t.bodyColumn(),
            t.implicitColumn(),
            t.columns()));
  }

  @Test
  void servesTheApplicationsEngineAndLeavesItOpen() throws Exception {
    long now = System.currentTimeMillis();
    try (Engine engine = Engine.builder().dataDirectory(engineDir).build()) {
      Source logs = otelLogs(engine);
      for (int i = 0; i < 5; i++) {
        logs.append(
            new Event(
                now - i, Map.of("Body", "hello " + i, "SeverityText", i < 2 ? "ERROR" : "INFO")));
      }
      ChartwellServer server =
          ChartwellServer.embedded(engine)
              .port(0)
              .apiKey("app-admin", "app-admin-secret")
              .stateDirectory(stateDir)
              .start();
      String base = "http://127.0.0.1:" + server.port();
      try {
        ChartwellServer.Access access = server.access().orElseThrow();
        assertEquals("app-admin", access.adminKeyId());
        assertEquals("app-admin-secret", access.adminKeySecret().orElseThrow());
        String basic =
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("app-admin:app-admin-secret".getBytes(StandardCharsets.UTF_8));

        // The web UI is served.
        HttpResponse<String> ui = send(base + "/", "GET", null, Map.of());
        assertEquals(200, ui.statusCode());
        assertTrue(ui.body().contains("<html"), ui.body());

        // The engine's otel_logs became the Logs source of the one service.
        Map<String, JsonNode> sources =
            sources(base, access.organizationId(), access.serviceId(), basic);
        JsonNode logSource = sources.get("Logs");
        assertEquals("otel_logs", logSource.get("from").get("tableName").asText());

        // Charted over HTTP with the service's token: what the application appended.
        assertEquals(5, count(base, access.serviceToken(), logSource.get("id").asText(), "", now));
        assertEquals(
            2,
            count(
                base,
                access.serviceToken(),
                logSource.get("id").asText(),
                "SeverityText:ERROR",
                now));

        // Sources made after the start are found too; metric tables become one Metrics source.
        for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM, OtelTable.HISTOGRAM)) {
          engine.createSource(
              new SourceSpec(
                  t.tableName(),
                  t.tableName(),
                  dev.chartwell.engine.SourceKind.METRIC,
                  t.timestampColumn(),
                  null,
                  null,
                  t.columns()));
        }
        engine
            .createSource(SourceSpec.logs("audit"))
            .append(new Event(now, Map.of("Body", "user signed in")));
        assertEquals(4, server.adoptEngineSources());
        assertEquals(0, server.adoptEngineSources());
        sources = sources(base, access.organizationId(), access.serviceId(), basic);
        JsonNode metrics = sources.get("Metrics");
        assertEquals("otel_metrics_sum", metrics.get("metricTables").get("sum").asText());
        assertEquals("otel_metrics_gauge", metrics.get("metricTables").get("gauge").asText());
        assertFalse(metrics.get("metricTables").has("summary"));
        assertEquals(
            1,
            count(base, access.serviceToken(), sources.get("audit").get("id").asText(), "", now));

        // Deleting an adopted table only unlists it; its definition is the application's.
        String auditSource = sources.get("audit").get("id").asText();
        String auditTable = sources.get("audit").get("from").get("tableName").asText();
        String basePath =
            base
                + "/v1/organizations/"
                + access.organizationId()
                + "/services/"
                + access.serviceId();
        assertEquals(
            200,
            send(
                    basePath + "/clickstack/sources/" + auditSource,
                    "DELETE",
                    null,
                    Map.of("Authorization", basic))
                .statusCode());
        String bearer = "Bearer " + access.serviceToken();
        HttpResponse<String> deleted =
            send(
                base + "/api/v2/tables/default/" + auditTable,
                "DELETE",
                null,
                Map.of("Authorization", bearer));
        assertEquals(200, deleted.statusCode(), deleted.body());
        assertEquals(1, engine.source(auditTable).orElseThrow().stats().rows());
        assertEquals(1, server.adoptEngineSources());
        HttpResponse<String> redefined =
            send(
                base + "/api/v2/tables/default/otel_logs",
                "PUT",
                "{\"columns\":[]}",
                Map.of("Authorization", bearer, "Content-Type", "application/json"));
        assertEquals(409, redefined.statusCode(), redefined.body());
      } finally {
        server.close();
      }
      // The engine is the application's: still open, every source kept.
      logs.append(new Event(now, Map.of("Body", "after the server")));
      assertEquals(6, logs.stats().rows());
      assertEquals(5, engine.sources().size());
    }
  }

  @Test
  void withoutAStateDirectoryAKeyIsGeneratedAndTheStateIsDeletedAtClose() throws Exception {
    try (Engine engine = Engine.builder().build()) {
      ChartwellServer server = ChartwellServer.embedded(engine).port(0).start();
      Path state;
      try {
        ChartwellServer.Access access = server.access().orElseThrow();
        String secret = access.adminKeySecret().orElseThrow();
        String basic =
            "Basic "
                + Base64.getEncoder()
                    .encodeToString(
                        (access.adminKeyId() + ":" + secret).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> org =
            send(
                "http://127.0.0.1:"
                    + server.port()
                    + "/v1/organizations/"
                    + access.organizationId(),
                "GET",
                null,
                Map.of("Authorization", basic));
        assertEquals(200, org.statusCode(), org.body());
        HttpResponse<String> wrong =
            send(
                "http://127.0.0.1:"
                    + server.port()
                    + "/v1/organizations/"
                    + access.organizationId(),
                "GET",
                null,
                Map.of(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder()
                            .encodeToString("x:y".getBytes(StandardCharsets.UTF_8))));
        assertEquals(401, wrong.statusCode());
        state = stateDirectoryOf(server);
        assertTrue(Files.isDirectory(state));
      } finally {
        server.close();
      }
      assertFalse(Files.exists(state), "the temporary state is deleted");
    }
  }

  @Test
  void servesHttpsWithTheGivenFiles() throws Exception {
    try (Engine engine = Engine.builder().build();
        ChartwellServer server =
            ChartwellServer.embedded(engine)
                .port(0)
                .tls(
                    TlsIntegrationTest.fixture("server.pem"),
                    TlsIntegrationTest.fixture("server-key.pem"))
                .start()) {
      java.net.http.HttpResponse<String> health =
          java.net.http.HttpClient.newBuilder()
              .sslContext(TlsIntegrationTest.trusting(TlsIntegrationTest.fixture("ca.pem")))
              .build()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create("https://127.0.0.1:" + server.port() + "/health"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(200, health.statusCode());
    }
  }

  @Test
  void theTestJvmHasTheOptionsChronicleNeeds() {
    // Surefire passes them (the parent pom's chronicle.jvm.flags); without them start() refuses.
    assertEquals(List.of(), EmbeddedServer.missingJvmOptions());
  }

  private static Path stateDirectoryOf(ChartwellServer server) throws Exception {
    var f = ChartwellServer.class.getDeclaredField("dataDirectory");
    f.setAccessible(true);
    return ((dev.chartwell.server.store.DataDirectory) f.get(server)).root();
  }

  private Map<String, JsonNode> sources(String base, String org, String service, String basic)
      throws Exception {
    HttpResponse<String> r =
        send(
            base + "/v1/organizations/" + org + "/services/" + service + "/clickstack/sources",
            "GET",
            null,
            Map.of("Authorization", basic));
    assertEquals(200, r.statusCode(), r.body());
    Map<String, JsonNode> byName = new HashMap<>();
    for (JsonNode s : MAPPER.readTree(r.body()).get("result")) {
      byName.put(s.get("name").asText(), s);
    }
    return byName;
  }

  private long count(String base, String token, String sourceId, String where, long now)
      throws Exception {
    String q =
        MAPPER.writeValueAsString(
            Map.of(
                "startTime",
                now - 3_600_000,
                "endTime",
                now + 3_600_000,
                "granularity",
                "30d",
                "series",
                List.of(Map.of("sourceId", sourceId, "aggFn", "count", "where", where))));
    HttpResponse<String> r =
        send(
            base + "/api/v2/charts/series",
            "POST",
            q,
            Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json"));
    assertEquals(200, r.statusCode(), r.body());
    long n = 0;
    for (JsonNode row : MAPPER.readTree(r.body()).get("data")) {
      n += row.get("series_0.data").asLong();
    }
    return n;
  }

  private HttpResponse<String> send(
      String url, String method, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
