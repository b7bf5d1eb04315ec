package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
 * The creation and update times of sources, dashboards and saved searches, which the document's
 * shapes leave out, are read from our own {@code /api/v2/.../timestamps}.
 */
class TimestampApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  HttpResponse<String> bearer(String path, String token) throws Exception {
    return http.send("GET", path, null, "Authorization", "Bearer " + token);
  }

  JsonNode data(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("data");
  }

  String[] runningService(String name) throws Exception {
    JsonNode c =
        admin(
            "POST",
            SERVICES,
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String id = c.get("service").get("id").textValue();
    Await.until(
        "the service running",
        () -> admin("GET", SERVICES + "/" + id, null).get("state").textValue().equals("running"));
    return new String[] {id, c.get("password").textValue()};
  }

  @Test
  void createdAndUpdatedTimesOfSourcesDashboardsAndSavedSearches() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    String[] svc = runningService("A");
    String cs = SERVICES + "/" + svc[0] + "/clickstack/";
    String source =
        admin("POST", cs + "sources", "{\"name\":\"logs\",\"kind\":\"log\"}").get("id").textValue();
    String dashboard =
        admin("POST", cs + "dashboards", "{\"name\":\"d\",\"tiles\":[]}").get("id").textValue();
    String search =
        admin("POST", cs + "saved-searches", "{\"name\":\"s\",\"sourceId\":\"" + source + "\"}")
            .get("id")
            .textValue();

    JsonNode created = data(bearer("/api/v2/dashboards/" + dashboard + "/timestamps", svc[1]));
    assertEquals(dashboard, created.get("id").textValue());
    assertTrue(created.get("createdAt").textValue().endsWith("Z"), created.toString());
    assertEquals(created.get("createdAt"), created.get("updatedAt"));
    // The update must come at a later instant than the creation, as the catalog writes it (in
    // milliseconds, from the system clock).
    java.time.Instant createdAt = java.time.Instant.parse(created.get("updatedAt").textValue());
    Await.until(
        "the clock past the creation's millisecond",
        () ->
            java.time.Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                .isAfter(createdAt));
    admin("PUT", cs + "dashboards/" + dashboard, "{\"name\":\"d2\",\"tiles\":[]}");
    JsonNode updated = data(bearer("/api/v2/dashboards/" + dashboard + "/timestamps", svc[1]));
    assertEquals(created.get("createdAt"), updated.get("createdAt"));
    assertNotEquals(created.get("updatedAt"), updated.get("updatedAt"));

    assertEquals(
        source,
        data(bearer("/api/v2/sources/" + source + "/timestamps", svc[1])).get("id").textValue());
    assertEquals(
        search,
        data(bearer("/api/v2/saved-searches/" + search + "/timestamps", svc[1]))
            .get("id")
            .textValue());

    String[] other = runningService("B");
    assertEquals(
        404, bearer("/api/v2/dashboards/" + dashboard + "/timestamps", other[1]).statusCode());
    assertEquals(404, bearer("/api/v2/sources/" + source + "/timestamps", other[1]).statusCode());
    assertEquals(401, bearer("/api/v2/sources/" + source + "/timestamps", "nope").statusCode());
  }
}
