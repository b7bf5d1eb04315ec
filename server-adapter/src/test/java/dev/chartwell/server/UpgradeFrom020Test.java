package dev.chartwell.server;

import static dev.chartwell.server.DataDirectoryIntegrationTest.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory written by Chartwell 0.2.0 (the fixture {@code upgrade/0.2.0/data.zip}: a
 * service, a source with events in a sealed segment file and in the write-ahead log, keys,
 * dashboards, an alert, a webhook with headers, a connection with a password, a saved search and a
 * role; see its README) is served unchanged by this version: every answer 0.2.0 recorded, the same
 * events, the same keys and service token. On its first start this version makes the files
 * owner-only and encrypts the secrets 0.2.0 kept in plain text.
 */
class UpgradeFrom020Test {
  static final String FIXTURE = "/upgrade/0.2.0/";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "fixture-secret-1");

  @TempDir Path tmp;

  @Test
  void aDataDirectoryOf020IsServedUnchanged() throws Exception {
    Path data = unzip(tmp);
    JsonNode ids = fixture("ids.json");
    String org = "/v1/organizations/" + ids.get("organization").asText();
    String cs = org + "/services/" + ids.get("service").asText() + "/clickstack";
    assertTrue(contains(data.resolve("webhooks.dat"), "q-secret"), "0.2.0 kept it in plain text");
    assertTrue(contains(data.resolve("connections.dat"), "my-secret-password"));

    try (ChartwellServer server = start(data)) {
      HttpTestClient http = new HttpTestClient(server.port());
      Map<String, String> paths =
          Map.of(
              "organization", org,
              "keys", org + "/keys",
              "services", org + "/services",
              "sources", cs + "/sources",
              "dashboards", cs + "/dashboards",
              "alerts", cs + "/alerts",
              "webhooks", cs + "/webhooks",
              "saved-searches", cs + "/saved-searches",
              "roles", cs + "/roles");
      for (Map.Entry<String, String> p : paths.entrySet()) {
        HttpResponse<String> r = http.send("GET", p.getValue(), null, "Authorization", ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(
            comparable(fixture("answers/" + p.getKey() + ".json")),
            comparable(MAPPER.readTree(r.body())),
            p.getKey());
      }
      String bearer = "Bearer " + ids.get("token").asText();
      HttpResponse<String> conns =
          http.send("GET", "/api/v2/connections", null, "Authorization", bearer);
      assertEquals(fixture("answers/connections.json"), MAPPER.readTree(conns.body()));
      HttpResponse<String> count =
          http.send(
              "POST",
              "/api/v2/charts/series",
              "{\"series\":[{\"sourceId\":\""
                  + ids.get("source").asText()
                  + "\",\"aggFn\":\"count\",\"where\":\"\"}],\"startTime\":1794000000000,"
                  + "\"endTime\":1796000000000,\"granularity\":\"auto\"}",
              "Authorization",
              bearer,
              "Content-Type",
              "application/json");
      assertEquals(200, count.statusCode(), count.body());
      assertEquals(fixture("answers/count.json"), MAPPER.readTree(count.body()), "30,700 events");

      JsonNode dev = fixture("developer-key.json").get("result");
      HttpResponse<String> asDeveloper =
          http.send(
              "GET",
              org + "/keys",
              null,
              "Authorization",
              HttpTestClient.basic(dev.get("keyId").asText(), dev.get("keySecret").asText()));
      assertEquals(200, asDeveloper.statusCode(), "0.2.0's developer key still signs in");
    }

    for (String f : List.of("webhooks.dat", "connections.dat")) {
      assertFalse(contains(data.resolve(f), "q-secret"), f);
      assertFalse(contains(data.resolve(f), "my-secret-password"), f);
    }
    Secrets secrets = Secrets.open(data, Optional.empty());
    try (JsonStore hooks = JsonStore.open(data, Collection.WEBHOOKS, MAPPER, secrets);
        JsonStore conns = JsonStore.open(data, Collection.CONNECTIONS, MAPPER, secrets)) {
      ObjectNode hook = hooks.list(x -> true).get(0);
      assertEquals("abc", hook.get("headers").get("X-Token").asText());
      assertEquals("q-secret", hook.get("queryParams").get("key").asText());
      assertEquals("my-secret-password", conns.list(x -> true).get(0).get("password").asText());
    }
    try (Stream<Path> files = Files.walk(data)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        assertTrue(p.equals(data) || !OwnerOnly.isOpenToOthers(p), p + " is open to others");
      }
    }
  }

  static ChartwellServer start(Path data) throws Exception {
    return ChartwellServer.start(
        ServerConfig.parse(
            new String[] {
              "--port", "0",
              "--data-dir", data.toString(),
              "--org-id", "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
              "--api-key", "ADMIN:fixture-secret-1",
              "--key-hash-iterations", "1000"
            },
            Map.of()),
        new java.io.PrintStream(OutputStream.nullOutputStream()),
        TestServers.FAST);
  }

  /** The answer's result without what changes by itself: request ids, last use, alert state. */
  static JsonNode comparable(JsonNode answer) {
    JsonNode result = answer.get("result").deepCopy();
    for (JsonNode n : result.isArray() ? result : List.of(result)) {
      if (n.has("keySuffix")) {
        ((ObjectNode) n).remove("usedAt"); // a key's last use
      } else if (n.has("thresholdType")) {
        ((ObjectNode) n).remove(List.of("state", "executionErrors")); // an alert's evaluation
      }
    }
    return result;
  }

  static JsonNode fixture(String name) throws Exception {
    try (InputStream in = UpgradeFrom020Test.class.getResourceAsStream(FIXTURE + name)) {
      return MAPPER.readTree(in);
    }
  }

  static boolean contains(Path file, String text) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    return new String(bytes, StandardCharsets.ISO_8859_1).contains(text);
  }

  /** Unpacks the fixture as 0.2.0 left it: files 0644, folders 0755. */
  static Path unzip(Path into) throws Exception {
    try (ZipInputStream zip =
        new ZipInputStream(UpgradeFrom020Test.class.getResourceAsStream(FIXTURE + "data.zip"))) {
      for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
        Path p = into.resolve(e.getName()).normalize();
        assertTrue(p.startsWith(into), e.getName());
        if (e.isDirectory()) {
          Files.createDirectories(p);
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
          Files.createDirectories(p.getParent());
          Files.copy(zip, p);
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
    return into.resolve("data");
  }
}
