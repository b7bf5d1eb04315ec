package dev.chartwell.server;

import static dev.chartwell.server.DataDirectoryIntegrationTest.ADMIN;
import static dev.chartwell.server.DataDirectoryIntegrationTest.MAPPER;
import static dev.chartwell.server.DataDirectoryIntegrationTest.SERVICES;
import static dev.chartwell.server.DataDirectoryIntegrationTest.admin;
import static dev.chartwell.server.DataDirectoryIntegrationTest.awaitRunning;
import static dev.chartwell.server.DataDirectoryIntegrationTest.count;
import static dev.chartwell.server.DataDirectoryIntegrationTest.ingest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.server.backup.BackupCommand;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups through {@code POST /api/v2/admin/backup} and {@code backup}, restored with {@code
 * restore}: the restored data directory serves exactly what was backed up, secrets included, and a
 * second backup into the same folder writes only what is new.
 */
class BackupIntegrationTest {
  static final String JSON = "application/json";

  @TempDir Path tmp;

  /** What a test made: the ids and the answers to compare after the restore. */
  record Made(String service, String token, String source, String webhook) {}

  static Made makeEverything(HttpTestClient http) throws Exception {
    JsonNode created =
        admin(
            http,
            "POST",
            SERVICES,
            "{\"name\":\"Keep\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String service = created.get("service").get("id").textValue();
    String token = created.get("password").textValue();
    awaitRunning(http, service);
    admin(
        http,
        "POST",
        "/v1/organizations/" + TestServers.ORG + "/keys",
        "{\"name\":\"ci\",\"roles\":[\"developer\"]}");
    String cs = SERVICES + "/" + service + "/clickstack";
    String source =
        admin(http, "POST", cs + "/sources", "{\"name\":\"logs\",\"kind\":\"log\"}")
            .get("id")
            .textValue();
    String webhook =
        admin(
                http,
                "POST",
                cs + "/webhooks",
                "{\"name\":\"on-call\",\"service\":\"generic\",\"url\":\"https://hooks.example.com/x\","
                    + "\"headers\":{\"X-Token\":\"header-secret\"},\"queryParams\":{\"k\":\"q-secret\"}}")
            .get("id")
            .textValue();
    JsonNode dashboard =
        admin(
            http,
            "POST",
            cs + "/dashboards",
            "{\"name\":\"Checkout\",\"tiles\":[{\"name\":\"Errors\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,"
                + "\"config\":{\"displayType\":\"line\",\"sourceId\":\""
                + source
                + "\",\"select\":[{\"aggFn\":\"count\"}]}}]}");
    admin(
        http,
        "POST",
        cs + "/alerts",
        "{\"dashboardId\":\""
            + dashboard.get("id").textValue()
            + "\",\"tileId\":\""
            + dashboard.get("tiles").get(0).get("id").textValue()
            + "\",\"threshold\":100,\"thresholdType\":\"above\",\"interval\":\"5m\","
            + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
            + webhook
            + "\"},\"name\":\"Too many\"}");
    admin(
        http,
        "POST",
        cs + "/saved-searches",
        "{\"name\":\"Errors\",\"sourceId\":\"" + source + "\",\"where\":\"error\"}");
    admin(
        http,
        "POST",
        cs + "/roles",
        "{\"name\":\"Bot\",\"permissions\":[{\"action\":\"read\",\"subject\":\"all\"}]}");
    HttpResponse<String> conn =
        http.send(
            "POST",
            "/api/v2/connections",
            "{\"name\":\"Prod\",\"host\":\"https://clickhouse.example.com:8443\","
                + "\"username\":\"reader\",\"password\":\"conn-secret\"}",
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(200, conn.statusCode(), conn.body());
    return new Made(service, token, source, webhook);
  }

  /** Every management answer, with what changes by itself (request ids, last use) left out. */
  static Map<String, JsonNode> answers(HttpTestClient http, Made m) throws Exception {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    String org = "/v1/organizations/" + TestServers.ORG;
    out.put("org", admin(http, "GET", org, null));
    JsonNode keys = admin(http, "GET", org + "/keys", null);
    keys.forEach(k -> ((ObjectNode) k).remove("usedAt"));
    out.put("keys", keys);
    out.put("services", admin(http, "GET", SERVICES, null));
    for (String r :
        List.of("sources", "dashboards", "alerts", "webhooks", "saved-searches", "roles")) {
      JsonNode list = admin(http, "GET", SERVICES + "/" + m.service() + "/clickstack/" + r, null);
      if (r.equals("alerts")) {
        list.forEach(a -> ((ObjectNode) a).remove(List.of("state", "executionErrors")));
      }
      out.put(r, list);
    }
    HttpResponse<String> conns =
        http.send("GET", "/api/v2/connections", null, "Authorization", "Bearer " + m.token());
    out.put("connections", MAPPER.readTree(conns.body()));
    return out;
  }

  /** Whether the table has a segment file and no head waiting to be sealed. */
  static boolean sealed(HttpTestClient http, String token) throws Exception {
    HttpResponse<String> r =
        http.send("GET", "/api/v2/stats", null, "Authorization", "Bearer " + token);
    JsonNode s = MAPPER.readTree(r.body()).get("data").get("sources").get(0);
    return s.get("segments").asInt() > 0 && s.get("sealBacklog").asInt() == 0;
  }

  static JsonNode backup(HttpTestClient http) throws Exception {
    HttpResponse<String> r =
        http.send(
            "POST", "/api/v2/admin/backup", null, "Authorization", ADMIN, "Content-Type", JSON);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  static String[] run(boolean restore, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        restore
            ? BackupCommand.restore(args, new PrintStream(out, true), new PrintStream(err, true))
            : BackupCommand.backup(args, new PrintStream(out, true), new PrintStream(err, true));
    return new String[] {
      String.valueOf(code),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void aRestoredBackupServesTheSameStateAndTheNextBackupIsIncremental() throws Exception {
    Path data = tmp.resolve("data");
    Path backups = tmp.resolve("backups");
    Made m;
    Map<String, JsonNode> before;
    JsonNode first;
    try (ChartwellServer server =
        TestServers.start(data, "--backup-dir", backups.toString(), "--max-memory", "16m")) {
      HttpTestClient http = new HttpTestClient(server.port());
      m = makeEverything(http);
      for (int i = 0; i < 4; i++) {
        assertEquals(200, ingest(http, m.token(), m.source(), 20_000).statusCode());
      }
      Await.until("a sealed segment", () -> sealed(http, m.token()));
      before = answers(http, m);
      first = backup(http);
      assertEquals("full", first.get("type").asText());
      assertEquals(80_000, first.get("sources").get(0).get("events").asLong(), first.toString());
      assertTrue(first.get("sources").get(0).get("segments").size() > 0, "sealed segments");

      assertEquals(200, ingest(http, m.token(), m.source(), 1_000).statusCode());
      JsonNode second = backup(http);
      assertEquals("incremental", second.get("type").asText(), second.toString());
      assertEquals(81_000, second.get("sources").get(0).get("events").asLong());
      int segments = first.get("sources").get(0).get("segments").size();
      assertEquals(
          segments,
          second.get("sources").get(0).get("reusedSegments").asInt(),
          "the second backup reuses the first one's segment files: " + second);
      try (Stream<Path> stored = Files.walk(backups.resolve("segments"))) {
        assertEquals(
            segments, stored.filter(Files::isRegularFile).count(), "each segment file once");
      }

      JsonNode listed = admin(http, "GET", SERVICES + "/" + m.service() + "/backups", null);
      assertEquals(2, listed.size(), listed.toString());
      JsonNode one = listed.get(0);
      assertEquals(first.get("id").asText(), one.get("id").asText());
      assertEquals("done", one.get("status").asText());
      assertEquals(m.service(), one.get("serviceId").asText());
      assertEquals("full", one.get("type").asText());
      assertTrue(one.get("sizeInBytes").isNumber() && one.get("durationInSeconds").isNumber());
      assertEquals(
          second.get("id").asText(),
          admin(
                  http,
                  "GET",
                  SERVICES + "/" + m.service() + "/backups/" + second.get("id").asText(),
                  null)
              .get("id")
              .asText());
    }
    try (Stream<Path> files = Files.walk(backups)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        assertFalse(OwnerOnly.isOpenToOthers(p), p + " is open to others");
      }
    }

    Path restored = tmp.resolve("restored");
    String[] r =
        run(
            true,
            "--from",
            backups.toString(),
            "--backup",
            first.get("id").asText(),
            "--data-dir",
            restored.toString());
    assertEquals("0", r[0], r[2]);
    try (ChartwellServer server = TestServers.start(restored)) {
      HttpTestClient http = new HttpTestClient(server.port());
      assertEquals(80_000, count(http, m.token(), m.source()), "the events of the first backup");
      assertEquals(before, answers(http, m));
    }
    assertSecrets(restored, "header-secret", "conn-secret");

    Files.createDirectories(tmp.resolve("full"));
    Files.writeString(tmp.resolve("full").resolve("x"), "x");
    String[] refused =
        run(true, "--from", backups.toString(), "--data-dir", tmp.resolve("full").toString());
    assertEquals("1", refused[0]);
    assertTrue(refused[2].contains("is not empty"), refused[2]);
  }

  /** The restored stores decrypt with the restored key. */
  static void assertSecrets(Path dataDir, String header, String password) throws Exception {
    Secrets secrets = Secrets.open(dataDir, Optional.empty());
    try (JsonStore hooks = JsonStore.open(dataDir, Collection.WEBHOOKS, MAPPER, secrets);
        JsonStore conns = JsonStore.open(dataDir, Collection.CONNECTIONS, MAPPER, secrets)) {
      assertEquals(header, hooks.list(x -> true).get(0).get("headers").get("X-Token").asText());
      assertEquals(password, conns.list(x -> true).get(0).get("password").asText());
    }
  }

  @Test
  void theOfflineBackupRefusesARunningServersDirectoryAndCopiesAStoppedOne() throws Exception {
    Path data = tmp.resolve("data");
    Path backups = tmp.resolve("offline");
    Made m;
    Map<String, JsonNode> before;
    try (ChartwellServer server = TestServers.start(data)) {
      HttpTestClient http = new HttpTestClient(server.port());
      m = makeEverything(http);
      assertEquals(200, ingest(http, m.token(), m.source(), 3_000).statusCode());
      before = answers(http, m);
      String[] refused = run(false, "--data-dir", data.toString(), "--to", backups.toString());
      assertEquals("1", refused[0]);
      assertTrue(refused[2].contains("POST /api/v2/admin/backup"), refused[2]);

      HttpResponse<String> none =
          http.send(
              "POST", "/api/v2/admin/backup", null, "Authorization", ADMIN, "Content-Type", JSON);
      assertEquals(409, none.statusCode(), none.body());
      assertTrue(none.body().contains("--backup-dir"), none.body());
    }
    String[] ok = run(false, "--data-dir", data.toString(), "--to", backups.toString());
    assertEquals("0", ok[0], ok[2]);
    assertTrue(ok[1].contains("3000 events"), ok[1]);
    Path restored = tmp.resolve("restored");
    assertEquals(
        "0", run(true, "--from", backups.toString(), "--data-dir", restored.toString())[0]);
    try (ChartwellServer server = TestServers.start(restored)) {
      HttpTestClient http = new HttpTestClient(server.port());
      assertEquals(3_000, count(http, m.token(), m.source()));
      assertEquals(before, answers(http, m));
    }
  }

  @Test
  void aDeveloperKeyMayNotTakeABackup() throws Exception {
    try (ChartwellServer server =
        TestServers.start(tmp.resolve("data"), "--backup-dir", tmp.resolve("b").toString())) {
      HttpTestClient http = new HttpTestClient(server.port());
      JsonNode key =
          admin(
              http,
              "POST",
              "/v1/organizations/" + TestServers.ORG + "/keys",
              "{\"name\":\"ci\",\"roles\":[\"developer\"]}");
      HttpResponse<String> r =
          http.send(
              "POST",
              "/api/v2/admin/backup",
              null,
              "Authorization",
              HttpTestClient.basic(key.get("keyId").asText(), key.get("keySecret").asText()),
              "Content-Type",
              JSON);
      assertEquals(403, r.statusCode(), r.body());
      assertFalse(Files.exists(tmp.resolve("b").resolve("backups")), "nothing written");
    }
  }
}
