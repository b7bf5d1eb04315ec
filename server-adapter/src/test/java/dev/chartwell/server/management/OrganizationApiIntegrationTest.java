package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

/** The organization over HTTP: the schema's shape, PATCH, private endpoints, our own view. */
class OrganizationApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = "/v1/organizations/" + TestServers.ORG;
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  void start(String... flags) throws Exception {
    server = TestServers.start(dataDir, flags);
    http = new HttpTestClient(server.port());
  }

  /**
   * The cases of bad patches share one server, started as each other test's own: every patch they
   * send is refused, so the organization stays as it was.
   */
  @RegisterExtension
  static final SharedServer<OrganizationApiIntegrationTest> SHARED =
      new SharedServer<>(
          OrganizationApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          OrganizationApiIntegrationTest::stop);

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

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  @Test
  void theOrganizationHasTheSchemasFieldsAndIsRenamedDurably() throws Exception {
    start("--org-tier", "ENTERPRISE", "--org-paid", "false");
    JsonNode org = ok(send("GET", ORG, null)).get("result");
    assertEquals(
        "[\"id\",\"createdAt\",\"name\",\"privateEndpoints\",\"byocConfig\",\"enableCoreDumps\"]",
        MAPPER.writeValueAsString(MAPPER.convertValue(org.fieldNames(), Object.class)));
    assertEquals("[]", org.get("privateEndpoints").toString());
    assertEquals(true, org.get("enableCoreDumps").booleanValue());

    JsonNode patched =
        ok(send(
                "PATCH",
                ORG,
                "{\"name\":\"Acme\",\"enableCoreDumps\":false,\"privateEndpoints\":{\"remove\":[{\"id\":\"vpce-1\"}]}}"))
            .get("result");
    assertEquals("Acme", patched.get("name").textValue());
    assertEquals(false, patched.get("enableCoreDumps").booleanValue());
    server.close();
    start("--org-tier", "ENTERPRISE", "--org-paid", "false");
    assertEquals(patched, ok(send("GET", ORG, null)).get("result"));
    assertEquals(patched, ok(send("GET", "/v1/organizations", null)).get("result").get(0));
    JsonNode own = ok(send("GET", "/api/v2/organization", null)).get("data");
    assertEquals("Acme", own.get("name").textValue());
    assertEquals("ENTERPRISE", own.get("tier").textValue());
    assertEquals(false, own.get("paid").booleanValue());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"name\":\"\"} | BAD_REQUEST: name: must not be blank",
        "{\"name\":7} | BAD_REQUEST: name: must be a string",
        "{\"tier\":\"BASIC\"} | BAD_REQUEST: tier: unknown field",
        "{\"enableCoreDumps\":\"no\"} | BAD_REQUEST: enableCoreDumps: must be true or false",
        "{\"privateEndpoints\":{\"add\":[{\"id\":\"vpce-1\",\"cloudProvider\":\"aws\"}]}} | BAD_REQUEST: privateEndpoints.add: a single-machine Chartwell has no private endpoints to register",
        "{\"privateEndpoints\":{\"remove\":[{\"cloudProvider\":\"ibm\"}]}} | BAD_REQUEST: privateEndpoints.remove[0].cloudProvider: must be one of aws, gcp, azure",
        "[] | BAD_REQUEST: request body must be a JSON object",
      })
  void badPatchesAre400NamingTheField(String body, String expected) throws Exception {
    useShared();
    HttpResponse<String> r = send("PATCH", ORG, body);
    assertEquals(400, r.statusCode(), r.body());
    assertEquals(expected, MAPPER.readTree(r.body()).get("error").textValue());
  }

  @Test
  void developersCannotPatch() throws Exception {
    start();
    JsonNode k =
        ok(send("POST", ORG + "/keys", "{\"name\":\"d\",\"roles\":[\"developer\"]}")).get("result");
    String dev = HttpTestClient.basic(k.get("keyId").textValue(), k.get("keySecret").textValue());
    assertEquals(
        403, http.send("PATCH", ORG, "{\"name\":\"x\"}", "Authorization", dev).statusCode());
  }

  @Test
  void privateEndpointConfigNamesNoEndpointServiceAndChecksItsQuery() throws Exception {
    start();
    JsonNode r =
        ok(
            send(
                "GET",
                ORG + "/privateEndpointConfig?cloud_provider=aws&region_id=us-east-1",
                null));
    assertEquals("{}", r.get("result").toString());
    HttpResponse<String> bad =
        send("GET", ORG + "/privateEndpointConfig?cloud_provider=gcp&region_id=us-east-1", null);
    assertEquals(400, bad.statusCode());
    assertEquals(
        "BAD_REQUEST: region_id: 'us-east-1' is not a region of gcp",
        MAPPER.readTree(bad.body()).get("error").textValue());
    HttpResponse<String> none = send("GET", ORG + "/privateEndpointConfig", null);
    assertEquals(
        "BAD_REQUEST: cloud_provider: is required (aws, gcp or azure); region_id: is required",
        MAPPER.readTree(none.body()).get("error").textValue());
  }
}
