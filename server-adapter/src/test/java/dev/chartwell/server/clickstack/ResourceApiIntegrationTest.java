package dev.chartwell.server.clickstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.SharedServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Dashboards, alerts and webhooks over real HTTP: their rules, references and cascades. */
class ResourceApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = TestServers.ORG;
  static final String SERVICES = "/v1/organizations/" + ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String a;
  String b;
  String sourceA;
  String sourceB;

  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
  }

  /**
   * The dashboard-rule cases share one server, set up as each other test's own: every dashboard
   * they send is refused, so the services and sources stay as they were.
   */
  @RegisterExtension
  static final SharedServer<ResourceApiIntegrationTest> SHARED =
      new SharedServer<>(
          ResourceApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.setUp();
          },
          ResourceApiIntegrationTest::stop);

  /** Starts this test's own server with services A and B, each with a log source. */
  void setUp() throws Exception {
    start();
    a =
        ok(send("POST", SERVICES, "{\"name\":\"A\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"))
            .get("service")
            .get("id")
            .textValue();
    b =
        ok(send("POST", SERVICES, "{\"name\":\"B\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"))
            .get("service")
            .get("id")
            .textValue();
    sourceA =
        ok(send("POST", path(a, "sources"), "{\"name\":\"logs\",\"kind\":\"log\"}"))
            .get("id")
            .textValue();
    sourceB =
        ok(send("POST", path(b, "sources"), "{\"name\":\"logs\",\"kind\":\"log\"}"))
            .get("id")
            .textValue();
  }

  /** Points this test at the class's shared server and what was set up in it; it starts none. */
  void useShared() throws Exception {
    ResourceApiIntegrationTest shared = SHARED.get();
    http = shared.http;
    a = shared.a;
    b = shared.b;
    sourceA = shared.sourceA;
    sourceB = shared.sourceB;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  String path(String service, String resource) {
    return SERVICES + "/" + service + "/clickstack/" + resource;
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  String tile(String name, String source, String extraConfig) {
    return "{\"name\":\""
        + name
        + "\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,\"config\":{\"displayType\":\"line\",\"sourceId\":\""
        + source
        + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}]"
        + extraConfig
        + "}}";
  }

  String dashboard(String... tiles) {
    return "{\"name\":\"Ops\",\"tags\":[\"prod\"],\"tiles\":[" + String.join(",", tiles) + "]}";
  }

  String webhook() {
    return "{\"name\":\"hook\",\"service\":\"generic\",\"url\":\"https://hooks.example/alert\",\"headers\":{\"X-Token\":\"t\"},\"body\":\"{}\"}";
  }

  String alert(String dashboardId, String tileId, String webhookId, String extra) {
    return "{\"dashboardId\":\""
        + dashboardId
        + "\",\"tileId\":\""
        + tileId
        + "\",\"threshold\":5,\"interval\":\"5m\",\"source\":\"tile\","
        + "\"thresholdType\":\"above\",\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
        + webhookId
        + "\"},\"name\":\"errors\",\"message\":\"too many\""
        + extra
        + "}";
  }

  @Test
  void dashboardsCreateGetListReplaceKeepingTileIdsDelete() throws Exception {
    setUp();
    JsonNode d =
        ok(
            send(
                "POST",
                path(a, "dashboards"),
                dashboard(
                    tile("one", sourceA, ""),
                    tile("two", sourceA, ",\"groupBy\":\"ServiceName\""))));
    String id = d.get("id").textValue();
    assertTrue(id.matches("[0-9a-f]{24}"));
    String t1 = d.get("tiles").get(0).get("id").textValue();
    String t2 = d.get("tiles").get(1).get("id").textValue();
    assertTrue(t1.matches("[0-9a-f]{24}") && !t1.equals(t2));
    assertEquals(d, ok(send("GET", path(a, "dashboards") + "/" + id, null)));
    assertEquals(1, ok(send("GET", path(a, "dashboards"), null)).size());

    String keep =
        tile("one again", sourceA, "").replace("{\"name\"", "{\"id\":\"" + t1 + "\",\"name\"");
    String foreign =
        tile("new", sourceA, "")
            .replace("{\"name\"", "{\"id\":\"ffffffffffffffffffffffff\",\"name\"");
    JsonNode replaced = ok(send("PUT", path(a, "dashboards") + "/" + id, dashboard(keep, foreign)));
    assertEquals(t1, replaced.get("tiles").get(0).get("id").textValue(), "matching tile id kept");
    assertNotEquals(
        "ffffffffffffffffffffffff",
        replaced.get("tiles").get(1).get("id").textValue(),
        "unknown id replaced");
    assertEquals("one again", replaced.get("tiles").get(0).get("name").textValue());
    assertEquals(
        false, replaced.has("createdAt") || replaced.has("updatedAt"), "not in the schema");

    // DELETE answers {status, requestId}, no result (the schema has none).
    assertEquals(null, ok(send("DELETE", path(a, "dashboards") + "/" + id, null)));
    assertEquals(404, send("GET", path(a, "dashboards") + "/" + id, null).statusCode());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "x\":0 | x\":24 | tiles[0].x: must be an integer from 0 to 23",
        "y\":0 | y\":-1 | tiles[0].y: must be an integer of at least 0",
        "w\":12 | w\":25 | tiles[0].w: must be an integer from 1 to 24",
        "w\":12 | w\":0 | tiles[0].w: must be an integer from 1 to 24",
        "h\":4 | h\":0 | tiles[0].h: must be an integer of at least 1",
        "\"aggFn\":\"count\" | \"aggFn\":\"median\" | tiles[0].config.select[0].aggFn: must be one of avg, count, count_distinct, last_value, max, min, quantile, sum, any, none",
        "\"where\":\"SeverityText:error\" | \"where\":\"a AND\" | tiles[0].config.select[0].where: line 1, column 6: unexpected end of input",
        "\"where\":\"SeverityText:error\" | \"where\":\"x = 1\",\"whereLanguage\":\"kql\" | tiles[0].config.select[0].whereLanguage: must be one of sql, lucene",
        "\"where\":\"SeverityText:error\" | \"where\":\"x\",\"level\":2 | tiles[0].config.select[0].level: must be one of 0.5, 0.9, 0.95, 0.99",
        "\"displayType\":\"line\" | \"displayType\":\"gauge\" | tiles[0].config.displayType: must be one of line, stacked_bar, table, number, pie, bar, heatmap, search, event_patterns, markdown",
        "[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}] | [] | tiles[0].config.select: must hold 1 to 20 items, got 0",
        "\"name\":\"one\" | \"name\":\"\" | tiles[0].name: must not be blank",
      })
  void dashboardRulesAre400NamingThePath(String from, String to, String message) throws Exception {
    useShared();
    String body = dashboard(tile("one", sourceA, "")).replace(from, to);
    assertEquals("BAD_REQUEST: " + message, error(send("POST", path(a, "dashboards"), body), 400));
  }

  @Test
  void moreDashboardRules() throws Exception {
    setUp();
    assertEquals(
        "BAD_REQUEST: tiles[0].config.sourceId: source "
            + sourceB
            + " does not exist in this service",
        error(send("POST", path(a, "dashboards"), dashboard(tile("t", sourceB, ""))), 400));
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 501; i++) {
      many.append(i == 0 ? "" : ",").append(tile("t" + i, sourceA, ""));
    }
    assertEquals(
        "BAD_REQUEST: tiles: at most 500 items, got 501",
        error(send("POST", path(a, "dashboards"), dashboard(many.toString())), 400));
    StringBuilder selects = new StringBuilder();
    for (int i = 0; i < 21; i++) {
      selects.append(i == 0 ? "" : ",").append("{\"aggFn\":\"count\"}");
    }
    String wide =
        dashboard(tile("t", sourceA, ""))
            .replace(
                "[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}]", "[" + selects + "]");
    assertEquals(
        "BAD_REQUEST: tiles[0].config.select: must hold 1 to 20 items, got 21",
        error(send("POST", path(a, "dashboards"), wide), 400));
    assertEquals(
        "BAD_REQUEST: name: is required; tiles: is required",
        error(send("POST", path(a, "dashboards"), "{}"), 400));
    ok(send("POST", path(a, "dashboards"), dashboard(many.substring(0, many.lastIndexOf(",{")))));
  }

  @Test
  void webhooksAndTheirRules() throws Exception {
    setUp();
    JsonNode w = ok(send("POST", path(a, "webhooks"), webhook()));
    String id = w.get("id").textValue();
    assertEquals(false, w.has("headers"), "headers are write-only");
    assertEquals(1, ok(send("GET", path(a, "webhooks"), null)).size());
    JsonNode replaced =
        ok(
            send(
                "PUT",
                path(a, "webhooks") + "/" + id,
                webhook().replace("\"hook\"", "\"renamed\"")));
    assertEquals("renamed", replaced.get("name").textValue());
    assertEquals(
        "BAD_REQUEST: url: must be an http or https URL, got 'ftp://x'",
        error(
            send(
                "POST",
                path(a, "webhooks"),
                webhook().replace("https://hooks.example/alert", "ftp://x")),
            400));
    assertEquals(
        "BAD_REQUEST: service: must be one of slack, incidentio, generic",
        error(send("POST", path(a, "webhooks"), webhook().replace("generic", "teams")), 400));
    assertEquals(
        "BAD_REQUEST: body: not allowed for slack webhooks",
        error(send("POST", path(a, "webhooks"), webhook().replace("generic", "slack")), 400));
    assertEquals(
        "BAD_REQUEST: headers.X-Token: must be a string",
        error(send("POST", path(a, "webhooks"), webhook().replace("\"t\"}", "1}")), 400));
    assertEquals(
        "BAD_REQUEST: name: is required; service: is required; url: is required",
        error(send("POST", path(a, "webhooks"), "{}"), 400));
    ok(send("DELETE", path(a, "webhooks") + "/" + id, null));
    assertEquals(0, ok(send("GET", path(a, "webhooks"), null)).size());
  }

  @Test
  void alertsTheirRulesAndTheCascades() throws Exception {
    setUp();
    JsonNode d = ok(send("POST", path(a, "dashboards"), dashboard(tile("t", sourceA, ""))));
    String dash = d.get("id").textValue();
    String tileId = d.get("tiles").get(0).get("id").textValue();
    String hook = ok(send("POST", path(a, "webhooks"), webhook())).get("id").textValue();
    JsonNode al = ok(send("POST", path(a, "alerts"), alert(dash, tileId, hook, "")));
    String alertId = al.get("id").textValue();
    assertEquals("OK", al.get("state").textValue());
    assertTrue(al.has("createdAt") && al.has("updatedAt"));
    assertEquals(al, ok(send("GET", path(a, "alerts") + "/" + alertId, null)));
    JsonNode between =
        ok(
            send(
                "PUT",
                path(a, "alerts") + "/" + alertId,
                alert(dash, tileId, hook, ",\"thresholdMax\":9")
                    .replace("\"above\"", "\"between\"")));
    assertEquals(9, between.get("thresholdMax").intValue());

    assertEquals(
        "BAD_REQUEST: dashboardId: dashboard nope does not exist in this service",
        error(send("POST", path(a, "alerts"), alert("nope", tileId, hook, "")), 400));
    assertEquals(
        "BAD_REQUEST: tileId: tile nope does not exist on dashboard " + dash,
        error(send("POST", path(a, "alerts"), alert(dash, "nope", hook, "")), 400));
    assertEquals(
        "BAD_REQUEST: channel.webhookId: webhook nope does not exist in this service",
        error(send("POST", path(a, "alerts"), alert(dash, tileId, "nope", "")), 400));
    assertEquals(
        "BAD_REQUEST: interval: must be one of 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d",
        error(
            send(
                "POST",
                path(a, "alerts"),
                alert(dash, tileId, hook, "").replace("\"5m\"", "\"2m\"")),
            400));
    assertEquals(
        "BAD_REQUEST: thresholdType: must be one of above, below, above_exclusive, below_or_equal, equal, not_equal, between, not_between",
        error(
            send(
                "POST",
                path(a, "alerts"),
                alert(dash, tileId, hook, "").replace("\"above\"", "\"over\"")),
            400));
    assertEquals(
        "BAD_REQUEST: thresholdMax: is required for not_between",
        error(
            send(
                "POST",
                path(a, "alerts"),
                alert(dash, tileId, hook, "").replace("\"above\"", "\"not_between\"")),
            400));
    assertEquals(
        "BAD_REQUEST: thresholdMax: must be at least threshold",
        error(
            send(
                "POST",
                path(a, "alerts"),
                alert(dash, tileId, hook, ",\"thresholdMax\":1")
                    .replace("\"above\"", "\"between\"")),
            400));
    assertEquals(
        "BAD_REQUEST: channel.type: email: Chartwell sends no email; use a webhook",
        error(
            send(
                "POST",
                path(a, "alerts"),
                alert(dash, tileId, hook, "")
                    .replace("\"type\":\"webhook\"", "\"type\":\"email\"")),
            400));

    // A webhook in use cannot be deleted; a dashboard takes its alerts along.
    assertEquals(
        "CONFLICT: webhook "
            + hook
            + " is used by alert "
            + alertId
            + " ('errors'); delete or change that alert first",
        error(send("DELETE", path(a, "webhooks") + "/" + hook, null), 409));
    ok(send("DELETE", path(a, "dashboards") + "/" + dash, null));
    assertEquals(404, send("GET", path(a, "alerts") + "/" + alertId, null).statusCode());
    ok(send("DELETE", path(a, "webhooks") + "/" + hook, null));
  }

  @Test
  void resourcesAreScopedToTheirServiceAndDurable() throws Exception {
    setUp();
    String dash =
        ok(send("POST", path(a, "dashboards"), dashboard(tile("t", sourceA, ""))))
            .get("id")
            .textValue();
    String hook = ok(send("POST", path(a, "webhooks"), webhook())).get("id").textValue();
    assertEquals(404, send("GET", path(b, "dashboards") + "/" + dash, null).statusCode());
    assertEquals(404, send("PUT", path(b, "webhooks") + "/" + hook, webhook()).statusCode());
    assertEquals(404, send("DELETE", path(b, "dashboards") + "/" + dash, null).statusCode());
    assertEquals(0, ok(send("GET", path(b, "dashboards"), null)).size());

    server.close();
    server = null;
    start();
    assertEquals(dash, ok(send("GET", path(a, "dashboards"), null)).get(0).get("id").textValue());
    assertEquals(hook, ok(send("GET", path(a, "webhooks"), null)).get(0).get("id").textValue());
  }
}
