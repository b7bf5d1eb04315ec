package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory over the server's lifetime: small when empty, events kept across restarts, and
 * a deleted source or service takes its files with it.
 */
class DataDirectoryIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;

  /** Real disk space (allocated blocks) in KiB, as {@code du -sk} counts it. */
  static long diskKib(Path dir) throws Exception {
    Process du = new ProcessBuilder("du", "-sk", dir.toString()).start();
    String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, du.waitFor(), "du -sk " + dir);
    return Long.parseLong(out.split("\\s+")[0]);
  }

  @Test
  void anEmptyDataDirectoryTakesAtMost32MbOfDisk() throws Exception {
    try (ChartwellServer server = TestServers.start(dataDir)) {
      assertEquals(
          200, new HttpTestClient(server.port()).send("GET", "/health", null).statusCode());
    }
    long kib = diskKib(dataDir);
    assertTrue(kib <= 32 * 1024, "an empty data directory takes " + kib + " KiB");
  }

  @Test
  void eventsComeBackAfterARestartAndDeletedTablesAndServicesTakeTheirFiles() throws Exception {
    String serviceId;
    String token;
    String kept;
    String keptTable;
    String deleted;
    try (ChartwellServer server = TestServers.start(dataDir)) {
      HttpTestClient http = new HttpTestClient(server.port());
      JsonNode created =
          admin(
              http,
              "POST",
              SERVICES,
              "{\"name\":\"Keep\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
      serviceId = created.get("service").get("id").textValue();
      token = created.get("password").textValue();
      awaitRunning(http, serviceId);
      kept = source(http, serviceId, "kept");
      deleted = source(http, serviceId, "deleted");
      assertEquals(200, ingest(http, token, kept, 3_000).statusCode());
      assertEquals(200, ingest(http, token, deleted, 1_000).statusCode());
      keptTable = tableId(http, token, "kept");
      String deletedTable = tableId(http, token, "deleted");
      assertTrue(Files.isDirectory(engineTable(deletedTable)));
      admin(http, "DELETE", SERVICES + "/" + serviceId + "/clickstack/sources/" + deleted, null);
      assertTrue(Files.isDirectory(engineTable(deletedTable)), "a source's table outlives it");
      HttpResponse<String> gone =
          http.send(
              "DELETE", "/api/v2/tables/default/deleted", null, "Authorization", "Bearer " + token);
      assertEquals(200, gone.statusCode(), gone.body());
      assertFalse(Files.exists(engineTable(deletedTable)), "a deleted table's files go");
    }
    try (ChartwellServer server = TestServers.start(dataDir)) {
      HttpTestClient http = new HttpTestClient(server.port());
      assertEquals(3_000, count(http, token, kept), "after a restart");
      admin(http, "PATCH", SERVICES + "/" + serviceId + "/state", "{\"command\":\"stop\"}");
      Await.until("the service stopped", () -> state(http, serviceId).equals("stopped"));
      admin(http, "DELETE", SERVICES + "/" + serviceId, null); // terminating, then gone
      // its warehouse's tables go with it
      Await.until("the deleted service's table gone", () -> !Files.exists(engineTable(keptTable)));
    }
  }

  static String tableId(HttpTestClient http, String token, String table) throws Exception {
    HttpResponse<String> r =
        http.send(
            "GET", "/api/v2/tables/default/" + table, null, "Authorization", "Bearer " + token);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("data").get("id").textValue();
  }

  private Path engineTable(String id) {
    return dataDir.resolve("engine").resolve("sources").resolve(id);
  }

  static JsonNode admin(HttpTestClient http, String method, String path, String body)
      throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  static String state(HttpTestClient http, String serviceId) throws Exception {
    return admin(http, "GET", SERVICES + "/" + serviceId, null).get("state").textValue();
  }

  static void awaitRunning(HttpTestClient http, String serviceId) throws Exception {
    Await.until("the service running", () -> state(http, serviceId).equals("running"));
  }

  static String source(HttpTestClient http, String serviceId, String name) throws Exception {
    return admin(
            http,
            "POST",
            SERVICES + "/" + serviceId + "/clickstack/sources",
            "{\"name\":\"" + name + "\",\"kind\":\"log\"}")
        .get("id")
        .textValue();
  }

  static HttpResponse<String> ingest(HttpTestClient http, String token, String source, int n)
      throws Exception {
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < n; i++) {
      ndjson
          .append("{\"Timestamp\":")
          .append(1767225600000L + i)
          .append(",\"Body\":\"e ")
          .append(i);
      ndjson.append("\"}\n");
    }
    return http.send(
        "POST",
        "/api/v2/sources/" + source + "/events",
        ndjson.toString(),
        "Authorization",
        "Bearer " + token,
        "Content-Type",
        "application/x-ndjson");
  }

  static long count(HttpTestClient http, String token, String source) throws Exception {
    HttpResponse<String> r =
        http.send(
            "POST",
            "/api/v2/charts/series",
            "{\"startTime\":1767225600000,\"endTime\":1767312000000,\"granularity\":\"1d\","
                + "\"series\":[{\"sourceId\":\""
                + source
                + "\",\"aggFn\":\"count\"}]}",
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    long total = 0;
    for (JsonNode row : MAPPER.readTree(r.body()).get("data")) {
      total += row.get("series_0.data").longValue();
    }
    return total;
  }
}
