package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resources under {@code /api/v2} over HTTP: who is calling, sources, dashboards (and their
 * validation), alerts, webhooks, saved searches, connections and the team, each a second view of
 * the resources the Cloud API's {@code clickstack} paths show (what one creates, the other lists).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class V2ResourcesIntegrationTest {
  V2Fixture f;
  String source;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    source = f.logSource("otel_logs");
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private static List<String> ids(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(n -> out.add(n.get("id").asText()));
    return out;
  }

  @Test
  void theRootSaysWhoIsCalling() throws Exception {
    JsonNode me = f.ok("GET", "/api/v2", null);
    assertEquals("v2", me.get("version").asText());
    assertEquals(f.serviceId, me.get("user").get("_id").asText());
    assertEquals("service", me.get("user").get("kind").asText());
    assertEquals("V2", me.get("user").get("name").asText());
    assertFalse(me.get("user").get("readOnly").asBoolean());
    HttpResponse<String> anonymous = f.http.send("GET", "/api/v2/sources", null);
    assertEquals(401, anonymous.statusCode(), anonymous.body());
    HttpResponse<String> wrong =
        f.http.send("GET", "/api/v2/sources", null, "Authorization", "Bearer not-a-token");
    assertEquals(401, wrong.statusCode(), wrong.body());
  }

  @Test
  void sourcesAreTheCloudApisSources() throws Exception {
    assertTrue(ids(f.cloud("GET", f.clickstack("sources"), null)).contains(source));
    JsonNode cloudMade =
        f.cloud(
            "POST",
            f.clickstack("sources"),
            "{\"name\":\"Traces\",\"kind\":\"trace\",\"from\":{\"databaseName\":\"default\","
                + "\"tableName\":\"otel_traces\"}}");
    String id = cloudMade.get("id").asText();
    assertTrue(ids(f.ok("GET", "/api/v2/sources", null).get("data")).contains(id));
    JsonNode got = f.ok("GET", "/api/v2/sources/" + id, null).get("data");
    assertEquals("Traces", got.get("name").asText());
    assertEquals("otel_traces", got.get("from").get("tableName").asText());
    JsonNode replaced =
        f.ok(
                "PUT",
                "/api/v2/sources/" + id,
                got.toString().replace("\"name\":\"Traces\"", "\"name\":\"Spans\""))
            .get("data");
    assertEquals("Spans", replaced.get("name").asText());
    assertEquals(
        "Spans", f.cloud("GET", f.clickstack("sources") + "/" + id, null).get("name").asText());
    assertEquals("{}", f.ok("DELETE", "/api/v2/sources/" + id, null).toString());
    assertFalse(ids(f.cloud("GET", f.clickstack("sources"), null)).contains(id));
    String e = f.fails(404, "GET", "/api/v2/sources/" + id, null);
    assertTrue(e.contains(id), e);
    e = f.fails(400, "POST", "/api/v2/sources", "{\"name\":\"x\",\"kind\":\"nope\"}");
    assertTrue(e.startsWith("BAD_REQUEST: kind: "), e);
  }

  private String dashboard(String name) {
    return "{\"name\":\""
        + name
        + "\",\"tags\":[\"prod\"],\"tiles\":[{\"name\":\"errors\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,"
        + "\"config\":{\"displayType\":\"line\",\"sourceId\":\""
        + source
        + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}]}}]}";
  }

  @Test
  void dashboardsAreSharedValidatedAndDeletedThroughEitherApi() throws Exception {
    JsonNode made = f.ok("POST", "/api/v2/dashboards", dashboard("Ops")).get("data");
    String id = made.get("id").asText();
    String tile = made.get("tiles").get(0).get("id").asText();
    JsonNode cloud = f.cloud("GET", f.clickstack("dashboards") + "/" + id, null);
    assertEquals("Ops", cloud.get("name").asText());
    assertEquals(tile, cloud.get("tiles").get(0).get("id").asText());
    String cloudId =
        f.cloud("POST", f.clickstack("dashboards"), dashboard("Cloud")).get("id").asText();
    assertEquals(List.of(id, cloudId), ids(f.ok("GET", "/api/v2/dashboards", null).get("data")));
    assertEquals(
        "Cloud",
        f.ok("GET", "/api/v2/dashboards/" + cloudId, null).get("data").get("name").asText());
    JsonNode renamed =
        f.ok("PUT", "/api/v2/dashboards/" + id, made.toString().replace("\"Ops\"", "\"Ops 2\""))
            .get("data");
    assertEquals(tile, renamed.get("tiles").get(0).get("id").asText());
    assertEquals(
        "Ops 2", f.cloud("GET", f.clickstack("dashboards") + "/" + id, null).get("name").asText());

    JsonNode valid = f.ok("POST", "/api/v2/dashboards/validate", dashboard("Check"));
    assertTrue(valid.get("valid").asBoolean(), valid.toString());
    assertEquals("Check", valid.get("normalized").get("name").asText());
    JsonNode invalid =
        f.ok(
            "POST",
            "/api/v2/dashboards/validate",
            dashboard("Check").replace(source, "0123456789abcdef01234567"));
    assertFalse(invalid.get("valid").asBoolean(), invalid.toString());
    assertEquals("tiles.0.config.sourceId", invalid.get("errors").get(0).get("path").asText());
    assertTrue(invalid.get("normalized").isNull());
    // Validating stores nothing.
    assertEquals(2, f.ok("GET", "/api/v2/dashboards", null).get("data").size());

    f.ok("DELETE", "/api/v2/dashboards/" + cloudId, null);
    HttpResponse<String> gone =
        f.http.send(
            "GET",
            f.clickstack("dashboards") + "/" + cloudId,
            null,
            "Authorization",
            V2Fixture.ADMIN);
    assertEquals(404, gone.statusCode(), gone.body());
    String e = f.fails(400, "POST", "/api/v2/dashboards", "{\"name\":\"\",\"tiles\":[]}");
    assertTrue(e.contains("name: must not be blank"), e);
  }

  @Test
  void webhooksAlertsAndSavedSearchesAreSharedAndPaged() throws Exception {
    JsonNode hook =
        f.ok(
                "POST",
                "/api/v2/webhooks",
                "{\"name\":\"hook\",\"service\":\"generic\",\"url\":\"https://hooks.example/a\"}")
            .get("data");
    String hookId = hook.get("id").asText();
    assertTrue(ids(f.cloud("GET", f.clickstack("webhooks"), null)).contains(hookId));
    JsonNode hooks = f.ok("GET", "/api/v2/webhooks", null);
    assertEquals(List.of(hookId), ids(hooks.get("data")));
    assertEquals(1, hooks.get("meta").get("total").asInt());

    String search =
        f.cloud(
                "POST",
                f.clickstack("saved-searches"),
                "{\"name\":\"Errors\",\"sourceId\":\""
                    + source
                    + "\",\"where\":\"SeverityText:error\"}")
            .get("id")
            .asText();
    JsonNode saved = f.ok("GET", "/api/v2/saved-searches/" + search, null).get("data");
    assertEquals("SeverityText:error", saved.get("where").asText());
    assertTrue(saved.hasNonNull("createdAt") && saved.hasNonNull("updatedAt"), saved.toString());
    String second =
        f.ok(
                "POST",
                "/api/v2/saved-searches",
                "{\"name\":\"Warnings\",\"sourceId\":\"" + source + "\"}")
            .get("data")
            .get("id")
            .asText();
    assertTrue(ids(f.cloud("GET", f.clickstack("saved-searches"), null)).contains(second));
    JsonNode page = f.ok("GET", "/api/v2/saved-searches?limit=1&offset=1", null);
    assertEquals(List.of(second), ids(page.get("data")));
    assertEquals(
        "{\"total\":2,\"limit\":1,\"offset\":1}", page.get("meta").toString(), page.toString());
    String e = f.fails(400, "GET", "/api/v2/saved-searches?limit=0", null);
    assertEquals("BAD_REQUEST: limit: must be an integer from 1 to 1000, got '0'", e);

    String alert =
        "{\"name\":\"errors\",\"source\":\"saved_search\",\"savedSearchId\":\""
            + search
            + "\",\"threshold\":10,\"thresholdType\":\"above\",\"interval\":\"5m\","
            + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
            + hookId
            + "\"}}";
    JsonNode a = f.ok("POST", "/api/v2/alerts", alert).get("data");
    String alertId = a.get("id").asText();
    assertEquals(hookId, a.get("channel").get("webhookId").asText());
    assertEquals(hookId, a.get("channels").get(0).get("webhookId").asText());
    JsonNode cloudAlert = f.cloud("GET", f.clickstack("alerts") + "/" + alertId, null);
    assertEquals(10, cloudAlert.get("threshold").asInt());
    assertEquals(search, cloudAlert.get("savedSearchId").asText());
    JsonNode alerts = f.ok("GET", "/api/v2/alerts", null);
    assertEquals(List.of(alertId), ids(alerts.get("data")));
    assertEquals(1, alerts.get("meta").get("total").asInt());
    e = f.fails(400, "POST", "/api/v2/alerts", alert.replace(hookId, "0123456789abcdef01234567"));
    assertTrue(e.contains("0123456789abcdef01234567"), e);
    f.ok("DELETE", "/api/v2/alerts/" + alertId, null);
    assertTrue(f.cloud("GET", f.clickstack("alerts"), null).isEmpty());
    f.fails(404, "GET", "/api/v2/alerts/" + alertId, null);
  }

  @Test
  void connectionsKeepTheirPasswordsToThemselves() throws Exception {
    JsonNode list = f.ok("GET", "/api/v2/connections", null).get("data");
    assertEquals("default", list.get(0).get("id").asText());
    JsonNode c =
        f.ok(
                "POST",
                "/api/v2/connections",
                "{\"name\":\"Prod\",\"host\":\"https://clickhouse.example.com:8443\","
                    + "\"username\":\"reader\",\"password\":\"s3cret-pass\","
                    + "\"hyperdxSettingPrefix\":\"hyperdx_\"}")
            .get("data");
    String id = c.get("id").asText();
    assertFalse(c.has("password"), c.toString());
    assertEquals("hyperdx_", c.get("hyperdxSettingPrefix").asText());
    JsonNode got = f.ok("GET", "/api/v2/connections/" + id, null).get("data");
    assertEquals("https://clickhouse.example.com:8443", got.get("host").asText());
    assertFalse(got.toString().contains("s3cret-pass"), got.toString());
    assertFalse(f.ok("GET", "/api/v2/connections", null).toString().contains("s3cret-pass"));
    JsonNode replaced =
        f.ok(
                "PUT",
                "/api/v2/connections/" + id,
                "{\"name\":\"Prod 2\",\"host\":\"https://ch.example.com\",\"username\":\"reader\"}")
            .get("data");
    assertEquals("Prod 2", replaced.get("name").asText());
    assertEquals("hyperdx_", replaced.get("hyperdxSettingPrefix").asText());
    assertEquals(c.get("createdAt"), replaced.get("createdAt"));

    String e =
        f.fails(
            400,
            "POST",
            "/api/v2/connections",
            "{\"name\":\"x\",\"host\":\"clickhouse:9000\",\"username\":\"u\"}");
    assertTrue(e.contains("host: must be the http or https URL of a ClickHouse server"), e);
    e =
        f.fails(
            400,
            "POST",
            "/api/v2/connections",
            "{\"name\":\"x\",\"host\":\"https://p.example\",\"username\":\"u\",\"isPrometheusEndpoint\":true}");
    assertTrue(e.contains("isPrometheusEndpoint: Prometheus connections are not supported"), e);
    e =
        f.fails(
            409,
            "PUT",
            "/api/v2/connections/default",
            "{\"name\":\"x\",\"host\":\"https://ch.example.com\",\"username\":\"u\"}");
    assertTrue(e.contains("cannot be changed or deleted"), e);
    // A source on it reads the table's columns there: a server that cannot be reached is a 400
    // naming the connection and the cause, never the password (pointed at a closed loopback port:
    // tests contact no other host).
    int closed;
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    f.ok(
        "PUT",
        "/api/v2/connections/" + id,
        "{\"name\":\"Prod 2\",\"host\":\"http://127.0.0.1:"
            + closed
            + "/\",\"username\":\"reader\",\"queryTimeoutSeconds\":2}");
    e =
        f.fails(
            400,
            "POST",
            "/api/v2/sources",
            "{\"name\":\"ext\",\"kind\":\"log\",\"connection\":\""
                + id
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"ext\"},"
                + "\"timestampValueExpression\":\"Timestamp\",\"defaultTableSelectExpression\":\"Body\"}");
    assertTrue(e.contains("connection 'Prod 2'") && e.contains("cannot connect"), e);
    assertFalse(e.contains("s3cret-pass"), e);
    f.ok("DELETE", "/api/v2/connections/" + id, null);
    f.fails(404, "GET", "/api/v2/connections/" + id, null);
  }

  @Test
  void theTeamIsTheOrganizationAndItsKeys() throws Exception {
    JsonNode team = f.ok("GET", "/api/v2/team", null).get("data");
    assertEquals(dev.chartwell.server.TestServers.ORG, team.get("id").asText());
    JsonNode members = f.ok("GET", "/api/v2/team/members", null).get("data");
    assertTrue(members.size() >= 1, members.toString());
    assertTrue(members.get(0).has("roles"), members.toString());
    assertFalse(members.toString().contains("secret"), members.toString());
    assertEquals("[]", f.ok("GET", "/api/v2/team/invitations", null).get("data").toString());
    String e = f.fails(404, "POST", "/api/v2/team/invitation", "{\"email\":\"a@example.com\"}");
    assertTrue(e.contains("Chartwell has no invitations"), e);
    e = f.fails(403, "DELETE", "/api/v2/team/member/" + members.get(0).get("id").asText(), null);
    assertTrue(e.contains("a service token cannot remove members"), e);
  }
}
