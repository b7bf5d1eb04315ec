package dev.chartwell.server.hyperdx;

import static dev.chartwell.server.hyperdx.OutboundRequestsIntegrationTest.DESCRIBE;
import static dev.chartwell.server.hyperdx.OutboundRequestsIntegrationTest.connectionBody;
import static dev.chartwell.server.hyperdx.OutboundRequestsIntegrationTest.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.server.hyperdx.OutboundRequestsIntegrationTest.Fake;
import dev.chartwell.server.store.Secrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the server keeps on disk: a connection's password and a webhook's headers and query
 * parameters are nowhere in the data directory's files in plain text, yet still sent where they
 * belong after a restart; every file and folder the server made is owner-only; a data directory
 * left by an earlier version (plain secrets, files 0644) is brought up to both at the next start.
 */
class SecretsAtRestIntegrationTest {
  @TempDir Path dir;

  @Test
  void storedSecretsAreEncryptedAndEveryFileIsOwnerOnly() throws Exception {
    String password = "pw-" + UUID.randomUUID();
    String header = "hdr-" + UUID.randomUUID();
    String query = "qp-" + UUID.randomUUID();
    String connection;
    String hookId;
    try (Fake clickHouse = new Fake(200, Map.of(), DESCRIBE);
        Fake receiver = new Fake(200, Map.of(), "")) {
      V2Fixture first = new V2Fixture(dir);
      try (V2Fixture f = first) {
        connection =
            f.ok("POST", "/api/v2/connections", connectionBody(clickHouse.url(), password))
                .get("data")
                .get("id")
                .asText();
        hookId = webhook(f, receiver.url(), header, query);
        f.ok("POST", "/api/v2/sources", source(connection));
        assertEquals(List.of(password), clickHouse.passwords());
        String logs = f.logSource("otel_logs");
        var ingested =
            f.v2(
                "POST",
                "/api/v2/sources/" + logs + "/events",
                "{\"Timestamp\":\"2026-11-28T10:00:00Z\",\"Body\":\"one\"}\n");
        assertEquals(200, ingested.statusCode(), ingested.body());
      }
      for (String secret : List.of(password, header, query)) {
        assertEquals(List.of(), filesHolding(dir, secret), secret + " is stored in plain text");
      }
      assertEquals(List.of(), openToOthers(dir));

      // After a restart the secrets decrypt and go where they belong.
      try (V2Fixture f = new V2Fixture(dir, first)) {
        f.ok("POST", "/api/v2/sources", source(connection));
        assertEquals(List.of(password, password), clickHouse.passwords());
        testWebhook(f, hookId);
        Fake.Seen seen = receiver.seen.get(receiver.seen.size() - 1);
        assertTrue(seen.uri().contains("token=" + query), seen.uri());
      }
    }
  }

  @Test
  void aDataDirectoryOfAnEarlierVersionIsEncryptedAndTightenedAtStart() throws Exception {
    String header = "hdr-" + UUID.randomUUID();
    String hookId;
    V2Fixture first = new V2Fixture(dir);
    try (V2Fixture f = first) {
      hookId = webhook(f, "http://127.0.0.1:9/hook", header, "q");
    }
    // As an earlier version left it: the webhook's headers in plain text, files 0644, folders 0755.
    try (var store =
        dev.chartwell.server.store.DocumentStore.open(
            dir, dev.chartwell.server.store.Collection.WEBHOOKS)) {
      JsonNode doc = V2Fixture.MAPPER.readTree(store.get(hookId).orElseThrow());
      ((com.fasterxml.jackson.databind.node.ObjectNode) doc)
          .set("headers", V2Fixture.MAPPER.createObjectNode().put("X-Secret", header));
      store.put(hookId, doc.toString());
    }
    assertEquals(1, filesHolding(dir, header).size());
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.toList()) {
        Files.setPosixFilePermissions(
            p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    try (V2Fixture f = new V2Fixture(dir, first)) {
      JsonNode hooks = f.ok("GET", "/api/v2/webhooks", null);
      assertEquals(hookId, hooks.get("data").get(0).get("id").asText());
    }
    assertEquals(List.of(), filesHolding(dir, header));
    assertEquals(List.of(), openToOthers(dir));
  }

  @Test
  void aServerStartedWithAnotherKeyRefusesToStart() throws Exception {
    try (V2Fixture f = new V2Fixture(dir)) {
      assertTrue(Files.exists(dir.resolve(Secrets.KEY_FILE)));
    }
    Path other = dir.resolveSibling(dir.getFileName() + "-other.key");
    Files.writeString(
        other, java.util.Base64.getEncoder().encodeToString(new byte[32]), StandardCharsets.UTF_8);
    IOException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IOException.class,
            () -> new V2Fixture(dir, "--secrets-key-file", other.toString()).close());
    assertTrue(
        e.getMessage().contains("is not the key this data directory's stored secrets were"),
        e.getMessage());
    Files.delete(other);
  }

  private static String webhook(V2Fixture f, String url, String header, String query)
      throws Exception {
    return f.cloud(
            "POST",
            f.clickstack("webhooks"),
            "{\"name\":\"w\",\"service\":\"generic\",\"url\":\""
                + url
                + "\",\"headers\":{\"X-Secret\":\""
                + header
                + "\"},\"queryParams\":{\"token\":\""
                + query
                + "\"}}")
        .get("id")
        .asText();
  }

  private static void testWebhook(V2Fixture f, String hookId) throws Exception {
    var r =
        f.http.send(
            "POST",
            f.clickstack("webhooks") + "/" + hookId + "/test",
            "{}",
            "Authorization",
            V2Fixture.ADMIN,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    JsonNode result = V2Fixture.MAPPER.readTree(r.body()).get("result");
    assertTrue(result.get("delivered").asBoolean(), result.toString());
  }

  /** The files under a folder whose bytes contain the text (UTF-8). */
  static List<Path> filesHolding(Path root, String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    List<Path> found = new ArrayList<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        if (indexOf(Files.readAllBytes(p), needle) >= 0) {
          found.add(root.relativize(p));
        }
      }
    }
    return found;
  }

  /** The files and folders under a folder (itself included) that others may read or enter. */
  static List<Path> openToOthers(Path root) throws IOException {
    List<Path> open = new ArrayList<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.toList()) {
        if (OwnerOnly.isOpenToOthers(p)) {
          open.add(root.relativize(p));
        }
      }
    }
    return open;
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void helpersFindWhatTheyLookFor() throws Exception {
    Path f = Files.writeString(dir.resolve("x"), "abc-secret-def");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
    assertEquals(List.of(Path.of("x")), filesHolding(dir, "secret"));
    assertFalse(openToOthers(dir).isEmpty());
  }
}
