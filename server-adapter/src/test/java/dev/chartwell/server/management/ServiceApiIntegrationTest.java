package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.HeldTransitions;
import dev.chartwell.server.SharedServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The services resource over real HTTP. */
class ServiceApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = TestServers.ORG;
  static final String SERVICES = "/v1/organizations/" + ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String VALID =
      "{\"name\":\"My Service 1\",\"provider\":\"aws\",\"region\":\"us-east-1\"}";

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  /** Transitions end when {@link #awaitState} lets them, so a test sees every state in between. */
  final HeldTransitions transitions = new HeldTransitions();

  void start(String... extra) throws Exception {
    server = TestServers.start(dataDir, transitions.overrides(), extra);
    http = new HttpTestClient(server.port());
  }

  /**
   * The validation cases share one server, started as each other test's own: a refused request
   * changes nothing, and an accepted one creates a service in a warehouse of its own that no other
   * case looks at (nothing they check depends on the services already there).
   */
  @RegisterExtension
  static final SharedServer<ServiceApiIntegrationTest> SHARED =
      new SharedServer<>(
          ServiceApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          ServiceApiIntegrationTest::stop);

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

  JsonNode result(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  JsonNode create(String body) throws Exception {
    return result(send("POST", SERVICES, body));
  }

  String awaitState(String id, String... wanted) throws Exception {
    Set<String> states = Set.of(wanted);
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline) {
      transitions.releaseAll();
      HttpResponse<String> r = send("GET", SERVICES + "/" + id, null);
      String state = r.statusCode() == 404 ? "gone" : result(r).get("state").textValue();
      if (states.contains(state)) {
        return state;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("service " + id + " never reached " + states);
  }

  static String with(String field, String json) throws Exception {
    ObjectNode body = (ObjectNode) MAPPER.readTree(VALID);
    body.set(field, MAPPER.readTree(json));
    return body.toString();
  }

  @Test
  void createReturnsTheServiceAndItsPasswordOnce() throws Exception {
    start();
    JsonNode created = create(VALID);
    JsonNode s = created.get("service");
    assertTrue(created.get("password").textValue().length() >= 20);
    assertEquals("My Service 1", s.get("name").textValue());
    assertEquals("provisioning", s.get("state").textValue());
    assertEquals("aws", s.get("provider").textValue());
    assertEquals("us-east-1", s.get("region").textValue());
    assertTrue(s.get("isPrimary").booleanValue());
    assertFalse(s.get("isReadonly").booleanValue());
    assertEquals(3, s.get("numReplicas").intValue(), "default 3 outside BASIC");
    assertEquals("default", s.get("releaseChannel").textValue());
    assertEquals("https", s.get("endpoints").get(0).get("protocol").textValue());
    assertEquals("default", s.get("endpoints").get(0).get("username").textValue());
    for (String field : List.of("tier", "dataWarehouseId", "createdAt", "ipAccessList")) {
      assertTrue(s.has(field), field);
    }
    // Optional fields without a value are left out: the schema types them, never as null.
    s.fields().forEachRemaining(e -> assertFalse(e.getValue().isNull(), e.getKey()));
    for (String absent : List.of("profile", "complianceType", "encryptionKey", "byocId")) {
      assertFalse(s.has(absent), absent);
    }
    s.fieldNames().forEachRemaining(f -> assertFalse(f.startsWith("_"), f));
    assertFalse(s.toString().contains(created.get("password").textValue()));
    assertEquals("running", awaitState(s.get("id").textValue(), "running"));
    assertEquals(1, result(send("GET", SERVICES, null)).size());
  }

  @Test
  void terraformStyleDeleteFlow() throws Exception {
    start();
    String id = create(VALID).get("service").get("id").textValue();
    awaitState(id, "running");
    assertEquals(
        "CONFLICT: the service must be stopped before it is deleted. Current state: 'running'",
        error(send("DELETE", SERVICES + "/" + id, null), 409));
    assertEquals(
        "stopping",
        result(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"stop\"}"))
            .get("state")
            .textValue());
    awaitState(id, "stopped");
    JsonNode deleted = MAPPER.readTree(send("DELETE", SERVICES + "/" + id, null).body());
    assertEquals(200, deleted.get("status").intValue());
    assertFalse(deleted.has("result"));
    assertEquals("gone", awaitState(id, "gone"));
    assertEquals(
        "NOT_FOUND: service " + id + " does not exist",
        error(send("GET", SERVICES + "/" + id, null), 404));
  }

  @Test
  void bodyRoutesRequireJsonEvenForAnEmptyRequest() throws Exception {
    start();
    String id = create(VALID).get("service").get("id").textValue();
    String state = SERVICES + "/" + id + "/state";
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: a Content-Type header is required: application/json",
        error(http.sendAsIs("PATCH", state, null, "Authorization", ADMIN), 415));
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: Content-Type must be application/json, got 'text/plain'",
        error(
            http.sendAsIs(
                "PATCH",
                state,
                "{\"command\":\"stop\"}",
                "Authorization",
                ADMIN,
                "Content-Type",
                "text/plain"),
            415));
    // The password route takes an optional body: an empty request generates a password.
    assertEquals(
        200,
        http.sendAsIs("PATCH", SERVICES + "/" + id + "/password", null, "Authorization", ADMIN)
            .statusCode());
  }

  @Test
  void stateCommandsMustFitTheCurrentState() throws Exception {
    start();
    String id = create(VALID).get("service").get("id").textValue();
    assertEquals(
        "CONFLICT: cannot stop the service in state 'provisioning'",
        error(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"stop\"}"), 409));
    awaitState(id, "running");
    assertEquals(
        "CONFLICT: cannot start the service in state 'running'",
        error(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"start\"}"), 409));
    assertEquals(
        "BAD_REQUEST: command: must be one of start, stop, awake",
        error(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"reboot\"}"), 400));
    // A Chartwell service never idles: awake leaves a running service running.
    assertEquals(
        "running",
        result(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"awake\"}"))
            .get("state")
            .textValue());
    send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"stop\"}");
    awaitState(id, "stopped");
    assertEquals(
        "CONFLICT: cannot awake the service in state 'stopped'",
        error(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"awake\"}"), 409));
    assertEquals(
        "starting",
        result(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"start\"}"))
            .get("state")
            .textValue());
    awaitState(id, "running");
  }

  @ParameterizedTest(name = "[{index}] {0}={1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "name | \"\" | name: must not be blank",
        "name | \"bad_name!\" | name: must be 1 to 50 letters, digits or spaces",
        "name | \"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijX\" | name: longer than 50 characters",
        "name | 5 | name: must be a string",
        "provider | \"ibm\" | provider: must be one of aws, gcp, azure",
        "region | \"mars-1\" | region: unknown region 'mars-1'",
        "region | \"us-east1\" | region: 'us-east1' is not a region of aws",
        "tier | \"huge\" | tier: must be one of development, production, dedicated_high_mem, dedicated_high_cpu, dedicated_standard, dedicated_standard_n2d_standard_4, dedicated_standard_n2d_standard_8, dedicated_standard_n2d_standard_32, dedicated_standard_n2d_standard_128, dedicated_standard_n2d_standard_32_16SSD, dedicated_standard_n2d_standard_64_24SSD",
        "minReplicaMemoryGb | 4 | minReplicaMemoryGb: must be a multiple of 4 from 8 to 356",
        "minReplicaMemoryGb | 10 | minReplicaMemoryGb: must be a multiple of 4 from 8 to 356",
        "maxReplicaMemoryGb | 360 | maxReplicaMemoryGb: must be a multiple of 4 from 8 to 356",
        "minTotalMemoryGb | 12 | minTotalMemoryGb: must be a multiple of 12 from 24 to 1068",
        "maxTotalMemoryGb | 30 | maxTotalMemoryGb: must be a multiple of 12 from 24 to 1068",
        "numReplicas | 1 | numReplicas: must be 2 to 20 for the first service of a warehouse",
        "numReplicas | 21 | numReplicas: must be 2 to 20 for the first service of a warehouse",
        "numReplicas | \"3\" | numReplicas: must be an integer",
        "idleTimeoutMinutes | 4 | idleTimeoutMinutes: must be at least 5",
        "isReadonly | true | isReadonly: only allowed together with dataWarehouseId",
        "dataWarehouseId | \"nope\" | dataWarehouseId: warehouse nope does not exist in this organization",
        "backupId | \"abc\" | backupId: must be a UUID",
        "backupId | \"00000000-0000-4000-8000-000000000000\" | backupId: backup 00000000-0000-4000-8000-000000000000 does not exist",
        "releaseChannel | \"nightly\" | releaseChannel: must be one of slow, default, fast",
        "byocId | \"b-1\" | byocId: needs both minReplicaMemoryGb and maxReplicaMemoryGb",
        "hasTransparentDataEncryption | true | hasTransparentDataEncryption: only for ENTERPRISE organizations",
        "profile | \"v1-default\" | profile: only for ENTERPRISE organizations",
        "profile | \"bogus\" | profile: must be one of v1-default, v1-highmem-xs, v1-highmem-s, v1-highmem-m, v1-highmem-l, v1-highmem-xl",
        "complianceType | \"sox\" | complianceType: must be one of hipaa, pci",
        "endpoints | [{\"protocol\":\"https\",\"enabled\":true}] | endpoints[0].protocol: must be mysql",
        "endpoints | [{\"protocol\":\"mysql\"}] | endpoints[0].enabled: must be true or false",
        "ipAccessList | [{\"source\":\"1.2.3.999\"}] | ipAccessList[0].source: must be an IPv4 or IPv6 address or CIDR, got '1.2.3.999'",
        "ipAccessList | [{\"source\":\"10.0.0.0/33\"}] | ipAccessList[0].source: must be an IPv4 or IPv6 address or CIDR, got '10.0.0.0/33'",
        "ipAccessList | [{\"description\":\"x\"}] | ipAccessList[0].source: is required (an IP address or CIDR)",
        "colour | \"red\" | colour: unknown field",
      })
  void eachValidationRuleRejectsNamingTheField(String field, String value, String message)
      throws Exception {
    useShared();
    assertEquals("BAD_REQUEST: " + message, error(send("POST", SERVICES, with(field, value)), 400));
  }

  @ParameterizedTest(name = "[{index}] {0}={1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "name | \"Prod 2\"",
        "provider | \"aws\"",
        "tier | \"production\"",
        "tier | \"development\"",
        "minReplicaMemoryGb | 8",
        "maxReplicaMemoryGb | 356",
        "minTotalMemoryGb | 24",
        "maxTotalMemoryGb | 1068",
        "numReplicas | 2",
        "numReplicas | 20",
        "idleTimeoutMinutes | 5",
        "releaseChannel | \"fast\"",
        "complianceType | \"hipaa\"",
        "endpoints | [{\"protocol\":\"mysql\",\"enabled\":true}]",
        "ipAccessList | [{\"source\":\"10.0.0.0/8\",\"description\":\"office\"},{\"source\":\"::1\"},{\"source\":\"2001:db8::/32\"}]",
        "isReadonly | false",
        "tags | [{\"key\":\"team\",\"value\":\"obs\"}]",
      })
  void eachValidationRuleAcceptsAValidValue(String field, String value) throws Exception {
    useShared();
    JsonNode s = create(with(field, value)).get("service");
    if (!field.equals("isReadonly") && !field.equals("endpoints")) {
      assertEquals(MAPPER.readTree(value), s.get(field), field);
    }
    if (field.equals("endpoints")) {
      assertEquals("mysql", s.get("endpoints").get(1).get("protocol").textValue());
    }
  }

  @Test
  void rulesThatDependOnOtherFieldsOrTheOrganization() throws Exception {
    start();
    assertEquals(
        "BAD_REQUEST: minReplicaMemoryGb: must not exceed maxReplicaMemoryGb",
        error(
            send(
                "POST",
                SERVICES,
                with("minReplicaMemoryGb", "16").replace("}", ",\"maxReplicaMemoryGb\":8}")),
            400));
    String azureDev =
        "{\"name\":\"A\",\"provider\":\"azure\",\"region\":\"eastus\",\"tier\":\"development\"}";
    assertEquals(
        "BAD_REQUEST: tier: development is not available on azure",
        error(send("POST", SERVICES, azureDev), 400));
    String devTotal =
        "{\"name\":\"A\",\"provider\":\"aws\",\"region\":\"us-east-1\",\"tier\":\"development\",\"minTotalMemoryGb\":24,\"releaseChannel\":\"fast\"}";
    assertEquals(
        "BAD_REQUEST: minTotalMemoryGb: only for production services; releaseChannel: not available for the development tier",
        error(send("POST", SERVICES, devTotal), 400));
    String byoc =
        with("byocId", "\"b-1\"")
            .replace("}", ",\"minReplicaMemoryGb\":48,\"maxReplicaMemoryGb\":120}");
    assertEquals(
        "BAD_REQUEST: maxReplicaMemoryGb: must be one of 48, 116, 172, 232 with byocId",
        error(send("POST", SERVICES, byoc), 400));
    create(
        with("byocId", "\"b-1\"")
            .replace("}", ",\"minReplicaMemoryGb\":48,\"maxReplicaMemoryGb\":116}"));

    // A second service in the warehouse of the first: not primary, may be read-only, 1 replica.
    JsonNode first = create(VALID).get("service");
    String warehouse = first.get("dataWarehouseId").textValue();
    JsonNode second =
        create(
                with("dataWarehouseId", "\"" + warehouse + "\"")
                    .replace("}", ",\"isReadonly\":true,\"numReplicas\":1}"))
            .get("service");
    assertEquals(warehouse, second.get("dataWarehouseId").textValue());
    assertFalse(second.get("isPrimary").booleanValue());
    assertTrue(second.get("isReadonly").booleanValue());
  }

  @Test
  void basicAndUnpaidOrganizations() throws Exception {
    start("--org-tier", "BASIC", "--org-paid", "false");
    assertEquals(
        "BAD_REQUEST: numReplicas: must be 1 in BASIC organizations",
        error(send("POST", SERVICES, with("numReplicas", "2")), 400));
    assertEquals(
        1, create(VALID).get("service").get("numReplicas").intValue(), "default 1 in BASIC");
    assertEquals(
        "BAD_REQUEST: maxReplicaMemoryGb: at most 120 for organizations without a paid plan",
        error(send("POST", SERVICES, with("maxReplicaMemoryGb", "124")), 400));
    assertEquals(
        "BAD_REQUEST: maxTotalMemoryGb: at most 360 for organizations without a paid plan",
        error(send("POST", SERVICES, with("maxTotalMemoryGb", "372")), 400));
    create(with("maxReplicaMemoryGb", "120"));
  }

  @Test
  void enterpriseOrganizationsMayUseProfilesAndTransparentEncryption() throws Exception {
    start("--org-tier", "ENTERPRISE");
    JsonNode s =
        create(
                with("profile", "\"v1-highmem-s\"")
                    .replace("}", ",\"hasTransparentDataEncryption\":true}"))
            .get("service");
    assertEquals("v1-highmem-s", s.get("profile").textValue());
    assertTrue(s.get("hasTransparentDataEncryption").booleanValue());
  }

  @Test
  void malformedJsonWrongTypesAndUnknownFieldsAre400() throws Exception {
    start();
    assertTrue(
        error(send("POST", SERVICES, "{\"name\":"), 400).startsWith("BAD_REQUEST: malformed JSON"));
    assertEquals(
        "BAD_REQUEST: request body must be a JSON object",
        error(send("POST", SERVICES, "[]"), 400));
    assertEquals(
        "BAD_REQUEST: name: is required; provider: is required; region: is required",
        error(send("POST", SERVICES, "{}"), 400));
    String id = create(VALID).get("service").get("id").textValue();
    assertEquals(
        "BAD_REQUEST: state: unknown field",
        error(send("PATCH", SERVICES + "/" + id, "{\"state\":\"running\"}"), 400));
    assertEquals(
        "BAD_REQUEST: ipAccessList.add[0].source: must be an IPv4 or IPv6 address or CIDR, got 'x'",
        error(
            send("PATCH", SERVICES + "/" + id, "{\"ipAccessList\":{\"add\":[{\"source\":\"x\"}]}}"),
            400));
  }

  @Test
  void patchUpdatesBasicDetailsRemovingBeforeAdding() throws Exception {
    start();
    String id =
        create(with("ipAccessList", "[{\"source\":\"1.1.1.1\"},{\"source\":\"2.2.2.2\"}]"))
            .get("service")
            .get("id")
            .textValue();
    JsonNode s =
        result(
            send(
                "PATCH",
                SERVICES + "/" + id,
                "{\"name\":\"Renamed\",\"releaseChannel\":\"slow\","
                    + "\"ipAccessList\":{\"remove\":[{\"source\":\"1.1.1.1\"}],\"add\":[{\"source\":\"1.1.1.1\",\"description\":\"again\"},{\"source\":\"3.3.3.3\"}]},"
                    + "\"endpoints\":[{\"protocol\":\"mysql\",\"enabled\":true}],"
                    + "\"privateEndpointIds\":{\"add\":[\"pe-1\"]}}"));
    assertEquals("Renamed", s.get("name").textValue());
    assertEquals("slow", s.get("releaseChannel").textValue());
    assertEquals(
        "[{\"source\":\"2.2.2.2\"},{\"source\":\"1.1.1.1\",\"description\":\"again\"},{\"source\":\"3.3.3.3\"}]",
        s.get("ipAccessList").toString());
    assertEquals(2, s.get("endpoints").size());
    assertEquals("[\"pe-1\"]", s.get("privateEndpointIds").toString());
    assertEquals(s, result(send("GET", SERVICES + "/" + id, null)));
  }

  @Test
  void passwordRotation() throws Exception {
    start();
    JsonNode created = create(VALID);
    String id = created.get("service").get("id").textValue();
    String first = created.get("password").textValue();
    String second =
        result(send("PATCH", SERVICES + "/" + id + "/password", "{}")).get("password").textValue();
    assertNotEquals(first, second);
    JsonNode withHash =
        result(
            send(
                "PATCH",
                SERVICES + "/" + id + "/password",
                "{\"newPasswordHash\":\""
                    + java.util.Base64.getEncoder().encodeToString(new byte[32])
                    + "\"}"));
    assertFalse(withHash.has("password"));
    assertEquals(
        "BAD_REQUEST: newPasswordHash: must be the base64 SHA-256 of the password",
        error(
            send("PATCH", SERVICES + "/" + id + "/password", "{\"newPasswordHash\":\"abc\"}"),
            400));
  }

  @Test
  void rolesAndOrganizations() throws Exception {
    start();
    String id = create(VALID).get("service").get("id").textValue();
    JsonNode dev =
        result(
            send(
                "POST",
                "/v1/organizations/" + ORG + "/keys",
                "{\"name\":\"d\",\"roles\":[\"developer\"]}"));
    String devAuth =
        HttpTestClient.basic(dev.get("keyId").textValue(), dev.get("keySecret").textValue());
    assertEquals(
        200, http.send("GET", SERVICES + "/" + id, null, "Authorization", devAuth).statusCode());
    assertEquals(403, http.send("POST", SERVICES, VALID, "Authorization", devAuth).statusCode());
    assertEquals(
        403,
        http.send(
                "PATCH",
                SERVICES + "/" + id + "/state",
                "{\"command\":\"stop\"}",
                "Authorization",
                devAuth)
            .statusCode());
    assertEquals(
        403, http.send("DELETE", SERVICES + "/" + id, null, "Authorization", devAuth).statusCode());
    assertEquals(401, http.send("GET", SERVICES, null).statusCode());
    String other = "/v1/organizations/00000000-0000-4000-8000-000000000000/services";
    assertEquals(403, send("GET", other, null).statusCode());
    assertEquals(403, send("POST", other, VALID).statusCode());
    assertEquals(404, send("GET", SERVICES + "/not-a-service", null).statusCode());
  }

  @Test
  void servicesSurviveARestartAndTransitionsResume() throws Exception {
    start();
    String running = create(VALID).get("service").get("id").textValue();
    awaitState(running, "running");
    String provisioning = create(VALID).get("service").get("id").textValue();
    server.close(); // while the second one is still provisioning
    server = null;
    start();
    assertEquals(
        "running", result(send("GET", SERVICES + "/" + running, null)).get("state").textValue());
    assertEquals("running", awaitState(provisioning, "running"));
    assertEquals(2, result(send("GET", SERVICES, null)).size());
  }

  @Test
  void concurrentUpdatesAreNeverLost() throws Exception {
    start();
    String id = create(VALID).get("service").get("id").textValue();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> futures = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String ip = "10.0.0." + i;
      futures.add(
          pool.submit(
              () ->
                  send(
                          "PATCH",
                          SERVICES + "/" + id,
                          "{\"ipAccessList\":{\"add\":[{\"source\":\"" + ip + "\"}]}}")
                      .statusCode()));
    }
    for (int i = 0; i < 16; i++) {
      futures.add(pool.submit(() -> send("POST", SERVICES, VALID).statusCode()));
    }
    for (Future<Integer> f : futures) {
      assertEquals(200, f.get());
    }
    pool.shutdown();
    JsonNode s = result(send("GET", SERVICES + "/" + id, null));
    Set<String> ips = new HashSet<>();
    s.get("ipAccessList").forEach(e -> ips.add(e.get("source").textValue()));
    assertEquals(40, ips.size());
    assertEquals(17, result(send("GET", SERVICES, null)).size());
  }

  @Test
  void concurrentDeletesTakeEffectExactlyOnce() throws Exception {
    start();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ids.add(create(VALID).get("service").get("id").textValue());
    }
    for (String id : ids) {
      awaitState(id, "running");
      send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"stop\"}");
    }
    for (String id : ids) {
      awaitState(id, "stopped");
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> futures = new ArrayList<>();
    for (String id : ids) {
      for (int k = 0; k < 3; k++) {
        futures.add(pool.submit(() -> send("DELETE", SERVICES + "/" + id, null).statusCode()));
      }
    }
    int accepted = 0;
    for (Future<Integer> f : futures) {
      int status = f.get();
      assertTrue(status == 200 || status == 409 || status == 404, "status " + status);
      accepted += status == 200 ? 1 : 0;
    }
    pool.shutdown();
    assertEquals(ids.size(), accepted, "each service is deleted by exactly one request");
    for (String id : ids) {
      assertEquals("gone", awaitState(id, "gone"));
    }
    assertEquals(0, result(send("GET", SERVICES, null)).size());
  }
}
