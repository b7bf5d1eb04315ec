package dev.chartwell.server.charts;

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

/**
 * Tables over real HTTP: declared with their columns, shared by several sources (events written
 * through one are read through another), kept when their sources go, deleted on their own.
 */
class TableApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final long T = 1_767_225_600_000L;

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String serviceId;
  String token;

  /**
   * The cases of invalid declarations share one server, set up as each other test's own: every
   * declaration they send is refused, so the warehouse they look at stays without tables.
   */
  @RegisterExtension
  static final SharedServer<TableApiIntegrationTest> SHARED =
      new SharedServer<>(
          TableApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          TableApiIntegrationTest::stop);

  /** Starts this test's own server with a running service. */
  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    JsonNode created =
        admin("POST", SERVICES, "{\"name\":\"T\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    awaitState(serviceId, "running");
  }

  /** Points this test at the class's shared server and service; it starts none. */
  void useShared() throws Exception {
    TableApiIntegrationTest shared = SHARED.get();
    http = shared.http;
    serviceId = shared.serviceId;
    token = shared.token;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  void awaitState(String id, String state) throws Exception {
    for (int i = 0; i < 200; i++) {
      if (admin("GET", SERVICES + "/" + id, null).get("state").textValue().equals(state)) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(id + " never " + state);
  }

  HttpResponse<String> bearer(String method, String path, String body) throws Exception {
    return bearer(method, path, body, token);
  }

  HttpResponse<String> bearer(String method, String path, String body, String tok)
      throws Exception {
    return http.send(
        method,
        path,
        body,
        "Authorization",
        "Bearer " + tok,
        "Content-Type",
        path.endsWith("/events") ? "application/x-ndjson" : "application/json");
  }

  JsonNode data(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("data");
  }

  String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  String source(String body) throws Exception {
    return admin("POST", SERVICES + "/" + serviceId + "/clickstack/sources", body)
        .get("id")
        .textValue();
  }

  long count(String sourceId, String where) throws Exception {
    String q =
        "{\"startTime\":"
            + T
            + ",\"endTime\":"
            + (T + 3_600_000)
            + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
            + sourceId
            + "\",\"aggFn\":\"count\",\"where\":\""
            + where
            + "\"}]}";
    long n = 0;
    for (JsonNode row : data(bearer("POST", "/api/v2/charts/series", q))) {
      n += row.get("series_0.data").longValue();
    }
    return n;
  }

  @Test
  void aDeclaredTableKeepsItsColumnsAndIsSharedBySources() throws Exception {
    start();
    JsonNode declared =
        data(
            bearer(
                "PUT",
                "/api/v2/tables/default/requests",
                "{\"implicitColumn\":\"Body\",\"columns\":[{\"name\":\"status\",\"type\":\"long\"}]}"));
    assertEquals("Timestamp", declared.get("timestampColumn").textValue());
    assertEquals("Body", declared.get("implicitColumn").textValue());
    assertEquals("[{\"name\":\"status\",\"type\":\"long\"}]", declared.get("columns").toString());
    assertEquals(0, declared.get("rows").longValue());
    String from = "\"from\":{\"databaseName\":\"default\",\"tableName\":\"requests\"}";
    String writer = source("{\"name\":\"all requests\",\"kind\":\"log\"," + from + "}");
    String reader = source("{\"name\":\"same table\",\"kind\":\"log\"," + from + "}");
    HttpResponse<String> r =
        bearer(
            "POST",
            "/api/v2/sources/" + writer + "/events",
            "{\"Timestamp\":"
                + T
                + ",\"Body\":\"GET /a failed\",\"status\":\"500\"}\n"
                + "{\"Timestamp\":"
                + (T + 1)
                + ",\"Body\":\"GET /b ok\",\"status\":200,\"host\":\"h1\"}\n");
    assertEquals("{\"accepted\":2,\"rejected\":0,\"errors\":[]}", r.body());
    assertEquals(2, count(reader, ""), "written through one source, read through the other");
    assertEquals(
        1, count(reader, "failed AND status:500"), "status declared long: 500 as text is a number");
    JsonNode table = data(bearer("GET", "/api/v2/tables/default/requests", null));
    assertEquals(2, table.get("rows").longValue());
    assertEquals(
        "[{\"name\":\"Timestamp\",\"type\":\"timestamp\"},{\"name\":\"Body\",\"type\":\"string\"},"
            + "{\"name\":\"status\",\"type\":\"long\"},{\"name\":\"host\",\"type\":\"string\"}]",
        table.get("schema").toString());
    assertEquals(1, data(bearer("GET", "/api/v2/tables", null)).size());

    assertEquals(
        "CONFLICT: table default.requests holds 2 events; its definition is fixed once it holds"
            + " events (delete the table to start over)",
        error(
            bearer(
                "PUT",
                "/api/v2/tables/default/requests",
                "{\"columns\":[{\"name\":\"status\",\"type\":\"string\"}]}"),
            409));
    String readBy = error(bearer("DELETE", "/api/v2/tables/default/requests", null), 409);
    assertEquals(
        "CONFLICT: table default.requests is read by sources "
            + writer
            + " ('all requests'), "
            + reader
            + " ('same table'); delete those sources first",
        readBy);
    admin("DELETE", SERVICES + "/" + serviceId + "/clickstack/sources/" + writer, null);
    assertEquals(2, count(reader, ""), "deleting a source keeps its table's events");
    admin("DELETE", SERVICES + "/" + serviceId + "/clickstack/sources/" + reader, null);
    assertEquals(
        2, data(bearer("GET", "/api/v2/tables/default/requests", null)).get("rows").longValue());
    assertEquals(
        "{}",
        http.send(
                "DELETE",
                "/api/v2/tables/default/requests",
                null,
                "Authorization",
                "Bearer " + token)
            .body());
    assertEquals(
        "NOT_FOUND: table default.requests does not exist",
        error(bearer("GET", "/api/v2/tables/default/requests", null), 404));
    assertEquals(0, data(bearer("GET", "/api/v2/tables", null)).size());
  }

  @Test
  void aTablesDefinitionChangesWhileItHoldsNoEventsAndNoSourceNeedsIt() throws Exception {
    start();
    String path = "/api/v2/tables/default/t";
    data(bearer("PUT", path, "{\"columns\":[{\"name\":\"a\",\"type\":\"long\"}]}"));
    JsonNode changed =
        data(bearer("PUT", path, "{\"columns\":[{\"name\":\"a\",\"type\":\"double\"}]}"));
    assertEquals("[{\"name\":\"a\",\"type\":\"double\"}]", changed.get("columns").toString());
    source("{\"name\":\"t\",\"kind\":\"log\"}"); // reads default.t, uses Timestamp
    assertEquals(
        "CONFLICT: table default.t is read by source",
        error(bearer("PUT", path, "{\"timestampColumn\":\"ts\"}"), 409).substring(0, 43));
    assertEquals(
        changed.get("id"),
        data(bearer("PUT", path, "{\"columns\":[{\"name\":\"a\",\"type\":\"double\"}]}")).get("id"),
        "the same definition again changes nothing");
  }

  @Test
  void aSourceTooLargeToStoreLeavesNoTableBehind() throws Exception {
    start();
    StringBuilder settings = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      settings
          .append(i == 0 ? "" : ",")
          .append("{\"setting\":\"s")
          .append(i)
          .append("\",\"value\":\"")
          .append("v".repeat(90))
          .append("\"}");
    }
    HttpResponse<String> r =
        http.send(
            "POST",
            SERVICES + "/" + serviceId + "/clickstack/sources",
            "{\"name\":\"big\",\"kind\":\"log\",\"querySettings\":[" + settings + "]}",
            "Authorization",
            ADMIN);
    assertEquals(
        "PAYLOAD_TOO_LARGE: the source is larger than 262144 bytes",
        MAPPER.readTree(r.body()).get("error").textValue().substring(0, 57));
    assertEquals(0, data(bearer("GET", "/api/v2/tables", null)).size());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"columns\":[{\"name\":\"a\",\"type\":\"int\"}]} | columns[0].type: must be one of string, long, double, bool",
        "{\"columns\":[{\"name\":\"a\",\"type\":\"long\"},{\"name\":\"a\",\"type\":\"long\"}]} | columns[1].name: 'a' is declared twice",
        "{\"implicitColumn\":\"Body\",\"columns\":[{\"name\":\"Body\",\"type\":\"long\"}]} | columns[0].type: the implicit column 'Body' must be a string",
        "{\"columns\":[{\"name\":\"Timestamp\",\"type\":\"long\"}]} | columns[0].name: 'Timestamp' is the timestamp column",
        "{\"columns\":[{\"name\":\"a\\nb\",\"type\":\"string\"}]} | columns[0].name: must not contain control characters (found U+000A at position 2)",
        "{\"columns\":{}} | columns: must be an array",
        "{\"timestampColumn\":\"\"} | timestampColumn: must not be empty",
        "{\"implicitColumn\":\"Timestamp\"} | implicitColumn: cannot be the timestamp column",
        "{\"engine\":\"MergeTree\"} | engine: unknown field",
        "[] | request body must be a JSON object",
      })
  void invalidDeclarationsAre400NamingTheField(String body, String message) throws Exception {
    useShared();
    assertEquals(
        "BAD_REQUEST: " + message, error(bearer("PUT", "/api/v2/tables/default/x", body), 400));
    assertEquals(0, data(bearer("GET", "/api/v2/tables", null)).size(), "nothing was created");
  }

  @Test
  void tablesBelongToTheTokensWarehouseAndItsState() throws Exception {
    start();
    data(bearer("PUT", "/api/v2/tables/default/mine", "{}"));
    JsonNode other =
        admin("POST", SERVICES, "{\"name\":\"O\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String otherToken = other.get("password").textValue();
    awaitState(other.get("service").get("id").textValue(), "running");
    assertEquals(404, bearer("GET", "/api/v2/tables/default/mine", null, otherToken).statusCode());
    assertEquals(401, bearer("GET", "/api/v2/tables", null, "wrong").statusCode());
    String warehouse =
        admin("GET", SERVICES + "/" + serviceId, null).get("dataWarehouseId").textValue();
    JsonNode ro =
        admin(
            "POST",
            SERVICES,
            "{\"name\":\"R\",\"provider\":\"aws\",\"region\":\"us-east-1\",\"numReplicas\":1,"
                + "\"isReadonly\":true,\"dataWarehouseId\":\""
                + warehouse
                + "\"}");
    awaitState(ro.get("service").get("id").textValue(), "running");
    String roToken = ro.get("password").textValue();
    assertEquals(1, data(bearer("GET", "/api/v2/tables", null, roToken)).size());
    assertEquals(403, bearer("PUT", "/api/v2/tables/default/x", "{}", roToken).statusCode());
    assertEquals(403, bearer("DELETE", "/api/v2/tables/default/mine", null, roToken).statusCode());
    admin("PATCH", SERVICES + "/" + serviceId + "/state", "{\"command\":\"stop\"}");
    awaitState(serviceId, "stopped");
    assertEquals(409, bearer("GET", "/api/v2/tables", null).statusCode());
  }
}
