package dev.chartwell.server.management;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.store.DocumentStore;
import dev.chartwell.server.store.Secrets;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The API keys of every organization, durable under the data directory, keyed by the key id that
 * clients send as their HTTP Basic user name. Each key also has a UUID, by which the API's paths
 * name it; for the keys Chartwell generates, the two are the same UUID. Keys written before keys
 * had UUIDs get one when the store opens.
 *
 * <p>Secrets are hashed slowly ({@link SecretHasher}), so a secret that verified is remembered, by
 * the HMAC of key id and secret under the server's key (never the secret itself), together with the
 * stored hash it matched: a busy client pays the slow hash once, and a changed or deleted key is
 * checked afresh. A hash stored by an earlier version is replaced on the key's next successful use.
 */
final class ApiKeys {
  private final DocumentStore keys;
  private final ObjectMapper mapper;
  private final SecretHasher hasher;
  private final Clock clock;
  private final Secrets secrets;

  /** Verified secrets: HMAC of key id and secret to the stored hash they matched. */
  private final Map<String, String> verified =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
              return size() > MAX_VERIFIED;
            }
          });

  private static final int MAX_VERIFIED = 10_000;

  ApiKeys(
      DocumentStore keys, ObjectMapper mapper, SecretHasher hasher, Clock clock, Secrets secrets) {
    this.keys = keys;
    this.mapper = mapper;
    this.hasher = hasher;
    this.clock = clock;
    this.secrets = secrets;
    for (StoredKey k : all()) {
      if (k.id() == null) {
        write(
            new StoredKey(
                UUID.randomUUID().toString(),
                k.keyId(),
                k.organizationId(),
                k.name(),
                k.roles(),
                k.salt(),
                k.hash(),
                k.createdAt(),
                "enabled",
                null,
                List.of(),
                null));
      }
    }
  }

  /**
   * Checks HTTP Basic credentials, and notes (to the minute) that the key was used.
   *
   * @param keyId the user name
   * @param secret the password
   * @param scheme the authenticator, for the 401's challenge
   * @return the key
   * @throws ApiException 401 for an unknown key, a wrong secret, a disabled or expired key
   */
  StoredKey verify(String keyId, String secret, Authenticator scheme) {
    StoredKey k = byKeyId(keyId).orElse(null);
    if (k == null || !secretMatches(k, secret)) {
      throw Authenticator.unauthorized("invalid API key id or secret", scheme);
    }
    Instant now = clock.instant();
    String unusable = k.unusableReason(now);
    if (unusable != null) {
      throw Authenticator.unauthorized(unusable, scheme);
    }
    String minute = now.truncatedTo(ChronoUnit.MINUTES).toString();
    if (!minute.equals(k.usedAt())) {
      keys.compute(keyId, (id, doc) -> doc == null ? null : json(read(doc).withUsedAt(minute)));
    }
    return k;
  }

  private boolean secretMatches(StoredKey k, String secret) {
    String remembered =
        secrets.index("api-key", (k.keyId() + "\n" + secret).getBytes(StandardCharsets.UTF_8));
    if (k.hash().equals(verified.get(remembered))) {
      return true;
    }
    if (!hasher.matches(secret, k.salt(), k.hash())) {
      return false;
    }
    String hash = k.hash();
    if (!hasher.isCurrent(hash)) {
      SecretHasher.Hashed h = hasher.hash(secret);
      hash = h.hash();
      keys.compute(
          k.keyId(),
          (id, doc) -> {
            if (doc == null) {
              return null;
            }
            StoredKey now = read(doc);
            // Only the hash this secret matched is replaced: a key changed meanwhile stays as is.
            return now.hash().equals(k.hash()) ? json(now.withSecret(h.salt(), h.hash())) : doc;
          });
    }
    verified.put(remembered, hash);
    return true;
  }

  /**
   * A fresh key id. It is a UUID, so that the key's id and the user name its clients send are one
   * and the same (keys given by {@code --api-key KEYID:SECRET} keep their KEYID as user name).
   *
   * @return an id no key has
   */
  String newKeyId() {
    String keyId;
    do {
      keyId = UUID.randomUUID().toString();
    } while (keys.get(keyId).isPresent());
    return keyId;
  }

  /**
   * @param keyId a Basic user name
   * @return the key
   */
  Optional<StoredKey> byKeyId(String keyId) {
    return keys.get(keyId).map(this::read);
  }

  /**
   * @param organizationId an organization
   * @param idOrKeyId a key's UUID or its Basic user name
   * @return the organization's key
   * @throws ApiException 404 when it has none such
   */
  StoredKey find(String organizationId, String idOrKeyId) {
    return all().stream()
        .filter(k -> k.organizationId().equals(organizationId))
        .filter(k -> idOrKeyId.equalsIgnoreCase(k.id()) || idOrKeyId.equals(k.keyId()))
        .findFirst()
        .orElseThrow(() -> ApiException.notFound("API key " + idOrKeyId + " does not exist"));
  }

  /**
   * @param organizationId an organization
   * @return its keys, oldest first
   */
  List<StoredKey> list(String organizationId) {
    return all().stream()
        .filter(k -> k.organizationId().equals(organizationId))
        .sorted(Comparator.comparing(StoredKey::createdAt).thenComparing(StoredKey::keyId))
        .toList();
  }

  /**
   * @param organizationId the organization
   * @param change what the request asked for (roles present and not empty)
   * @return the key and its secret
   */
  synchronized Accounts.CreatedKey create(String organizationId, KeyRules.KeyChange change) {
    String keyId = newKeyId();
    String secret = hasher.randomToken(40);
    SecretHasher.Hashed h = hasher.hash(secret);
    StoredKey key =
        new StoredKey(
            keyId,
            keyId,
            organizationId,
            change.name().orElseThrow(),
            change.roles().orElseThrow(),
            h.salt(),
            h.hash(),
            now(),
            change.state().orElse("enabled"),
            change.expireAt().filter(e -> !e.isEmpty()).orElse(null),
            change.ipAccessList().orElse(List.of()),
            null);
    write(key);
    return new Accounts.CreatedKey(key, secret);
  }

  /**
   * Ensures a key with this id and secret exists with the admin role (the bootstrap key).
   *
   * @param keyId the Basic user name
   * @param organizationId its organization
   * @param secret its secret
   */
  synchronized void putAdmin(String keyId, String organizationId, String secret) {
    SecretHasher.Hashed h = hasher.hash(secret);
    Optional<StoredKey> existing = byKeyId(keyId);
    String id =
        existing
            .map(StoredKey::id)
            .orElse(ServiceRules.isUuid(keyId) ? keyId : UUID.randomUUID().toString());
    // An existing key keeps its creation time: a restart (or an upgrade) does not make it new.
    String createdAt = existing.map(StoredKey::createdAt).orElseGet(this::now);
    write(
        new StoredKey(
            id,
            keyId,
            organizationId,
            "bootstrap admin",
            List.of("admin"),
            h.salt(),
            h.hash(),
            createdAt,
            "enabled",
            null,
            List.of(),
            null));
  }

  /**
   * @param organizationId the organization
   * @param idOrKeyId the key
   * @param change what the PATCH sets
   * @return the changed key
   * @throws ApiException 409 when the change would leave the organization without a usable admin
   *     key
   */
  synchronized StoredKey update(
      String organizationId, String idOrKeyId, KeyRules.KeyChange change) {
    StoredKey before = find(organizationId, idOrKeyId);
    StoredKey after = before.with(change);
    if (isUsableAdmin(before) && !isUsableAdmin(after) && usableAdmins(organizationId) == 1) {
      throw ApiException.conflict(
          "API key "
              + before.keyId()
              + " is the last enabled admin key of the organization; it must stay an enabled admin"
              + " key");
    }
    write(after);
    return after;
  }

  /**
   * @param organizationId the organization
   * @param idOrKeyId the key to delete
   * @param caller the key of the request
   * @throws ApiException 404, or 409 for the caller's own key and the last admin key
   */
  synchronized void delete(String organizationId, String idOrKeyId, StoredKey caller) {
    StoredKey key = find(organizationId, idOrKeyId);
    if (isUsableAdmin(key) && usableAdmins(organizationId) == 1) {
      throw ApiException.conflict(
          "API key "
              + key.keyId()
              + " is the last admin key of the organization and cannot be deleted");
    }
    if (key.keyId().equals(caller.keyId())) {
      throw ApiException.conflict(
          "API key " + key.keyId() + " authenticates this request and cannot delete itself");
    }
    keys.remove(key.keyId());
  }

  /**
   * @param organizationId an organization
   * @return one of its admin keys that can be used now
   */
  Optional<StoredKey> anyUsableAdmin(String organizationId) {
    return list(organizationId).stream().filter(this::isUsableAdmin).findFirst();
  }

  /**
   * @param keyId a Basic user name
   */
  synchronized void remove(String keyId) {
    keys.remove(keyId);
  }

  private long usableAdmins(String organizationId) {
    return list(organizationId).stream().filter(this::isUsableAdmin).count();
  }

  private boolean isUsableAdmin(StoredKey k) {
    return k.canWrite() && k.unusableReason(clock.instant()) == null;
  }

  private List<StoredKey> all() {
    return keys.values().stream().map(this::read).toList();
  }

  private void write(StoredKey k) {
    keys.put(k.keyId(), json(k));
  }

  private String now() {
    return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private StoredKey read(String json) {
    try {
      return mapper.readValue(json, StoredKey.class);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("corrupt stored API key", e);
    }
  }

  private String json(StoredKey k) {
    try {
      return mapper.writeValueAsString(k);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  void close() {
    keys.close();
  }
}
