package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.DocumentStore;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a credential is found and checked: an API key secret costs one slow hash until it changes,
 * and a service token one index lookup and at most one check, however many services there are.
 */
class CredentialLookupTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Secrets SECRETS = Secrets.of(new byte[32]);
  private static final Authenticator BASIC = new Authenticator.Basic((u, p, c) -> null);
  private static final Organization ORG =
      new Organization(
          "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "o", "SCALE", true, "2026-01-01T00:00:00Z", null);

  @TempDir Path dir;

  @Test
  void aVerifiedApiKeySecretIsRememberedUntilTheKeyChanges() throws Exception {
    SecretHasher hasher = new SecretHasher(SecretHasher.MIN_ITERATIONS);
    try (DocumentStore store = DocumentStore.open(dir, Collection.API_KEYS)) {
      ApiKeys keys = new ApiKeys(store, MAPPER, hasher, Clock.systemUTC(), SECRETS);
      keys.putAdmin("K", ORG.id(), "first-secret");
      long start = hasher.slowHashes();
      for (int i = 0; i < 100; i++) {
        assertEquals("K", keys.verify("K", "first-secret", BASIC).keyId());
      }
      assertEquals(start + 1, hasher.slowHashes(), "one slow hash for a hundred requests");
      for (int i = 0; i < 3; i++) {
        assertThrows(ApiException.class, () -> keys.verify("K", "wrong-secret", BASIC));
      }
      assertEquals(start + 4, hasher.slowHashes(), "a wrong secret is never remembered");
      keys.putAdmin("K", ORG.id(), "second-secret");
      assertThrows(ApiException.class, () -> keys.verify("K", "first-secret", BASIC));
      assertEquals("K", keys.verify("K", "second-secret", BASIC).keyId());
      keys.remove("K");
      assertThrows(ApiException.class, () -> keys.verify("K", "second-secret", BASIC));
    }
  }

  @Test
  void aServiceTokenIsFoundByItsIndexNotByCheckingEveryService() throws Exception {
    SecretHasher hasher = new SecretHasher(SecretHasher.MIN_ITERATIONS);
    List<String> ids = new ArrayList<>();
    List<String> tokens = new ArrayList<>();
    try (Services services = open(hasher)) {
      JsonNode body =
          MAPPER.readTree("{\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
      for (int i = 0; i < 200; i++) {
        Services.Created c = services.create(ORG, body);
        ids.add(c.service().get("id").asText());
        tokens.add(c.password());
      }
      long before = hasher.digestChecks();
      for (int i = 0; i < 50; i++) {
        assertFalse(services.byToken("not-a-token-" + i).isPresent());
      }
      assertEquals(before, hasher.digestChecks(), "an unknown token costs no check at all");
      assertEquals(
          ids.get(137), services.byToken(tokens.get(137)).orElseThrow().get("id").asText());
      assertEquals(before + 1, hasher.digestChecks(), "a known token is checked once");

      String rotated =
          services.rotatePassword(ORG.id(), ids.get(137), Optional.empty()).orElseThrow();
      assertFalse(services.byToken(tokens.get(137)).isPresent(), "the old token stops at once");
      assertEquals(ids.get(137), services.byToken(rotated).orElseThrow().get("id").asText());
    }
  }

  @Test
  void aCheckedTokenIsRememberedUntilTheServicesChange() throws Exception {
    SecretHasher hasher = new SecretHasher(SecretHasher.MIN_ITERATIONS);
    try (Services services = open(hasher)) {
      JsonNode body =
          MAPPER.readTree("{\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
      Services.Created a = services.create(ORG, body);
      Services.Created b = services.create(ORG, body);
      String aId = a.service().get("id").asText();
      String bId = b.service().get("id").asText();
      long before = hasher.digestChecks();
      for (int i = 0; i < 100; i++) {
        assertEquals(aId, services.byToken(a.password()).orElseThrow().get("id").asText());
      }
      assertEquals(before + 1, hasher.digestChecks(), "one check for a hundred requests");

      // any change to the services (here another service's password) checks the token again
      String bRotated = services.rotatePassword(ORG.id(), bId, Optional.empty()).orElseThrow();
      assertEquals(aId, services.byToken(a.password()).orElseThrow().get("id").asText());
      assertEquals(before + 2, hasher.digestChecks(), "checked again after a change");
      assertFalse(services.byToken(b.password()).isPresent(), "b's old token stops at once");
      assertEquals(bId, services.byToken(bRotated).orElseThrow().get("id").asText());

      // the remembered token stops with its own rotation, and the service's document is current
      services.byToken(a.password()).orElseThrow().put("name", "changed by the caller");
      assertEquals("S", services.byToken(a.password()).orElseThrow().get("name").asText());
      String aRotated = services.rotatePassword(ORG.id(), aId, Optional.empty()).orElseThrow();
      assertFalse(services.byToken(a.password()).isPresent(), "the old token stops at once");
      assertEquals(aId, services.byToken(aRotated).orElseThrow().get("id").asText());
    }
  }

  @Test
  void servicesStoredBeforeTheIndexAreIndexedOnFirstUse() throws Exception {
    SecretHasher hasher = new SecretHasher(SecretHasher.MIN_ITERATIONS);
    String id;
    String token;
    try (Services services = open(hasher)) {
      Services.Created c =
          services.create(
              ORG,
              MAPPER.readTree("{\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"));
      id = c.service().get("id").asText();
      token = c.password();
    }
    try (JsonStore raw = JsonStore.open(dir, Collection.SERVICES, MAPPER)) {
      raw.compute(id, s -> (ObjectNode) s.without("_tokenIndex")); // as 0.2 stored it
    }
    try (Services services = open(hasher)) {
      assertEquals(id, services.byToken(token).orElseThrow().get("id").asText());
      long before = hasher.digestChecks();
      assertFalse(services.byToken("unknown").isPresent());
      assertEquals(before, hasher.digestChecks(), "indexed now: nothing left to search");
    }
    try (JsonStore raw = JsonStore.open(dir, Collection.SERVICES, MAPPER)) {
      assertTrue(raw.get(id).orElseThrow().hasNonNull("_tokenIndex"));
    }
  }

  private Services open(SecretHasher hasher) throws Exception {
    return Services.open(
        dir,
        MAPPER,
        Clock.systemUTC(),
        Duration.ZERO,
        new TransitionTimer() {
          @Override
          public void schedule(Runnable completion, long delayMillis) {
            completion.run();
          }

          @Override
          public void close() {}
        },
        gone -> {},
        SECRETS,
        hasher);
  }
}
