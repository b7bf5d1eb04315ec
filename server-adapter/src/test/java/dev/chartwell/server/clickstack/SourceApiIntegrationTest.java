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
 * The sources resource over real HTTP: the document's shape for every kind, the built-in
 * connection, tables created on declaration and shared by sources, validation, durability,
 * warehouse scoping, cascades.
 */
class SourceApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = TestServers.ORG;
  static final String SERVICES = "/v1/organizations/" + ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String SERVICE = "{\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"}";

  /** A log source as the ClickHouse Cloud document's example has it. */
  static final String SPEC_LOG =
      "{\"name\":\"Logs\",\"kind\":\"log\",\"connection\":\"default\","
          + "\"from\":{\"databaseName\":\"default\",\"tableName\":\"otel_logs\"},"
          + "\"defaultTableSelectExpression\":\"Timestamp, ServiceName, SeverityText, Body\","
          + "\"timestampValueExpression\":\"Timestamp\",\"serviceNameExpression\":\"ServiceName\","
          + "\"severityTextExpression\":\"SeverityText\",\"bodyExpression\":\"Body\","
          + "\"implicitColumnExpression\":\"Body\",\"querySettings\":[],"
          + "\"highlightedTraceAttributeExpressions\":[],\"highlightedRowAttributeExpressions\":[],"
          + "\"materializedViews\":[]}";

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
  }

  /**
   * The cases of invalid definitions share one server, started as each other test's own; each still
   * creates a service of its own (in a warehouse of its own) and sends it a definition that is
   * refused.
   */
  @RegisterExtension
  static final SharedServer<SourceApiIntegrationTest> SHARED =
      new SharedServer<>(
          SourceApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          SourceApiIntegrationTest::stop);

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
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r) throws Exception {
    assertEquals(400, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
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
  void aSpecShapedSourceRoundTripsExactly() throws Exception {
    start();
    String svc = service(SERVICE);
    JsonNode s = ok(send("POST", sources(svc), SPEC_LOG));
    String id = s.get("id").textValue();
    assertTrue(id.matches("[0-9a-f]{24}"));
    JsonNode sent = MAPPER.readTree(SPEC_LOG);
    ((com.fasterxml.jackson.databind.node.ObjectNode) sent).put("id", id);
    assertEquals(sent, s);
    assertEquals(s, ok(send("GET", sources(svc) + "/" + id, null)));
    assertFalse(s.has("createdAt") || s.has("columns"), "not in the schema");
  }

  @Test
  void defaultsFillWhatTheDocumentRequiresInAnswers() throws Exception {
    start();
    String svc = service(SERVICE);
    JsonNode log =
        ok(send("POST", sources(svc), "{\"name\":\"app\",\"kind\":\"log\",\"id\":\"ignored\"}"));
    assertEquals("default", log.get("connection").textValue());
    assertEquals(
        "{\"databaseName\":\"default\",\"tableName\":\"app\"}",
        log.get("from").toString(),
        "a source without from reads a table named after it");
    assertEquals("Timestamp", log.get("timestampValueExpression").textValue());
    assertEquals("Body", log.get("bodyExpression").textValue());
    assertEquals("Body", log.get("implicitColumnExpression").textValue());
    assertEquals("Timestamp, Body", log.get("defaultTableSelectExpression").textValue());
    assertFalse(log.get("id").textValue().equals("ignored"));
    JsonNode empty =
        ok(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"e\",\"kind\":\"log\",\"timestampValueExpression\":\"\",\"bodyExpression\":\"\"}"));
    assertEquals("Timestamp", empty.get("timestampValueExpression").textValue(), "empty: default");
    assertEquals("Body", empty.get("bodyExpression").textValue());

    JsonNode trace = ok(send("POST", sources(svc), "{\"name\":\"spans\",\"kind\":\"trace\"}"));
    assertEquals("Duration", trace.get("durationExpression").textValue());
    assertEquals(9, trace.get("durationPrecision").intValue());
    assertEquals("TraceId", trace.get("traceIdExpression").textValue());
    assertEquals("SpanKind", trace.get("spanKindExpression").textValue());
    assertEquals("Timestamp, SpanName", trace.get("defaultTableSelectExpression").textValue());
    assertFalse(trace.has("bodyExpression"), "traces have no body");

    JsonNode metric =
        ok(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"m\",\"kind\":\"metric\",\"from\":{\"databaseName\":\"default\",\"tableName\":null},"
                    + "\"metricTables\":{\"gauge\":\"gauges\"},\"logSourceId\":\""
                    + log.get("id").textValue()
                    + "\"}"));
    assertEquals("TimeUnix", metric.get("timestampValueExpression").textValue());
    assertEquals("ResourceAttributes", metric.get("resourceAttributesExpression").textValue());

    JsonNode session =
        ok(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"sessions\",\"kind\":\"session\",\"traceSourceId\":\""
                    + trace.get("id").textValue()
                    + "\"}"));
    assertEquals(trace.get("id"), session.get("traceSourceId"));
    assertEquals(5, ok(send("GET", sources(svc), null)).size());
  }

  @Test
  void severalSourcesReadOneTableThatOutlivesThem() throws Exception {
    start();
    String svc = service(SERVICE);
    String a = ok(send("POST", sources(svc), SPEC_LOG)).get("id").textValue();
    JsonNode b =
        ok(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"errors view\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"otel_logs\"}}"));
    assertEquals("Timestamp", b.get("timestampValueExpression").textValue(), "the table's");
    assertEquals("Body", b.get("implicitColumnExpression").textValue(), "the table's");
    assertEquals(
        "BAD_REQUEST: timestampValueExpression: table default.otel_logs keeps its event time in"
            + " 'Timestamp'; its sources must use it; implicitColumnExpression: table"
            + " default.otel_logs indexes 'Body' for bare search terms; its sources must use it",
        error(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"c\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"otel_logs\"},"
                    + "\"timestampValueExpression\":\"ts\",\"implicitColumnExpression\":\"Message\"}")));
    ok(send("DELETE", sources(svc) + "/" + a, null));
    ok(send("DELETE", sources(svc) + "/" + b.get("id").textValue(), null));
    // The table stays (with its timestamp column) after its sources are gone.
    assertEquals(
        "BAD_REQUEST: timestampValueExpression: table default.otel_logs keeps its event time in"
            + " 'Timestamp'; its sources must use it",
        error(
            send(
                "POST",
                sources(svc),
                "{\"name\":\"d\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"otel_logs\"},"
                    + "\"timestampValueExpression\":\"ts\"}")));
  }

  @Test
  void replaceKeepsIdAndTableUnlessFromChanges() throws Exception {
    start();
    String svc = service(SERVICE);
    JsonNode s = ok(send("POST", sources(svc), "{\"name\":\"logs\",\"kind\":\"log\"}"));
    String id = s.get("id").textValue();
    JsonNode replaced =
        ok(
            send(
                "PUT",
                sources(svc) + "/" + id,
                "{\"name\":\"renamed\",\"kind\":\"log\",\"serviceNameExpression\":\"ServiceName\"}"));
    assertEquals("renamed", replaced.get("name").textValue());
    assertEquals(id, replaced.get("id").textValue());
    assertEquals(s.get("from"), replaced.get("from"), "still reads table logs");
    JsonNode moved =
        ok(
            send(
                "PUT",
                sources(svc) + "/" + id,
                "{\"name\":\"renamed\",\"kind\":\"log\",\"from\":{\"databaseName\":\"archive\",\"tableName\":\"old_logs\"}}"));
    assertEquals("archive", moved.get("from").get("databaseName").textValue());
    ok(send("DELETE", sources(svc) + "/" + id, null));
    assertEquals(404, send("GET", sources(svc) + "/" + id, null).statusCode());
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
        "{\"name\":\"x\",\"kind\":\"promql\",\"connection\":\"prom\"} | kind: promql sources need a Prometheus connection, and a service has none",
        "{\"name\":\"x\",\"kind\":\"log\",\"connection\":\"clickhouse-prod\"} | connection: unknown connection 'clickhouse-prod'; the built-in connection is 'default' (the service's embedded engine)",
        "{\"name\":\"x\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\"}} | from.tableName: is required",
        "{\"name\":\"x\",\"kind\":\"log\",\"columns\":[]} | columns: unknown field",
        "{\"name\":\"x\",\"kind\":\"trace\",\"bodyExpression\":\"Body\"} | bodyExpression: unknown field",
        "{\"name\":\"x\",\"kind\":\"trace\",\"durationPrecision\":12} | durationPrecision: must be an integer from 0 to 9",
        "{\"name\":\"x\",\"kind\":\"log\",\"useTextIndexForImplicitColumn\":\"yes\"} | useTextIndexForImplicitColumn: must be one of auto, enabled, disabled",
        "{\"name\":\"x\",\"kind\":\"log\",\"querySettings\":[{\"setting\":\"max_threads\"}]} | querySettings[0].value: is required",
        "{\"name\":\"x\",\"kind\":\"log\",\"traceSourceId\":\"0123456789abcdef01234567\"} | traceSourceId: no trace source 0123456789abcdef01234567 in this service",
        "{\"name\":\"x\",\"kind\":\"session\"} | traceSourceId: is required",
        "{\"name\":\"x\",\"kind\":\"metric\",\"from\":{\"databaseName\":\"default\"},\"metricTables\":{}} | from.tableName: is required when metricTables names no table",
        "{\"name\":5,\"kind\":\"log\"} | name: must be a string",
        "{\"name\":\"x\",\"kind\":\"log\",\"timestampValueExpression\":\"Body\"} | implicitColumnExpression: cannot be the timestamp column",
        "[] | request body must be a JSON object",
      })
  void invalidDefinitionsAre400NamingTheField(String body, String message) throws Exception {
    useShared();
    assertEquals("BAD_REQUEST: " + message, error(send("POST", sources(service(SERVICE)), body)));
  }

  @Test
  void definitionsSurviveARestart() throws Exception {
    start();
    String svc = service(SERVICE);
    JsonNode s = ok(send("POST", sources(svc), SPEC_LOG));
    server.close();
    server = null;
    start();
    assertEquals(s, ok(send("GET", sources(svc), null)).get(0));
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
