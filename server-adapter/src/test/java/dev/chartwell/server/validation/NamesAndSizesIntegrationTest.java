package dev.chartwell.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.SharedServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 14 over real HTTP: names with control characters and overlong names and expressions are
 * 400s on create and on update for every named resource, and documents larger than their store
 * holds are 413s.
 */
class NamesAndSizesIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String KEYS = "/v1/organizations/" + TestServers.ORG + "/keys";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String service;
  String source;

  void start(String... flags) throws Exception {
    server = TestServers.start(dataDir, flags);
    http = new HttpTestClient(server.port());
    service =
        ok(send("POST", SERVICES, "{\"name\":\"A\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"))
            .get("service")
            .get("id")
            .textValue();
    source =
        ok(send("POST", path("sources"), "{\"name\":\"logs\",\"kind\":\"log\"}"))
            .get("id")
            .textValue();
  }

  /**
   * The control-character cases share one server, set up as each other test's own. Their refused
   * requests change nothing; what they create (a dashboard, a webhook and an alert in the service,
   * none with a name that must be unique) no other case looks at: none lists or counts them.
   */
  @RegisterExtension
  static final SharedServer<NamesAndSizesIntegrationTest> SHARED =
      new SharedServer<>(
          NamesAndSizesIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          NamesAndSizesIntegrationTest::stop);

  /** Points this test at the class's shared server, service and source; it starts none. */
  void useShared() throws Exception {
    NamesAndSizesIntegrationTest shared = SHARED.get();
    http = shared.http;
    service = shared.service;
    source = shared.source;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  String path(String resource) {
    return SERVICES + "/" + service + "/clickstack/" + resource;
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  static JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  static String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  static String tile(String name, String source, String where) {
    return "{\"name\":\""
        + name
        + "\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,\"config\":{\"displayType\":\"line\",\"sourceId\":\""
        + source
        + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\""
        + where
        + "\"}]}}";
  }

  static String dashboard(String name, List<String> tiles) {
    return "{\"name\":\"" + name + "\",\"tiles\":[" + String.join(",", tiles) + "]}";
  }

  static String webhook(String name, String body) {
    return "{\"name\":\""
        + name
        + "\",\"service\":\"generic\",\"url\":\"https://hooks.example/a\",\"body\":\""
        + body
        + "\"}";
  }

  String alert(String dashboardId, String tileId, String webhookId, String name, String message) {
    return "{\"dashboardId\":\""
        + dashboardId
        + "\",\"tileId\":\""
        + tileId
        + "\",\"threshold\":5,\"interval\":\"5m\",\"thresholdType\":\"above\","
        + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
        + webhookId
        + "\"},\"name\":\""
        + name
        + "\",\"message\":\""
        + message
        + "\"}";
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Ts\\u0000 | timestampValueExpression: must not contain control characters (found U+0000 at position 3)",
        "\\u001b[31mTs | timestampValueExpression: must not contain control characters (found U+001B at position 1)",
      })
  void sourceExpressionsWithControlCharactersAre400(String expression, String problem)
      throws Exception {
    useShared();
    String body =
        "{\"name\":\"x\",\"kind\":\"log\",\"timestampValueExpression\":\"" + expression + "\"}";
    assertEquals("BAD_REQUEST: " + problem, error(send("POST", path("sources"), body), 400));
    assertEquals(
        "BAD_REQUEST: " + problem, error(send("PUT", path("sources") + "/" + source, body), 400));
  }

  @Test
  void overlongSourceExpressionsAndColumnNamesAre400() throws Exception {
    start();
    String ts = "T".repeat(300);
    assertEquals(
        "BAD_REQUEST: timestampValueExpression: longer than 256 characters",
        error(
            send(
                "POST",
                path("sources"),
                "{\"name\":\"x\",\"kind\":\"log\",\"timestampValueExpression\":\"" + ts + "\"}"),
            400));
    assertEquals(
        "BAD_REQUEST: serviceNameExpression: longer than 256 characters; "
            + "bodyExpression: must not contain control characters (found U+000A at position 2)",
        error(
            send(
                "PUT",
                path("sources") + "/" + source,
                "{\"name\":\"x\",\"kind\":\"log\",\"serviceNameExpression\":\""
                    + "S".repeat(257)
                    + "\",\"bodyExpression\":\"a\\nb\"}"),
            400));
    ok(
        send(
            "POST",
            path("sources"),
            "{\"name\":\""
                + "n".repeat(256)
                + "\",\"kind\":\"log\",\"timestampValueExpression\":\""
                + "T".repeat(256)
                + "\"}"));
  }

  @Test
  void nineHundredKilobyteAlertAndWebhookNamesAre400NotStored() throws Exception {
    start();
    String huge = "n".repeat(900 * 1024);
    JsonNode d =
        ok(send("POST", path("dashboards"), dashboard("Ops", List.of(tile("t", source, "x")))));
    String tileId = d.get("tiles").get(0).get("id").textValue();
    assertEquals(
        "BAD_REQUEST: name: longer than 256 characters",
        error(send("POST", path("webhooks"), webhook(huge, "{}")), 400));
    assertEquals(0, ok(send("GET", path("webhooks"), null)).size());
    String hook = ok(send("POST", path("webhooks"), webhook("hook", "{}"))).get("id").textValue();
    assertEquals(
        "BAD_REQUEST: name: longer than 256 characters",
        error(send("PUT", path("webhooks") + "/" + hook, webhook(huge, "{}")), 400));
    String alertBody = alert(d.get("id").textValue(), tileId, hook, huge, "m");
    assertEquals(
        "BAD_REQUEST: name: longer than 256 characters",
        error(send("POST", path("alerts"), alertBody), 400));
    assertEquals(0, ok(send("GET", path("alerts"), null)).size());
    String alertId =
        ok(send("POST", path("alerts"), alert(d.get("id").textValue(), tileId, hook, "a", "m")))
            .get("id")
            .textValue();
    assertEquals(
        "BAD_REQUEST: name: longer than 256 characters",
        error(send("PUT", path("alerts") + "/" + alertId, alertBody), 400));
    assertEquals(
        "a", ok(send("GET", path("alerts") + "/" + alertId, null)).get("name").textValue());
    assertEquals("hook", ok(send("GET", path("webhooks"), null)).get(0).get("name").textValue());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "a\\u0000b | U+0000 at position 2",
        "\\u001b[2Jx | U+001B at position 1",
        "ab\\r\\nSet-Cookie: x | U+000D at position 3",
        "tab\\there | U+0009 at position 4",
      })
  void namesWithControlCharactersAre400OnCreateAndUpdateEverywhere(String name, String found)
      throws Exception {
    useShared();
    String problem = "must not contain control characters (found " + found + ")";
    String expected = "BAD_REQUEST: name: " + problem;
    // services: create and PATCH
    assertEquals(
        expected,
        error(
            send(
                "POST",
                SERVICES,
                "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"),
            400));
    assertEquals(
        expected,
        error(send("PATCH", SERVICES + "/" + service, "{\"name\":\"" + name + "\"}"), 400));
    // API keys: create (keys have no update)
    assertEquals(
        expected,
        error(send("POST", KEYS, "{\"name\":\"" + name + "\",\"roles\":[\"developer\"]}"), 400));
    // sources: create and PUT
    String src = "{\"name\":\"" + name + "\",\"kind\":\"log\"}";
    assertEquals(expected, error(send("POST", path("sources"), src), 400));
    assertEquals(expected, error(send("PUT", path("sources") + "/" + source, src), 400));
    // dashboards (and their tiles and tags): create and PUT
    JsonNode d =
        ok(send("POST", path("dashboards"), dashboard("Ops", List.of(tile("t", source, "x")))));
    String dashboardPath = path("dashboards") + "/" + d.get("id").textValue();
    String bad = dashboard(name, List.of(tile(name, source, "x")));
    String both = expected + "; tiles[0].name: " + problem;
    assertEquals(both, error(send("POST", path("dashboards"), bad), 400));
    assertEquals(both, error(send("PUT", dashboardPath, bad), 400));
    assertEquals(
        "BAD_REQUEST: tags[1]: " + problem,
        error(
            send(
                "PUT",
                dashboardPath,
                "{\"name\":\"Ops\",\"tags\":[\"ok\",\""
                    + name
                    + "\"],\"tiles\":["
                    + tile("t", source, "x")
                    + "]}"),
            400));
    // webhooks: create and PUT
    assertEquals(expected, error(send("POST", path("webhooks"), webhook(name, "{}")), 400));
    String hook = ok(send("POST", path("webhooks"), webhook("hook", "{}"))).get("id").textValue();
    assertEquals(
        expected, error(send("PUT", path("webhooks") + "/" + hook, webhook(name, "{}")), 400));
    // alerts: create and PUT
    String tileId = d.get("tiles").get(0).get("id").textValue();
    String dashboardId = d.get("id").textValue();
    assertEquals(
        expected,
        error(send("POST", path("alerts"), alert(dashboardId, tileId, hook, name, "m")), 400));
    String alertId =
        ok(send("POST", path("alerts"), alert(dashboardId, tileId, hook, "a", "m")))
            .get("id")
            .textValue();
    assertEquals(
        expected,
        error(
            send(
                "PUT", path("alerts") + "/" + alertId, alert(dashboardId, tileId, hook, name, "m")),
            400));
  }

  @Test
  void alertsAndWebhooksLargerThanTheirStoreAre413() throws Exception {
    start();
    JsonNode d =
        ok(send("POST", path("dashboards"), dashboard("Ops", List.of(tile("t", source, "x")))));
    String tileId = d.get("tiles").get(0).get("id").textValue();
    String hook = ok(send("POST", path("webhooks"), webhook("hook", "{}"))).get("id").textValue();
    String big = "m".repeat(70 * 1024);
    String e = error(send("POST", path("webhooks"), webhook("w", big)), 413);
    assertTrue(e.startsWith("PAYLOAD_TOO_LARGE: the webhook is larger than 65536 bytes"), e);
    e = error(send("PUT", path("webhooks") + "/" + hook, webhook("w", big)), 413);
    assertTrue(e.startsWith("PAYLOAD_TOO_LARGE: the webhook is larger than 65536 bytes"), e);
    String alert = alert(d.get("id").textValue(), tileId, hook, "a", big);
    e = error(send("POST", path("alerts"), alert), 413);
    assertTrue(e.startsWith("PAYLOAD_TOO_LARGE: the alert is larger than 65536 bytes"), e);
    assertEquals(0, ok(send("GET", path("alerts"), null)).size());
    assertEquals("hook", ok(send("GET", path("webhooks"), null)).get(0).get("name").textValue());
  }

  @Test
  void fiveHundredFullTilesFitAndALargerDashboardIs413() throws Exception {
    start("--max-request-bytes", "8m");
    String where = "SeverityText:" + "e".repeat(900);
    List<String> tiles = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      tiles.add(tile("n".repeat(250) + i, source, where));
    }
    JsonNode d = ok(send("POST", path("dashboards"), dashboard("Big", tiles)));
    assertEquals(500, d.get("tiles").size());
    String longWhere = "SeverityText:" + "e".repeat(9000);
    List<String> huge = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      huge.add(tile("t" + i, source, longWhere));
    }
    String e =
        error(
            send("PUT", path("dashboards") + "/" + d.get("id").textValue(), dashboard("Big", huge)),
            413);
    assertTrue(e.startsWith("PAYLOAD_TOO_LARGE: the dashboard is larger than 4194304 bytes"), e);
    assertEquals(
        500,
        ok(send("GET", path("dashboards") + "/" + d.get("id").textValue(), null))
            .get("tiles")
            .size());
  }
}
