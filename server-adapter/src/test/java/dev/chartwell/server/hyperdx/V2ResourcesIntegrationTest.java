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
  void theTeamIsTheOrganizationAndAServiceTokenSeesOnlyItselfAmongItsMembers() throws Exception {
    JsonNode team = f.ok("GET", "/api/v2/team", null).get("data");
    assertEquals(dev.chartwell.server.TestServers.ORG, team.get("id").asText());
    JsonNode members = f.ok("GET", "/api/v2/team/members", null).get("data");
    assertEquals(
        "[{\"id\":\""
            + f.serviceId
            + "\",\"name\":\"V2\",\"kind\":\"service\",\"readOnly\":false,"
            + "\"isCurrentUser\":true}]",
        members.toString());
    // No API key of the organization is named: not the bootstrap admin key, not a new one.
    JsonNode key =
        f.cloud(
            "POST",
            "/v1/organizations/" + dev.chartwell.server.TestServers.ORG + "/keys",
            "{\"name\":\"another\",\"roles\":[\"developer\"]}");
    String answer = f.v2("GET", "/api/v2/team/members", null).body();
    for (JsonNode k :
        f.cloud(
            "GET", "/v1/organizations/" + dev.chartwell.server.TestServers.ORG + "/keys", null)) {
      assertFalse(answer.contains(k.get("id").asText()), k.get("name") + " in " + answer);
    }
    assertFalse(answer.contains(key.get("keyId").asText()), answer);
    assertFalse(answer.contains(key.get("keySecret").asText()), answer);

    // Another service's token (read-only, on the same warehouse) sees itself, not this one.
    JsonNode reader =
        f.cloud(
            "POST",
            V2Fixture.SERVICES,
            "{\"name\":\"Reader\",\"provider\":\"aws\",\"region\":\"us-east-1\","
                + "\"isReadonly\":true,\"dataWarehouseId\":\""
                + f.cloud("GET", V2Fixture.SERVICES + "/" + f.serviceId, null)
                    .get("dataWarehouseId")
                    .textValue()
                + "\"}");
    HttpResponse<String> theirs =
        f.http.send(
            "GET",
            "/api/v2/team/members",
            null,
            "Authorization",
            "Bearer " + reader.get("password").asText());
    assertEquals(200, theirs.statusCode(), theirs.body());
    assertEquals(
        "[{\"id\":\""
            + reader.get("service").get("id").asText()
            + "\",\"name\":\"Reader\",\"kind\":\"service\",\"readOnly\":true,"
            + "\"isCurrentUser\":true}]",
        V2Fixture.MAPPER.readTree(theirs.body()).get("data").toString());
    // An API key is not a team member's credential here.
    HttpResponse<String> asKey =
        f.http.send("GET", "/api/v2/team/members", null, "Authorization", V2Fixture.ADMIN);
    assertEquals(401, asKey.statusCode(), asKey.body());

    assertEquals("[]", f.ok("GET", "/api/v2/team/invitations", null).get("data").toString());
    String e = f.fails(404, "POST", "/api/v2/team/invitation", "{\"email\":\"a@example.com\"}");
    assertTrue(e.contains("Chartwell has no invitations"), e);
    e = f.fails(403, "DELETE", "/api/v2/team/member/" + members.get(0).get("id").asText(), null);
    assertTrue(e.contains("a service token cannot remove members"), e);
  }

  /**
   * A webhook's URL (a Slack incoming-webhook URL is itself a secret) is shown only to admin keys:
   * service tokens and developer keys get webhooks without it; a replacement without it keeps it.
   */
  @Test
  void webhookUrlsAreShownOnlyToAdminKeys() throws Exception {
    String url = "https://hooks.slack.example/services/T000/B000/s3cretpath";
    JsonNode created =
        f.ok(
                "POST",
                "/api/v2/webhooks",
                "{\"name\":\"secret-hook\",\"service\":\"slack\",\"url\":\"" + url + "\"}")
            .get("data");
    String id = created.get("id").asText();
    assertFalse(created.has("url"), "the token's create answer: " + created);
    assertEquals("secret-hook", created.get("name").asText());
    assertTrue(created.hasNonNull("createdAt") && created.hasNonNull("updatedAt"));
    String listed = f.ok("GET", "/api/v2/webhooks", null).toString();
    assertTrue(listed.contains(id) && !listed.contains("s3cretpath"), listed);
    JsonNode replaced =
        f.ok(
                "PUT",
                "/api/v2/webhooks/" + id,
                "{\"name\":\"renamed\",\"service\":\"slack\",\"description\":\"d\"}")
            .get("data");
    assertFalse(replaced.toString().contains("s3cretpath"), replaced.toString());
    assertEquals("renamed", replaced.get("name").asText());

    JsonNode forAdmin = null;
    for (JsonNode w : f.cloud("GET", f.clickstack("webhooks"), null)) {
      if (w.get("id").asText().equals(id)) {
        forAdmin = w;
      }
    }
    assertEquals(url, forAdmin.get("url").asText(), "an admin key sees it, kept by the PUT");

    JsonNode key =
        f.cloud(
            "POST",
            "/v1/organizations/" + dev.chartwell.server.TestServers.ORG + "/keys",
            "{\"name\":\"reader\",\"roles\":[\"developer\"]}");
    HttpResponse<String> asDeveloper =
        f.http.send(
            "GET",
            f.clickstack("webhooks"),
            null,
            "Authorization",
            dev.chartwell.server.http.HttpTestClient.basic(
                key.get("keyId").asText(), key.get("keySecret").asText()));
    assertEquals(200, asDeveloper.statusCode(), asDeveloper.body());
    assertTrue(asDeveloper.body().contains(id), asDeveloper.body());
    assertFalse(asDeveloper.body().contains("s3cretpath"), asDeveloper.body());
    for (JsonNode w : V2Fixture.MAPPER.readTree(asDeveloper.body()).get("result")) {
      assertFalse(w.has("url"), w.toString());
      assertTrue(w.has("name") && w.has("service") && w.has("createdAt"), w.toString());
    }
    f.ok("DELETE", "/api/v2/webhooks/" + id, null);
  }
}
