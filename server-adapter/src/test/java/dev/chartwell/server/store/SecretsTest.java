package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void theKeyIsMadeOnceOwnerOnlyAndKept() throws Exception {
    Secrets first = Secrets.open(dir, Optional.empty());
    Path key = dir.resolve(Secrets.KEY_FILE);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve(Secrets.CHECK_FILE))));
    String sealed = first.encrypt("hunter2", "connections/a/password");
    Secrets again = Secrets.open(dir, Optional.empty());
    assertEquals("hunter2", again.decrypt(sealed, "connections/a/password"));
    assertEquals(
        first.index("t", new byte[] {1, 2}), again.index("t", new byte[] {1, 2}), "same key");
  }

  @Test
  void aCiphertextIsBoundToItsPlaceAndFreshEachTime() {
    Secrets s = Secrets.of(new byte[32]);
    String a = s.encrypt("v", "webhooks/1/headers");
    assertNotEquals(a, s.encrypt("v", "webhooks/1/headers"), "a fresh nonce each time");
    assertTrue(Secrets.isEncrypted(a));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> s.decrypt(a, "webhooks/2/headers"));
    assertTrue(e.getMessage().contains("webhooks/2/headers does not decrypt"), e.getMessage());
    assertThrows(
        IllegalStateException.class,
        () -> Secrets.of(filled(7)).decrypt(a, "webhooks/1/headers"),
        "another key");
    assertNotEquals(s.index("a", new byte[] {1}), s.index("b", new byte[] {1}), "purposes apart");
  }

  @Test
  void aKeyFileOutsideTheDataDirectoryIsUsedAndChecked() throws Exception {
    Path keyFile = dir.resolve("outside.key");
    Path data = Files.createDirectory(dir.resolve("data"));
    IOException missing =
        assertThrows(IOException.class, () -> Secrets.open(data, Optional.of(keyFile)));
    assertTrue(
        missing.getMessage().contains("head -c 32 /dev/urandom | base64"), missing.getMessage());
    Files.writeString(keyFile, "not base64 !!", StandardCharsets.US_ASCII);
    IOException bad =
        assertThrows(IOException.class, () -> Secrets.open(data, Optional.of(keyFile)));
    assertTrue(bad.getMessage().contains("must hold 32 random bytes in base64"), bad.getMessage());
    Files.writeString(keyFile, Base64.getEncoder().encodeToString(filled(1)) + "\n");
    String sealed = Secrets.open(data, Optional.of(keyFile)).encrypt("x", "c");
    assertTrue(Files.notExists(data.resolve(Secrets.KEY_FILE)), "no key made beside the data");
    assertEquals("x", Secrets.open(data, Optional.of(keyFile)).decrypt(sealed, "c"));
    Files.writeString(keyFile, Base64.getEncoder().encodeToString(filled(2)));
    IOException other =
        assertThrows(IOException.class, () -> Secrets.open(data, Optional.of(keyFile)));
    assertTrue(
        other.getMessage().contains("is not the key this data directory's stored secrets"),
        other.getMessage());
  }

  @Test
  void secretFieldsAreEncryptedInTheFileAndPlainInTheObjects() throws Exception {
    Secrets secrets = Secrets.of(filled(3));
    ObjectNode hook = MAPPER.createObjectNode().put("id", "h1").put("url", "https://x/");
    hook.putObject("headers").put("X-Token", "header-secret");
    hook.putObject("queryParams").put("key", "query-secret");
    try (JsonStore store = JsonStore.open(dir, Collection.WEBHOOKS, MAPPER, secrets)) {
      store.put("h1", hook);
      assertEquals("header-secret", hook.get("headers").get("X-Token").asText(), "left plain");
      assertEquals(hook, store.get("h1").orElseThrow());
      assertEquals(hook, store.list(any -> true).get(0));
      store.compute("h1", h -> h.put("name", "renamed"));
      assertEquals(
          "query-secret", store.get("h1").orElseThrow().get("queryParams").get("key").asText());
    }
    try (DocumentStore raw = DocumentStore.open(dir, Collection.WEBHOOKS)) {
      String stored = raw.get("h1").orElseThrow();
      assertTrue(!stored.contains("header-secret") && !stored.contains("query-secret"), stored);
      assertTrue(stored.contains("https://x/") && stored.contains("renamed"), stored);
    }
  }

  @Test
  void plainSecretsOfAnEarlierVersionAreEncryptedWhenTheStoreOpens() throws Exception {
    try (DocumentStore raw = DocumentStore.open(dir, Collection.CONNECTIONS)) {
      raw.put("c1", "{\"id\":\"c1\",\"host\":\"http://h:8123\",\"password\":\"old-plain\"}");
      raw.put("c2", "{\"id\":\"c2\",\"host\":\"http://h:8123\"}");
    }
    Secrets secrets = Secrets.of(filled(4));
    try (JsonStore store = JsonStore.open(dir, Collection.CONNECTIONS, MAPPER, secrets)) {
      assertEquals("old-plain", store.get("c1").orElseThrow().get("password").asText());
      assertTrue(store.get("c2").orElseThrow().path("password").isMissingNode());
    }
    try (DocumentStore raw = DocumentStore.open(dir, Collection.CONNECTIONS)) {
      assertTrue(!raw.get("c1").orElseThrow().contains("old-plain"));
      assertEquals("{\"id\":\"c2\",\"host\":\"http://h:8123\"}", raw.get("c2").orElseThrow());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> JsonStore.open(dir, Collection.CONNECTIONS, MAPPER),
        "a collection with secrets needs the key");
  }

  private static byte[] filled(int b) {
    byte[] k = new byte[32];
    java.util.Arrays.fill(k, (byte) b);
    return k;
  }
}
