package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.MutableClock;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.DocumentStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API keys as the ClickHouse Cloud document has them: a UUID id apart from the Basic key id, get
 * and update by UUID, assigned system roles, state, expiry, IP access lists, last use, and keys
 * written before keys had UUIDs.
 */
class KeyLifecycleIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String KEYS = "/v1/organizations/" + TestServers.ORG + "/keys";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  /** The time keys expire by, moved by the test rather than waited for. */
  final MutableClock clock = new MutableClock(Instant.now());

  void start() throws Exception {
    server =
        TestServers.start(dataDir, new ChartwellServer.Overrides(clock, true, Duration.ZERO, null));
    http = new HttpTestClient(server.port());
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  JsonNode create(String body) throws Exception {
    return ok(http.send("POST", KEYS, body, "Authorization", ADMIN));
  }

  static String basic(JsonNode created) {
    return HttpTestClient.basic(
        created.get("keyId").textValue(), created.get("keySecret").textValue());
  }

  @Test
  void getAndUpdateByUuidWithAssignedRoles() throws Exception {
    start();
    JsonNode created =
        create(
            "{\"name\":\"tf\",\"roles\":[],\"assignedRoleIds\":[\""
                + SystemRole.DEVELOPER.id()
                + "\"],\"ipAccessList\":[]}");
    JsonNode key = created.get("key");
    String uuid = key.get("id").textValue();
    assertEquals("[\"developer\"]", key.get("roles").toString());
    assertEquals(
        "[{\"roleId\":\""
            + SystemRole.DEVELOPER.id()
            + "\",\"roleName\":\"Developer\",\"roleType\":\"system\"}]",
        key.get("assignedRoles").toString());
    assertFalse(key.has("expireAt") || key.has("usedAt"), key.toString());
    assertEquals(key, ok(http.send("GET", KEYS + "/" + uuid, null, "Authorization", ADMIN)));

    JsonNode renamed =
        ok(
            http.send(
                "PATCH",
                KEYS + "/" + uuid,
                "{\"name\":\"tf-2\",\"assignedRoleIds\":[\"" + SystemRole.ADMIN.id() + "\"]}",
                "Authorization",
                ADMIN));
    assertEquals("tf-2", renamed.get("name").textValue());
    assertEquals("[\"admin\"]", renamed.get("roles").toString());
    // Empty lists, as generated clients send by default, leave the roles alone.
    JsonNode same =
        ok(
            http.send(
                "PATCH",
                KEYS + "/" + uuid,
                "{\"roles\":[],\"assignedRoleIds\":[]}",
                "Authorization",
                ADMIN));
    assertEquals("[\"admin\"]", same.get("roles").toString());
    // Now an admin: it may write.
    ok(
        http.send(
            "POST",
            KEYS,
            "{\"name\":\"n\",\"roles\":[\"developer\"]}",
            "Authorization",
            basic(created)));
    assertEquals(
        "NOT_FOUND: API key 5f1a77f0-0000-4000-8000-000000000000 does not exist",
        error(
            http.send(
                "GET",
                KEYS + "/5f1a77f0-0000-4000-8000-000000000000",
                null,
                "Authorization",
                ADMIN),
            404));
    ok(http.send("DELETE", KEYS + "/" + uuid, null, "Authorization", ADMIN));
    assertEquals(401, http.send("GET", KEYS, null, "Authorization", basic(created)).statusCode());
  }

  @Test
  void disabledAndExpiredKeysAreRefusedAndUseIsRecorded() throws Exception {
    start();
    JsonNode created =
        create("{\"name\":\"off\",\"roles\":[\"developer\"],\"state\":\"disabled\"}");
    String uuid = created.get("key").get("id").textValue();
    assertEquals("disabled", created.get("key").get("state").textValue());
    assertEquals(
        "UNAUTHORIZED: API key " + created.get("keyId").textValue() + " is disabled",
        error(http.send("GET", KEYS, null, "Authorization", basic(created)), 401));
    ok(http.send("PATCH", KEYS + "/" + uuid, "{\"state\":\"enabled\"}", "Authorization", ADMIN));
    ok(http.send("GET", KEYS, null, "Authorization", basic(created)));
    JsonNode used = ok(http.send("GET", KEYS + "/" + uuid, null, "Authorization", ADMIN));
    assertTrue(used.get("usedAt").textValue().endsWith(":00Z"), used.toString());

    String soon = clock.instant().plusMillis(1500).toString();
    JsonNode expiring =
        create("{\"name\":\"brief\",\"roles\":[\"developer\"],\"expireAt\":\"" + soon + "\"}");
    assertEquals(soon, expiring.get("key").get("expireAt").textValue());
    ok(http.send("GET", KEYS, null, "Authorization", basic(expiring)));
    clock.advance(Duration.ofMillis(1700));
    String e = error(http.send("GET", KEYS, null, "Authorization", basic(expiring)), 401);
    assertTrue(e.contains("expired at " + soon), e);
    // null clears the expiry ("never expires")
    ok(
        http.send(
            "PATCH",
            KEYS + "/" + expiring.get("key").get("id").textValue(),
            "{\"expireAt\":null}",
            "Authorization",
            ADMIN));
    ok(http.send("GET", KEYS, null, "Authorization", basic(expiring)));
  }

  @Test
  void theIpAccessListIsEnforced() throws Exception {
    start();
    JsonNode created =
        create(
            "{\"name\":\"vpn\",\"roles\":[\"admin\"],\"ipAccessList\":[{\"source\":\"10.0.0.0/8\",\"description\":\"vpn\"}]}");
    assertEquals(
        "[{\"source\":\"10.0.0.0/8\",\"description\":\"vpn\"}]",
        created.get("key").get("ipAccessList").toString());
    String e = error(http.send("GET", KEYS, null, "Authorization", basic(created)), 403);
    assertEquals(
        "FORBIDDEN: API key "
            + created.get("keyId").textValue()
            + " may not be used from 127.0.0.1 (see its ipAccessList)",
        e);
    assertEquals(
        403,
        http.send("GET", "/v1/organizations", null, "Authorization", basic(created)).statusCode());
    ok(
        http.send(
            "PATCH",
            KEYS + "/" + created.get("key").get("id").textValue(),
            "{\"ipAccessList\":[{\"source\":\"10.0.0.0/8\"},{\"source\":\"127.0.0.0/8\"}]}",
            "Authorization",
            ADMIN));
    ok(http.send("GET", KEYS, null, "Authorization", basic(created)));
  }

  @Test
  void theLastEnabledAdminKeyCannotBeDisabledOrDemoted() throws Exception {
    start();
    String uuid =
        ok(http.send("GET", KEYS + "/ADMIN", null, "Authorization", ADMIN)).get("id").textValue();
    String expected =
        "CONFLICT: API key ADMIN is the last enabled admin key of the organization; it must stay an"
            + " enabled admin key";
    assertEquals(
        expected,
        error(
            http.send(
                "PATCH", KEYS + "/" + uuid, "{\"state\":\"disabled\"}", "Authorization", ADMIN),
            409));
    assertEquals(
        expected,
        error(
            http.send(
                "PATCH", KEYS + "/" + uuid, "{\"roles\":[\"developer\"]}", "Authorization", ADMIN),
            409));
    ok(http.send("GET", KEYS, null, "Authorization", ADMIN));
  }

  @Test
  void keysWrittenBeforeKeysHadUuidsGetOneAndKeepWorking() throws Exception {
    start();
    server.close();
    server = null;
    SecretHasher.Hashed h = legacyHash("oldsecret1");
    try (DocumentStore keys = DocumentStore.open(dataDir, Collection.API_KEYS)) {
      // The document exactly as the previous version wrote it.
      keys.put(
          "OLDKEY",
          "{\"keyId\":\"OLDKEY\",\"organizationId\":\""
              + TestServers.ORG
              + "\",\"name\":\"old\",\"roles\":[\"developer\"],\"salt\":\""
              + h.salt()
              + "\",\"hash\":\""
              + h.hash()
              + "\",\"createdAt\":\"2026-01-01T00:00:00Z\"}");
    }
    start();
    String old = HttpTestClient.basic("OLDKEY", "oldsecret1");
    JsonNode list = ok(http.send("GET", KEYS, null, "Authorization", old));
    JsonNode key = list.get(0);
    assertEquals("old", key.get("name").textValue());
    assertTrue(KeyApiIntegrationTest.isUuid(key.get("id").textValue()), key.toString());
    assertEquals("enabled", key.get("state").textValue());
    assertEquals(
        key.get("id"),
        ok(http.send("GET", KEYS + "/" + key.get("id").textValue(), null, "Authorization", old))
            .get("id"));
    server.close();
    server = null;
    // Its first successful use stored the secret again, hashed as this version hashes.
    try (DocumentStore keys = DocumentStore.open(dataDir, Collection.API_KEYS)) {
      String stored =
          new ObjectMapper().readTree(keys.get("OLDKEY").orElseThrow()).get("hash").asText();
      assertTrue(stored.startsWith("pbkdf2-sha256:"), stored);
    }
    start();
    assertEquals(
        key.get("id"), ok(http.send("GET", KEYS, null, "Authorization", old)).get(0).get("id"));
  }

  /** A secret hashed as versions before 0.3 hashed it: one round of salted SHA-256. */
  private static SecretHasher.Hashed legacyHash(String secret) throws Exception {
    byte[] salt = new byte[16];
    new java.security.SecureRandom().nextBytes(salt);
    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
    sha.update(salt);
    sha.update(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
    return new SecretHasher.Hashed(b64.encodeToString(salt), b64.encodeToString(sha.digest()));
  }
}
