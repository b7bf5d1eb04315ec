package dev.chartwell.server.clickstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/**
 * Saved searches and roles (durable, scoped to the service, validated), alerts on saved searches
 * with their scheduling fields, and the write-only headers of webhooks.
 */
class SearchesRolesAlertsIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String svc;
  String other;
  String source;

  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
  }

  /**
   * The cases of bad saved searches share one server, set up as each other test's own: every saved
   * search they send is refused, so the services stay as they were.
   */
  @RegisterExtension
  static final SharedServer<SearchesRolesAlertsIntegrationTest> SHARED =
      new SharedServer<>(
          SearchesRolesAlertsIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.setUp();
          },
          SearchesRolesAlertsIntegrationTest::stop);

  /** Starts this test's own server with services A and B and a log source of A. */
  void setUp() throws Exception {
    start();
    svc = service("A");
    other = service("B");
    source =
        ok(send("POST", path(svc, "sources"), "{\"name\":\"logs\",\"kind\":\"log\"}"))
            .get("id")
            .textValue();
  }

  /** Points this test at the class's shared server and what was set up in it; it starts none. */
  void useShared() throws Exception {
    SearchesRolesAlertsIntegrationTest shared = SHARED.get();
    http = shared.http;
    svc = shared.svc;
    other = shared.other;
    source = shared.source;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  String service(String name) throws Exception {
    return ok(send(
            "POST",
            SERVICES,
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"))
        .get("service")
        .get("id")
        .textValue();
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

  @Test
  void savedSearchesAreWholeDurableAndScoped() throws Exception {
    setUp();
    JsonNode s =
        ok(
            send(
                "POST",
                path(svc, "saved-searches"),
                "{\"name\":\"Errors\",\"sourceId\":\""
                    + source
                    + "\",\"where\":\"SeverityText:error\","
                    + "\"select\":\"Timestamp, Body\",\"orderBy\":\"Timestamp DESC\",\"tags\":[\"prod\"],"
                    + "\"filters\":[{\"type\":\"sql\",\"condition\":\"ServiceName IN ('api')\"}]}"));
    String id = s.get("id").textValue();
    assertEquals("lucene", s.get("whereLanguage").textValue(), "the default");
    assertFalse(s.has("createdAt"), "not in the schema");
    JsonNode replaced =
        ok(
            send(
                "PUT",
                path(svc, "saved-searches") + "/" + id,
                "{\"name\":\"Errors 2\",\"sourceId\":\"" + source + "\"}"));
    assertEquals(
        "{\"name\":\"Errors 2\",\"sourceId\":\""
            + source
            + "\",\"select\":\"\",\"where\":\"\","
            + "\"orderBy\":\"\",\"whereLanguage\":\"lucene\",\"tags\":[],\"filters\":[],\"id\":\""
            + id
            + "\"}",
        replaced.toString(),
        "a replacement is whole: what it leaves out is reset");
    assertEquals(404, send("GET", path(other, "saved-searches") + "/" + id, null).statusCode());
    server.close();
    start();
    assertEquals(replaced, ok(send("GET", path(svc, "saved-searches") + "/" + id, null)));
    assertEquals(1, ok(send("GET", path(svc, "saved-searches"), null)).size());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"sourceId\":\"SRC\"} | name: is required",
        "{\"name\":\"x\"} | sourceId: is required",
        "{\"name\":\"x\",\"sourceId\":\"0123456789abcdef01234567\"} | sourceId: source 0123456789abcdef01234567 does not exist in this service",
        "{\"name\":\"x\",\"sourceId\":\"SRC\",\"where\":\"a AND\"} | where: line 1, column 6: unexpected end of input",
        "{\"name\":\"x\",\"sourceId\":\"SRC\",\"where\":\"a =\",\"whereLanguage\":\"sql\"} | where: line 1, column 4: unexpected end of input",
        "{\"name\":\"x\",\"sourceId\":\"SRC\",\"whereLanguage\":\"kql\"} | whereLanguage: must be one of lucene, sql",
        "{\"name\":\"x\",\"sourceId\":\"SRC\",\"tags\":[\"abcdefghijabcdefghijabcdefghijabc\"]} | tags[0]: longer than 32 characters",
        "{\"name\":\"x\",\"sourceId\":\"SRC\",\"filters\":[{\"condition\":\"a IN (\"}]} | filters[0].condition: line 1, column 7: unexpected end of input",
        "{\"name\":\"x\",\"sourceId\":\"SRC\",\"teamId\":\"t\"} | teamId: unknown field",
      })
  void badSavedSearchesAre400(String body, String message) throws Exception {
    useShared();
    assertEquals(
        "BAD_REQUEST: " + message,
        error(send("POST", path(svc, "saved-searches"), body.replace("SRC", source)), 400));
  }

  @Test
  void rolesIncludeThePredefinedOnesAndCustomOnesAreManaged() throws Exception {
    setUp();
    JsonNode roles = ok(send("GET", path(svc, "roles"), null));
    assertEquals("Admin", roles.get(0).get("name").textValue());
    assertEquals(true, roles.get(0).get("isPredefined").booleanValue());
    assertEquals("Read Only", roles.get(1).get("name").textValue());
    assertEquals(
        roles.get(1), ok(send("GET", path(svc, "roles") + "/" + RoleRules.READ_ONLY_ID, null)));
    JsonNode bot =
        ok(
            send(
                "POST",
                path(svc, "roles"),
                "{\"name\":\"Deploy Bot\",\"description\":\"Terraform\",\"permissions\":"
                    + "[{\"action\":\"manage\",\"subject\":\"Dashboard\"},{\"action\":\"read\",\"subject\":\"Source\",\"inverted\":true,\"conditions\":{\"id\":\"x\"}}]}"));
    String id = bot.get("id").textValue();
    assertEquals(false, bot.get("isPredefined").booleanValue());
    assertTrue(bot.has("createdAt") && bot.has("updatedAt"));
    JsonNode updated =
        ok(
            send(
                "PUT",
                path(svc, "roles") + "/" + id,
                "{\"permissions\":[{\"action\":\"read\",\"subject\":\"all\"}]}"));
    assertEquals("Deploy Bot", updated.get("name").textValue(), "a name left out is kept");
    assertEquals("Terraform", updated.get("description").textValue());
    assertEquals(3, ok(send("GET", path(svc, "roles"), null)).size());
    assertEquals(2, ok(send("GET", path(other, "roles"), null)).size(), "scoped to the service");
    assertEquals(
        "CONFLICT: a role named 'Admin' exists in this service",
        error(send("POST", path(svc, "roles"), "{\"name\":\"admin\",\"permissions\":[]}"), 409));
    assertEquals(
        "CONFLICT: role 000000000000000000000001 is predefined and cannot be changed or deleted",
        error(send("DELETE", path(svc, "roles") + "/000000000000000000000001", null), 409));
    assertEquals(
        409,
        send("PUT", path(svc, "roles") + "/000000000000000000000002", "{\"permissions\":[]}")
            .statusCode());
    assertEquals(
        "BAD_REQUEST: permissions[0].subject: is required; name: is required",
        error(send("POST", path(svc, "roles"), "{\"permissions\":[{\"action\":\"read\"}]}"), 400)
            .replace(
                "name: is required; permissions[0].subject: is required",
                "permissions[0].subject: is required; name: is required"));
    ok(send("DELETE", path(svc, "roles") + "/" + id, null));
    assertEquals(404, send("GET", path(svc, "roles") + "/" + id, null).statusCode());
  }

  @Test
  void alertsOnSavedSearchesWithTheirSchedule() throws Exception {
    setUp();
    String search =
        ok(send(
                "POST",
                path(svc, "saved-searches"),
                "{\"name\":\"Errors\",\"sourceId\":\"" + source + "\"}"))
            .get("id")
            .textValue();
    String hook =
        ok(send(
                "POST",
                path(svc, "webhooks"),
                "{\"name\":\"h\",\"service\":\"generic\",\"url\":\"https://h.example/x\"}"))
            .get("id")
            .textValue();
    String alert =
        "{\"source\":\"saved_search\",\"savedSearchId\":\""
            + search
            + "\",\"groupBy\":\"ServiceName\","
            + "\"threshold\":10,\"thresholdType\":\"above\",\"interval\":\"5m\",\"numConsecutiveWindows\":3,"
            + "\"scheduleOffsetMinutes\":2,\"scheduleStartAt\":\"2026-02-08T10:00:00.000Z\","
            + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
            + hook
            + "\",\"severity\":\"critical\"}}";
    JsonNode a = ok(send("POST", path(svc, "alerts"), alert));
    for (String f :
        new String[] {
          "savedSearchId",
          "groupBy",
          "numConsecutiveWindows",
          "scheduleOffsetMinutes",
          "scheduleStartAt"
        }) {
      assertEquals(MAPPER.readTree(alert).get(f), a.get(f), f);
    }
    assertEquals(
        "BAD_REQUEST: scheduleOffsetMinutes: must be less than the interval (5 minutes)",
        error(
            send(
                "POST",
                path(svc, "alerts"),
                alert.replace("\"scheduleOffsetMinutes\":2", "\"scheduleOffsetMinutes\":5")),
            400));
    assertEquals(
        "BAD_REQUEST: numConsecutiveWindows: must be an integer from 1 to 1000",
        error(
            send(
                "POST",
                path(svc, "alerts"),
                alert.replace("\"numConsecutiveWindows\":3", "\"numConsecutiveWindows\":0")),
            400));
    assertEquals(
        "BAD_REQUEST: scheduleStartAt: must be an ISO-8601 date and time with an offset, such as 2026-02-08T10:00:00Z",
        error(
            send(
                "POST", path(svc, "alerts"), alert.replace("2026-02-08T10:00:00.000Z", "tomorrow")),
            400));
    assertEquals(
        "BAD_REQUEST: savedSearchId: saved search 0123456789abcdef01234567 does not exist in this service; dashboardId: only for alerts with source tile",
        error(
            send(
                "POST",
                path(svc, "alerts"),
                alert
                    .replace(search, "0123456789abcdef01234567")
                    .replace("\"groupBy\"", "\"dashboardId\":\"d\",\"groupBy\"")),
            400));
    // A saved search takes its alerts along.
    ok(send("DELETE", path(svc, "saved-searches") + "/" + search, null));
    assertEquals(
        404, send("GET", path(svc, "alerts") + "/" + a.get("id").textValue(), null).statusCode());
  }

  @Test
  void tileAlertsWatchOnlyLineBarAndNumberTiles() throws Exception {
    setUp();
    JsonNode d =
        ok(
            send(
                "POST",
                path(svc, "dashboards"),
                "{\"name\":\"d\",\"tiles\":[{\"name\":\"note\",\"x\":0,\"y\":0,\"w\":4,\"h\":2,\"config\":{\"displayType\":\"markdown\",\"markdown\":\"hi\"}}]}"));
    String hook =
        ok(send(
                "POST",
                path(svc, "webhooks"),
                "{\"name\":\"h\",\"service\":\"generic\",\"url\":\"https://h.example/x\"}"))
            .get("id")
            .textValue();
    String tile = d.get("tiles").get(0).get("id").textValue();
    assertEquals(
        "BAD_REQUEST: tileId: tile "
            + tile
            + " is a markdown tile; alerts watch line, stacked_bar or number tiles",
        error(
            send(
                "POST",
                path(svc, "alerts"),
                "{\"dashboardId\":\""
                    + d.get("id").textValue()
                    + "\",\"tileId\":\""
                    + tile
                    + "\",\"threshold\":1,\"thresholdType\":\"above\",\"interval\":\"1m\","
                    + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
                    + hook
                    + "\"}}"),
            400));
  }

  @Test
  void webhookHeadersAreWriteOnlyKeptAndClearedAsTheDocumentSays() throws Exception {
    setUp();
    String base = "{\"name\":\"h\",\"service\":\"generic\",\"url\":\"https://h.example/x\"";
    JsonNode w =
        ok(
            send(
                "POST",
                path(svc, "webhooks"),
                base
                    + ",\"headers\":{\"Authorization\":\"secret\"},\"queryParams\":{\"k\":\"v\"}}"));
    String id = w.get("id").textValue();
    assertFalse(w.toString().contains("secret") || w.has("queryParams"), w.toString());
    assertTrue(w.has("createdAt") && w.has("updatedAt"));
    ok(send("PUT", path(svc, "webhooks") + "/" + id, base + ",\"description\":\"d\"}"));
    assertEquals("{\"Authorization\":\"secret\"}", stored(id).get("headers").toString(), "kept");
    ok(send("PUT", path(svc, "webhooks") + "/" + id, base + ",\"headers\":{}}"));
    assertEquals("{}", stored(id).get("headers").toString(), "{} clears");
    assertEquals("{\"k\":\"v\"}", stored(id).get("queryParams").toString());
    ok(
        send(
            "PUT",
            path(svc, "webhooks") + "/" + id,
            base.replace("h.example/x", "elsewhere.example/y") + "}"));
    assertFalse(stored(id).has("queryParams"), "a new destination does not get the old secrets");
  }

  /** The stored webhook, with its write-only fields, read back through the store. */
  JsonNode stored(String id) throws Exception {
    server.close();
    JsonNode w;
    try (dev.chartwell.server.store.JsonStore hooks =
        dev.chartwell.server.store.JsonStore.open(
            dataDir,
            dev.chartwell.server.store.Collection.WEBHOOKS,
            MAPPER,
            dev.chartwell.server.store.Secrets.open(dataDir, java.util.Optional.empty()))) {
      w = hooks.get(id).orElseThrow();
    }
    start();
    return w;
  }
}
