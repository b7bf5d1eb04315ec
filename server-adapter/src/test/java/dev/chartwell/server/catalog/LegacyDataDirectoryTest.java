package dev.chartwell.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.DocumentStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory written by the previous version (sources that held their own events and declared
 * their own columns, services stored with {@code null}s) opens: each source becomes a table of its
 * name plus a source of that table with the same id, and every answer has the document's shape.
 */
class LegacyDataDirectoryTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String SERVICE_ID = "5e1cd0c2-8f1a-4b7e-9a3c-1d2e3f405061";
  static final String WAREHOUSE = "8b0f1e2d-3c4b-4a59-8e7f-6a5b4c3d2e1f";
  static final String LOGS = "66a1f0c2b4e8d9a7c3f1e2d4";
  static final String LOGS_AGAIN = "66a1f0c2b4e8d9a7c3f1e2d5";
  static final String SPANS = "66a1f0c2b4e8d9a7c3f1e2d6";

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
  }

  /** The documents exactly as the previous version wrote them. */
  void writePreviousVersion() throws Exception {
    start(); // the organization and the admin key, whose format is covered elsewhere
    server.close();
    server = null;
    try (DocumentStore services = DocumentStore.open(dataDir, Collection.SERVICES);
        DocumentStore warehouses = DocumentStore.open(dataDir, Collection.WAREHOUSES);
        DocumentStore sources = DocumentStore.open(dataDir, Collection.SOURCES)) {
      warehouses.put(
          WAREHOUSE,
          "{\"id\":\""
              + WAREHOUSE
              + "\",\"organizationId\":\""
              + TestServers.ORG
              + "\",\"createdAt\":\"2026-01-01T00:00:00Z\"}");
      services.put(
          SERVICE_ID,
          "{\"id\":\""
              + SERVICE_ID
              + "\",\"name\":\"Old\",\"provider\":\"aws\","
              + "\"region\":\"us-east-1\",\"state\":\"running\",\"clickhouseVersion\":\"25.8\","
              + "\"endpoints\":[{\"protocol\":\"https\",\"host\":\"5e1cd0c2.us-east-1.aws.chartwell.internal\",\"port\":8443,\"username\":\"default\"}],"
              + "\"tier\":\"production\",\"minTotalMemoryGb\":null,\"maxTotalMemoryGb\":null,"
              + "\"minReplicaMemoryGb\":8,\"maxReplicaMemoryGb\":120,\"numReplicas\":3,"
              + "\"autoscalingMode\":\"vertical\",\"currentScaling\":{\"effectiveAutoscalingMode\":\"vertical\","
              + "\"effectiveMinReplicaMemoryGb\":8,\"effectiveMaxReplicaMemoryGb\":120,\"effectiveMinReplicas\":3,"
              + "\"effectiveMaxReplicas\":3},\"idleScaling\":true,\"idleTimeoutMinutes\":15,"
              + "\"ipAccessList\":[],\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"encryptionKey\":null,"
              + "\"encryptionAssumedRoleIdentifier\":null,\"iamRole\":null,\"privateEndpointIds\":[],"
              + "\"availablePrivateEndpointIds\":[],\"dataWarehouseId\":\""
              + WAREHOUSE
              + "\","
              + "\"isPrimary\":true,\"isReadonly\":false,\"releaseChannel\":\"default\",\"byocId\":null,"
              + "\"hasTransparentDataEncryption\":false,\"profile\":null,\"complianceType\":null,"
              + "\"tags\":[],\"enableCoreDumps\":true,\"_organizationId\":\""
              + TestServers.ORG
              + "\","
              + "\"_passwordSalt\":\"AAAAAAAAAAAAAAAAAAAAAA==\",\"_passwordHash\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"}");
      sources.put(
          LOGS,
          legacySource(
              LOGS,
              "app-logs",
              "log",
              "\"Body\"",
              "\"Body\"",
              "[{\"name\":\"status\",\"type\":\"long\"}]",
              "otel_logs",
              "2026-01-01T00:00:01.000Z"));
      // The same name again: the previous version allowed it.
      sources.put(
          LOGS_AGAIN,
          legacySource(
              LOGS_AGAIN,
              "app-logs",
              "log",
              "\"Body\"",
              "\"Msg\"",
              "[]",
              "otel_logs",
              "2026-01-01T00:00:02.000Z"));
      sources.put(
          SPANS,
          legacySource(
              SPANS,
              "spans",
              "trace",
              "null",
              "null",
              "[]",
              "otel_traces",
              "2026-01-01T00:00:03.000Z"));
    }
  }

  static String legacySource(
      String id,
      String name,
      String kind,
      String body,
      String implicit,
      String columns,
      String table,
      String createdAt) {
    return "{\"name\":\""
        + name
        + "\",\"kind\":\""
        + kind
        + "\",\"timestampValueExpression\":\"Timestamp\","
        + "\"bodyExpression\":"
        + body
        + ",\"implicitColumnExpression\":"
        + implicit
        + ","
        + "\"serviceNameExpression\":null,\"severityTextExpression\":null,\"columns\":"
        + columns
        + ","
        + "\"from\":{\"databaseName\":\"default\",\"tableName\":\""
        + table
        + "\"},\"id\":\""
        + id
        + "\","
        + "\"createdAt\":\""
        + createdAt
        + "\",\"_warehouseId\":\""
        + WAREHOUSE
        + "\"}";
  }

  JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  @Test
  void eachOldSourceBecomesATableOfItsNameAndASourceOfIt() throws Exception {
    writePreviousVersion();
    start();
    JsonNode service =
        ok(http.send("GET", SERVICES + "/" + SERVICE_ID, null, "Authorization", ADMIN))
            .get("result");
    service.fields().forEachRemaining(f -> assertFalse(f.getValue().isNull(), f.getKey()));
    assertEquals(24, service.get("minTotalMemoryGb").intValue());
    String token =
        ok(http.send(
                "PATCH", SERVICES + "/" + SERVICE_ID + "/password", "{}", "Authorization", ADMIN))
            .get("result")
            .get("password")
            .textValue();

    JsonNode sources =
        ok(http.send(
                "GET",
                SERVICES + "/" + SERVICE_ID + "/clickstack/sources",
                null,
                "Authorization",
                ADMIN))
            .get("result");
    assertEquals(List.of(LOGS, LOGS_AGAIN, SPANS), ids(sources, "id"));
    JsonNode logs = sources.get(0);
    assertEquals("default", logs.get("connection").textValue());
    assertEquals(
        "{\"databaseName\":\"default\",\"tableName\":\"app-logs\"}", logs.get("from").toString());
    assertEquals("Timestamp, Body", logs.get("defaultTableSelectExpression").textValue());
    assertFalse(logs.has("columns") || logs.has("createdAt"), logs.toString());
    assertEquals("app-logs_" + LOGS_AGAIN, sources.get(1).get("from").get("tableName").textValue());
    JsonNode spans = sources.get(2);
    assertFalse(spans.has("bodyExpression"), "a trace has no body field");
    assertEquals("Duration", spans.get("durationExpression").textValue());

    JsonNode tables =
        ok(http.send("GET", "/api/v2/tables", null, "Authorization", "Bearer " + token))
            .get("data");
    assertEquals(
        List.of(LOGS, LOGS_AGAIN, SPANS), ids(tables, "id"), "the engine sources keep their ids");
    assertEquals(
        "[{\"name\":\"status\",\"type\":\"long\"}]", tables.get(0).get("columns").toString());
    assertEquals("Msg", tables.get(1).get("implicitColumn").textValue());
    assertTrue(tables.get(2).get("implicitColumn").isNull());

    // Ingestion and queries go through the migrated source to its table.
    HttpResponse<String> ingest =
        http.send(
            "POST",
            "/api/v2/sources/" + LOGS + "/events",
            "{\"Timestamp\":1767225600000,\"Body\":\"boom\",\"status\":\"500\"}",
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/x-ndjson");
    assertEquals("{\"accepted\":1,\"rejected\":0,\"errors\":[]}", ingest.body());
    JsonNode chart =
        ok(
            http.send(
                "POST",
                "/api/v2/charts/series",
                "{\"startTime\":1767225600000,\"endTime\":1767229200000,\"granularity\":\"1h\","
                    + "\"series\":[{\"sourceId\":\""
                    + LOGS
                    + "\",\"aggFn\":\"sum\",\"field\":\"status\",\"where\":\"boom\"}]}",
                "Authorization",
                "Bearer " + token));
    assertEquals(500.0, chart.get("data").get(0).get("series_0.data").doubleValue());

    JsonNode stamps =
        ok(http.send(
                "GET",
                "/api/v2/sources/" + LOGS + "/timestamps",
                null,
                "Authorization",
                "Bearer " + token))
            .get("data");
    assertEquals("2026-01-01T00:00:01.000Z", stamps.get("createdAt").textValue(), "kept");

    server.close();
    start();
    JsonNode again =
        ok(http.send("GET", "/api/v2/tables", null, "Authorization", "Bearer " + token))
            .get("data");
    assertEquals(3, again.size(), "migrated once");
  }

  static List<String> ids(JsonNode list, String field) {
    List<String> out = new ArrayList<>();
    list.forEach(n -> out.add(n.get(field).textValue()));
    return out;
  }
}
