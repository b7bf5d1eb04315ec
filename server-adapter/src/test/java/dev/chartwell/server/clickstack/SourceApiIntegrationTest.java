package dev.chartwell.server.clickstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sources resource over real HTTP: validation, durability, warehouse scoping, cascades. */
class SourceApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = TestServers.ORG;
  static final String SERVICES = "/v1/organizations/" + ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String SERVICE = "{\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"}";

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
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
    return MAPPER.readTree(r.body()).get("result");
  }

  String service(String body) throws Exception {
    return ok(send("POST", SERVICES, body)).get("service").get("id").textValue();
  }

  String sources(String serviceId) {
    return SERVICES + "/" + serviceId + "/clickstack/sources";
  }

  void await(String id, String state) throws Exception {
    for (int i = 0; i < 200; i++) {
      HttpResponse<String> r = send("GET", SERVICES + "/" + id, null);
      String now = r.statusCode() == 404 ? "gone" : ok(r).get("state").textValue();
      if (now.equals(state)) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(id + " never " + state);
  }

  @Test
  void createGetReplaceDeleteWithDefaults() throws Exception {
    start();
    String svc = service(SERVICE);
    JsonNode s = ok(send("POST", sources(svc), "{\"name\":\"logs\",\"kind\":\"log\"}"));
    String id = s.get("id").textValue();
    assertTrue(id.matches("[0-9a-f]{24}"));
    assertEquals("Timestamp", s.get("timestampValueExpression").textValue());
    assertEquals("Body", s.get("bodyExpression").textValue());
    assertEquals("Body", s.get("implicitColumnExpression").textValue());
    assertEquals(
        "{\"databaseName\":\"default\",\"tableName\":\"otel_logs\"}", s.get("from").toString());
    assertTrue(s.has("createdAt"));
    assertEquals(s, ok(send("GET", sources(svc) + "/" + id, null)));
    JsonNode traces =
        ok(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"spans\",\"kind\":\"trace\",\"timestampValueExpression\":\"ts\"}"));
    assertTrue(traces.get("bodyExpression").isNull(), "no default body for traces");
    assertEquals(2, ok(send("GET", sources(svc), null)).size());

    JsonNode replaced =
        ok(
            send(
                "PUT",
                sources(svc) + "/" + id,
                "{\"name\":\"renamed\",\"kind\":\"log\",\"serviceNameExpression\":\"ServiceName\"}"));
    assertEquals("renamed", replaced.get("name").textValue());
    assertEquals("ServiceName", replaced.get("serviceNameExpression").textValue());
    assertEquals(id, replaced.get("id").textValue());
    assertEquals(s.get("createdAt"), replaced.get("createdAt"));

    ok(send("DELETE", sources(svc) + "/" + id, null));
    assertEquals(404, send("GET", sources(svc) + "/" + id, null).statusCode());
    assertEquals(1, ok(send("GET", sources(svc), null)).size());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"kind\":\"log\"} | name: is required",
        "{\"name\":\"\",\"kind\":\"log\"} | name: must not be blank",
        "{\"name\":\"x\"} | kind: is required",
        "{\"name\":\"x\",\"kind\":\"audit\"} | kind: must be one of log, trace, metric, session",
        "{\"name\":\"x\",\"kind\":\"log\",\"columns\":[{\"name\":\"a\",\"type\":\"int\"}]} | columns[0].type: must be one of string, long, double, bool",
        "{\"name\":\"x\",\"kind\":\"log\",\"columns\":[{\"name\":\"a\",\"type\":\"long\"},{\"name\":\"a\",\"type\":\"long\"}]} | columns[1].name: 'a' is declared twice",
        "{\"name\":\"x\",\"kind\":\"log\",\"columns\":[{\"name\":\"Body\",\"type\":\"long\"}]} | columns[0].type: the implicit column 'Body' must be a string",
        "{\"name\":\"x\",\"kind\":\"log\",\"columns\":[{\"name\":\"Timestamp\",\"type\":\"long\"}]} | columns[0].name: 'Timestamp' is the timestamp column",
        "{\"name\":\"x\",\"kind\":\"log\",\"columns\":{}} | columns: must be an array",
        "{\"name\":\"x\",\"kind\":\"log\",\"table\":\"t\"} | table: unknown field",
        "{\"name\":5,\"kind\":\"log\"} | name: must be a string",
      })
  void invalidDefinitionsAre400NamingTheField(String body, String message) throws Exception {
    start();
    HttpResponse<String> r = send("POST", sources(service(SERVICE)), body);
    assertEquals(400, r.statusCode(), r.body());
    assertEquals("BAD_REQUEST: " + message, MAPPER.readTree(r.body()).get("error").textValue());
  }

  @Test
  void definitionsSurviveARestart() throws Exception {
    start();
    String svc = service(SERVICE);
    String id =
        ok(send("POST", sources(svc), "{\"name\":\"logs\",\"kind\":\"log\"}"))
            .get("id")
            .textValue();
    server.close();
    server = null;
    start();
    assertEquals(id, ok(send("GET", sources(svc), null)).get(0).get("id").textValue());
  }

  @Test
  void sourcesBelongToTheWarehouseAndGoWithItsLastService() throws Exception {
    start();
    String first = service(SERVICE);
    String warehouse =
        ok(send("GET", SERVICES + "/" + first, null)).get("dataWarehouseId").textValue();
    String join =
        "{\"name\":\"S2\",\"provider\":\"aws\",\"region\":\"us-east-1\",\"numReplicas\":1,"
            + "\"dataWarehouseId\":\""
            + warehouse
            + "\"}";
    String second = service(join);
    String other = service(SERVICE); // its own warehouse
    ok(send("POST", sources(first), "{\"name\":\"shared\",\"kind\":\"log\"}"));
    assertEquals(1, ok(send("GET", sources(second), null)).size(), "same warehouse, same sources");
    assertEquals(0, ok(send("GET", sources(other), null)).size());

    deleteService(first);
    assertEquals(1, ok(send("GET", sources(second), null)).size(), "kept for the other service");
    deleteService(second);
    String newcomer = service(join);
    assertEquals(0, ok(send("GET", sources(newcomer), null)).size(), "gone with the last service");
  }

  void deleteService(String id) throws Exception {
    await(id, "running");
    ok(send("PATCH", SERVICES + "/" + id + "/state", "{\"command\":\"stop\"}"));
    await(id, "stopped");
    send("DELETE", SERVICES + "/" + id, null);
    await(id, "gone");
  }

  @Test
  void developerKeysAreReadOnlyAndOtherOrganizationsForbidden() throws Exception {
    start();
    String svc = service(SERVICE);
    JsonNode dev =
        ok(
            send(
                "POST",
                "/v1/organizations/" + ORG + "/keys",
                "{\"name\":\"d\",\"roles\":[\"developer\"]}"));
    String auth =
        HttpTestClient.basic(dev.get("keyId").textValue(), dev.get("keySecret").textValue());
    assertEquals(200, http.send("GET", sources(svc), null, "Authorization", auth).statusCode());
    assertEquals(
        403,
        http.send("POST", sources(svc), "{\"name\":\"x\",\"kind\":\"log\"}", "Authorization", auth)
            .statusCode());
    assertEquals(404, send("GET", SERVICES + "/nope/clickstack/sources", null).statusCode());
    assertEquals(
        403,
        send(
                "GET",
                "/v1/organizations/00000000-0000-4000-8000-000000000000/services/"
                    + svc
                    + "/clickstack/sources",
                null)
            .statusCode());
  }
}
