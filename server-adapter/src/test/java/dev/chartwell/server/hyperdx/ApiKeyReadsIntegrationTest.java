package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reads the web UI makes with an API key on the real server: the chart query, the event search
 * and the table, with {@code X-Service-Id}; the same answers as with the service's token, for an
 * admin and a read-only developer key; nothing for a service the organization does not have, a key
 * from an address its access list excludes, or a write.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiKeyReadsIntegrationTest {
  static final long T = 1_778_371_200_000L; // 2026-05-10T00:00:00Z
  V2Fixture f;
  String source;
  String developer;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    source = f.logSource("logs");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      lines.append(
          String.format(
              "{\"Timestamp\":%d,\"ServiceName\":\"%s\",\"Body\":\"request %d\"}\n",
              T + i * 60_000L, i % 2 == 0 ? "api" : "web", i));
    }
    f.ingest("/api/v2/sources/" + source + "/events", lines.toString());
    JsonNode key =
        f.cloud(
            "POST",
            "/v1/organizations/" + TestServers.ORG + "/keys",
            "{\"name\":\"reader\",\"roles\":[\"developer\"]}");
    developer =
        HttpTestClient.basic(key.get("keyId").textValue(), key.get("keySecret").textValue());
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private String chart() {
    return "{\"startTime\":"
        + T
        + ",\"endTime\":"
        + (T + 3_600_000L)
        + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
        + source
        + "\",\"aggFn\":\"count\",\"groupBy\":[\"ServiceName\"]}]}";
  }

  private String search() {
    return "{\"sourceId\":\""
        + source
        + "\",\"startTime\":\"2026-05-10T00:00:00Z\",\"endTime\":\"2026-05-10T01:00:00Z\"}";
  }

  private HttpResponse<String> asKey(
      String auth, String method, String path, String body, String service) throws Exception {
    return f.http.send(method, path, body, "Authorization", auth, "X-Service-Id", service);
  }

  @Test
  void chartSearchAndTableAnswerAsWithTheServicesToken() throws Exception {
    for (String auth : new String[] {V2Fixture.ADMIN, developer}) {
      HttpResponse<String> chart =
          asKey(auth, "POST", "/api/v2/charts/series", chart(), f.serviceId);
      assertEquals(200, chart.statusCode(), chart.body());
      assertEquals(f.v2("POST", "/api/v2/charts/series", chart()).body(), chart.body());
      assertEquals(
          "[{\"ts_bucket\":1778371200000,\"group\":[\"api\"],\"series_0.data\":3},"
              + "{\"ts_bucket\":1778371200000,\"group\":[\"web\"],\"series_0.data\":3}]",
          V2Fixture.MAPPER.readTree(chart.body()).get("data").toString());

      HttpResponse<String> events = asKey(auth, "POST", "/api/v2/search", search(), f.serviceId);
      assertEquals(200, events.statusCode(), events.body());
      JsonNode rows = V2Fixture.MAPPER.readTree(events.body()).get("data");
      assertEquals(6, rows.size());
      assertEquals("request 5", rows.get(0).get("Body").asText(), "newest first");

      HttpResponse<String> table =
          asKey(auth, "GET", "/api/v2/tables/default/logs", null, f.serviceId);
      assertEquals(200, table.statusCode(), table.body());
      assertEquals(6, V2Fixture.MAPPER.readTree(table.body()).get("data").get("rows").asInt());
    }
  }

  @Test
  void aServiceTheOrganizationDoesNotHaveIsA404() throws Exception {
    String unknown = "00000000-0000-4000-8000-000000000000";
    for (String[] call :
        new String[][] {
          {"POST", "/api/v2/charts/series", chart()},
          {"POST", "/api/v2/search", search()},
          {"GET", "/api/v2/tables/default/logs", null}
        }) {
      HttpResponse<String> r = asKey(V2Fixture.ADMIN, call[0], call[1], call[2], unknown);
      assertEquals(404, r.statusCode(), call[1] + ": " + r.body());
      assertTrue(r.body().contains("service " + unknown + " does not exist"), r.body());
    }
  }

  @Test
  void theKeyReadsOnlyWhatTheseRoutesAllowAndItsAccessListHolds() throws Exception {
    HttpResponse<String> ingest =
        f.http.send(
            "POST",
            "/api/v2/sources/" + source + "/events",
            "{\"Timestamp\":1}",
            "Authorization",
            V2Fixture.ADMIN,
            "X-Service-Id",
            f.serviceId,
            "Content-Type",
            "application/x-ndjson");
    assertEquals(401, ingest.statusCode(), "ingestion takes only the service's token");
    HttpResponse<String> dashboards =
        asKey(V2Fixture.ADMIN, "GET", "/api/v2/dashboards", null, f.serviceId);
    assertEquals(401, dashboards.statusCode(), "other /api/v2 routes take only the token");

    JsonNode fenced =
        f.cloud(
            "POST",
            "/v1/organizations/" + TestServers.ORG + "/keys",
            "{\"name\":\"fenced\",\"roles\":[\"admin\"],"
                + "\"ipAccessList\":[{\"source\":\"203.0.113.0/24\"}]}");
    String auth =
        HttpTestClient.basic(fenced.get("keyId").textValue(), fenced.get("keySecret").textValue());
    HttpResponse<String> r = asKey(auth, "POST", "/api/v2/charts/series", chart(), f.serviceId);
    assertEquals(403, r.statusCode(), r.body());
    assertTrue(r.body().contains("ipAccessList"), r.body());
  }
}
