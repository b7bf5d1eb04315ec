package dev.chartwell.server.management;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The API keys resource over real HTTP. */
class KeyApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = TestServers.ORG;
  static final String KEYS = "/v1/organizations/" + ORG + "/keys";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  /** Starts this test's own server. */
  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
  }

  /**
   * The cases of invalid key requests share one server, started as each other test's own: every
   * request they send is refused, so the organization's keys stay as they were.
   */
  @RegisterExtension
  static final SharedServer<KeyApiIntegrationTest> SHARED =
      new SharedServer<>(
          KeyApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          KeyApiIntegrationTest::stop);

  /** Points this test at the class's shared server; it starts none. */
  void useShared() throws Exception {
    http = SHARED.get().http;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  private String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  private JsonNode create(String name, String... roles) throws Exception {
    String body = MAPPER.writeValueAsString(Map.of("name", name, "roles", List.of(roles)));
    return ok(http.send("POST", KEYS, body, "Authorization", ADMIN)).get("result");
  }

  @Test
  void listsKeysWithoutSecrets() throws Exception {
    start();
    JsonNode list = ok(http.send("GET", KEYS, null, "Authorization", ADMIN)).get("result");
    assertEquals(1, list.size());
    JsonNode key = list.get(0);
    assertTrue(isUuid(key.get("id").textValue()), key.toString());
    assertEquals("[\"admin\"]", key.get("roles").toString());
    assertEquals("enabled", key.get("state").textValue());
    assertEquals("DMIN", key.get("keySuffix").textValue());
    assertFalse(list.toString().contains("adminsecret1"));
    assertFalse(list.toString().contains("hash") || list.toString().contains("salt"));
  }

  @Test
  void createdKeyWorksAtOnceAndItsSecretIsShownOnlyOnce() throws Exception {
    start();
    JsonNode created = create("ci", "admin");
    String id = created.get("keyId").textValue();
    String secret = created.get("keySecret").textValue();
    // A generated key's id (its Basic user name) is the UUID its paths name it by.
    assertTrue(isUuid(id), id);
    assertEquals(id, created.get("key").get("id").textValue());
    assertTrue(secret.length() >= 40);
    assertEquals(id.substring(32), created.get("key").get("keySuffix").textValue());
    String auth = HttpTestClient.basic(id, secret);
    JsonNode list = ok(http.send("GET", KEYS, null, "Authorization", auth)).get("result");
    assertEquals(2, list.size());
    assertFalse(list.toString().contains(secret));
  }

  @Test
  void developerKeysAreReadOnly() throws Exception {
    start();
    JsonNode dev = create("reader", "developer");
    String auth =
        HttpTestClient.basic(dev.get("keyId").textValue(), dev.get("keySecret").textValue());
    ok(http.send("GET", KEYS, null, "Authorization", auth));
    ok(http.send("GET", "/v1/organizations/" + ORG, null, "Authorization", auth));
    assertEquals(
        "FORBIDDEN: API key "
            + dev.get("keyId").textValue()
            + " has the developer role, which is read-only",
        error(
            http.send(
                "POST", KEYS, "{\"name\":\"x\",\"roles\":[\"admin\"]}", "Authorization", auth),
            403));
    assertEquals(
        403, http.send("DELETE", KEYS + "/ADMIN", null, "Authorization", auth).statusCode());
  }

  @Test
  void deletedKeyStopsWorkingAtOnce() throws Exception {
    start();
    JsonNode other = create("temp", "admin");
    String id = other.get("keyId").textValue();
    String auth = HttpTestClient.basic(id, other.get("keySecret").textValue());
    ok(http.send("GET", KEYS, null, "Authorization", auth));
    JsonNode deleted = ok(http.send("DELETE", KEYS + "/" + id, null, "Authorization", ADMIN));
    assertEquals(List.of("status", "requestId"), fields(deleted));
    assertEquals(401, http.send("GET", KEYS, null, "Authorization", auth).statusCode());
    assertEquals(
        "NOT_FOUND: API key " + id + " does not exist",
        error(http.send("DELETE", KEYS + "/" + id, null, "Authorization", ADMIN), 404));
  }

  @Test
  void theLastAdminKeyCannotBeDeleted() throws Exception {
    start();
    create("reader", "developer");
    assertEquals(
        "CONFLICT: API key ADMIN is the last admin key of the organization and cannot be deleted",
        error(http.send("DELETE", KEYS + "/ADMIN", null, "Authorization", ADMIN), 409));
    JsonNode second = create("second", "admin");
    String auth =
        HttpTestClient.basic(second.get("keyId").textValue(), second.get("keySecret").textValue());
    assertEquals(
        "CONFLICT: API key ADMIN authenticates this request and cannot delete itself",
        error(http.send("DELETE", KEYS + "/ADMIN", null, "Authorization", ADMIN), 409));
    ok(http.send("DELETE", KEYS + "/ADMIN", null, "Authorization", auth));
    assertEquals(
        409,
        http.send(
                "DELETE", KEYS + "/" + second.get("keyId").textValue(), null, "Authorization", auth)
            .statusCode());
  }

  @Test
  void concurrentDeletesNeverRemoveEveryAdminKey() throws Exception {
    start();
    Map<String, String> secrets = new java.util.LinkedHashMap<>();
    secrets.put("ADMIN", "adminsecret1");
    for (int i = 0; i < 7; i++) {
      JsonNode k = create("k" + i, "admin");
      secrets.put(k.get("keyId").textValue(), k.get("keySecret").textValue());
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> results = new ArrayList<>();
    for (String id : secrets.keySet()) {
      results.add(
          pool.submit(
              () ->
                  http.send("DELETE", KEYS + "/" + id, null, "Authorization", ADMIN).statusCode()));
    }
    int deleted = 0;
    for (Future<Integer> f : results) {
      int status = f.get();
      // 401 once ADMIN itself is gone; 409 for whichever delete would remove the last admin key
      assertTrue(status == 200 || status == 409 || status == 401, "status " + status);
      deleted += status == 200 ? 1 : 0;
    }
    pool.shutdown();
    JsonNode remaining = null;
    for (Map.Entry<String, String> e : secrets.entrySet()) {
      HttpResponse<String> r =
          http.send(
              "GET", KEYS, null, "Authorization", HttpTestClient.basic(e.getKey(), e.getValue()));
      if (r.statusCode() == 200) {
        remaining = MAPPER.readTree(r.body()).get("result");
        break;
      }
    }
    assertTrue(remaining != null, "no admin key works any more");
    assertEquals(secrets.size() - deleted, remaining.size());
    assertTrue(remaining.size() >= 1);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"roles\":[\"admin\"]} | BAD_REQUEST: name: is required",
        "{\"name\":\"\",\"roles\":[\"admin\"]} | BAD_REQUEST: name: must not be blank",
        "{\"name\":5,\"roles\":[\"admin\"]} | BAD_REQUEST: name: must be a string",
        "{\"name\":\"x\"} | BAD_REQUEST: roles: is required (or assignedRoleIds)",
        "{\"name\":\"x\",\"roles\":[]} | BAD_REQUEST: roles: must hold at least one role (in roles or assignedRoleIds)",
        "{\"name\":\"x\",\"roles\":[\"root\"]} | BAD_REQUEST: roles[0]: must be one of admin, developer, query_endpoints",
        "{\"name\":\"x\",\"roles\":\"admin\"} | BAD_REQUEST: roles: must be an array",
        "{\"name\":\"x\",\"roles\":[\"admin\"],\"color\":1} | BAD_REQUEST: color: unknown field",
        "[1] | BAD_REQUEST: request body must be a JSON object",
        "{\"color\":1} | BAD_REQUEST: color: unknown field; name: is required; roles: is required (or assignedRoleIds)",
        "{\"name\":\"x\",\"roles\":[\"query_endpoints\"]} | BAD_REQUEST: roles[0]: query_endpoints: Chartwell has no query endpoints",
        "{\"name\":\"x\",\"assignedRoleIds\":[\"00000000-0000-4000-8000-000000000000\"]} | BAD_REQUEST: assignedRoleIds[0]: no role 00000000-0000-4000-8000-000000000000; the roles are Admin (3c1d2b4e-5f60-4a71-8b92-a3b4c5d6e701) and Developer (3c1d2b4e-5f60-4a71-8b92-a3b4c5d6e702)",
        "{\"name\":\"x\",\"roles\":[\"admin\"],\"state\":\"off\"} | BAD_REQUEST: state: must be one of enabled, disabled",
        "{\"name\":\"x\",\"roles\":[\"admin\"],\"expireAt\":\"tomorrow\"} | BAD_REQUEST: expireAt: must be an ISO-8601 date and time with an offset, such as 2026-02-08T10:00:00Z",
        "{\"name\":\"x\",\"roles\":[\"admin\"],\"expireAt\":\"2001-01-01T00:00:00Z\"} | BAD_REQUEST: expireAt: must be in the future",
        "{\"name\":\"x\",\"roles\":[\"admin\"],\"ipAccessList\":[{\"source\":\"example.com\"}]} | BAD_REQUEST: ipAccessList[0].source: must be an IPv4 or IPv6 address or CIDR, got 'example.com'",
        "{\"name\":\"x\",\"roles\":[\"admin\"],\"hashData\":{\"keyIdHash\":\"a\"}} | BAD_REQUEST: hashData: not supported: omit it to get a generated key id and secret",
      })
  void invalidKeyRequestsAre400NamingTheField(String body, String expected) throws Exception {
    useShared();
    assertEquals(expected, error(http.send("POST", KEYS, body, "Authorization", ADMIN), 400));
  }

  @Test
  void malformedJsonIs400() throws Exception {
    start();
    String e = error(http.send("POST", KEYS, "{\"name\":", "Authorization", ADMIN), 400);
    assertTrue(e.startsWith("BAD_REQUEST: malformed JSON at line 1"), e);
  }

  @Test
  void anotherOrganizationsKeysAreForbidden() throws Exception {
    start();
    String other = "/v1/organizations/00000000-0000-4000-8000-000000000000/keys";
    assertEquals(403, http.send("GET", other, null, "Authorization", ADMIN).statusCode());
    assertEquals(
        403,
        http.send("POST", other, "{\"name\":\"x\",\"roles\":[\"admin\"]}", "Authorization", ADMIN)
            .statusCode());
  }

  @Test
  void keysSurviveARestart() throws Exception {
    start();
    JsonNode created = create("durable", "developer");
    server.close();
    start();
    String auth =
        HttpTestClient.basic(
            created.get("keyId").textValue(), created.get("keySecret").textValue());
    assertEquals(2, ok(http.send("GET", KEYS, null, "Authorization", auth)).get("result").size());
  }

  static boolean isUuid(String s) {
    return s.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  }

  private static List<String> fields(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
