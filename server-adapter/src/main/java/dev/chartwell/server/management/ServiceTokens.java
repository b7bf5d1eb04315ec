package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Service passwords (the chart API's Bearer tokens) and the index that finds a service by one:
 * service ids by the HMAC (under the server's key) of their password's SHA-256, as stored in each
 * service's {@code _tokenIndex}. A token is found with one lookup, and an unknown one costs no hash
 * per service. Entries of rotated passwords and deleted services may linger until replaced; a found
 * service's own index is compared before its password is. Kept apart from {@link Services}, which
 * owns the services' lifecycle: this is only how a token leads to its service.
 *
 * <p>A token checked once is known by its SHA-256 until the services change: checked on every
 * request, it then costs one hash and no key derivation or password comparison. Any write to the
 * services' store (a password rotated, a service stopped or deleted) makes every such entry stale
 * ({@link JsonStore#generation}), so a change is in force from the request after it.
 */
final class ServiceTokens {
  private final JsonStore services;
  private final SecretHasher hasher;
  private final Secrets secrets;
  private final Map<String, String> byTokenIndex = new ConcurrentHashMap<>();

  /** The most tokens known at once; one more starts over. */
  static final int MAX_VERIFIED = 4096;

  /** A token's service, found under a generation of the services' store. */
  private record Verified(long generation, String serviceId) {}

  /** Tokens checked against their service's hash, by their SHA-256 in Base64. */
  private final Map<String, Verified> verified = new ConcurrentHashMap<>();

  /** Services stored before the index existed: searched until each is used once (then indexed). */
  private final Set<String> unindexed = ConcurrentHashMap.newKeySet();

  /**
   * Indexes the stored services' tokens.
   *
   * @param services the services' store
   * @param hasher hashes passwords
   * @param secrets the server's key, under which tokens are indexed
   */
  ServiceTokens(JsonStore services, SecretHasher hasher, Secrets secrets) {
    this.services = services;
    this.hasher = hasher;
    this.secrets = secrets;
    for (ObjectNode s : services.list(any -> true)) {
      String id = s.get("id").asText();
      if (s.hasNonNull("_tokenIndex")) {
        byTokenIndex.put(s.get("_tokenIndex").asText(), id);
      } else {
        unindexed.add(id);
      }
    }
  }

  /**
   * The service a token belongs to. Checked on every request, so a rotated password stops working
   * at once: the token's index is looked up, and the one service found is verified against its
   * stored hash. A service stored before the index existed is searched for until its token is used
   * once, and indexed then.
   *
   * @param token the token
   * @return the stored service (with internal fields), if the token is a service's password
   */
  Optional<ObjectNode> byToken(String token) {
    byte[] digest = sha256(token);
    String known = Base64.getEncoder().encodeToString(digest);
    long generation = services.generation();
    Verified v = verified.get(known);
    if (v != null && v.generation() == generation) {
      Optional<ObjectNode> s = services.get(v.serviceId());
      if (s.isPresent()) {
        return s;
      }
    }
    Optional<ObjectNode> found = check(digest);
    found.ifPresent(
        s -> {
          if (verified.size() >= MAX_VERIFIED) {
            verified.clear();
          }
          verified.put(known, new Verified(generation, s.get("id").asText()));
        });
    return found;
  }

  /** The service whose password has this SHA-256, by its index and stored hash. */
  private Optional<ObjectNode> check(byte[] digest) {
    String index = tokenIndex(digest);
    String id = byTokenIndex.get(index);
    if (id != null) {
      Optional<ObjectNode> s =
          services
              .get(id)
              .filter(x -> x.path("_tokenIndex").asText().equals(index) && matches(digest, x));
      if (s.isPresent()) {
        return s;
      }
    }
    for (String old : unindexed) {
      Optional<ObjectNode> s = services.get(old).filter(x -> matches(digest, x));
      if (s.isPresent()) {
        services.compute(
            old,
            x -> {
              if (x != null && matches(digest, x)) {
                x.put("_tokenIndex", index);
              }
              return x;
            });
        byTokenIndex.put(index, old);
        unindexed.remove(old);
        return services.get(old);
      }
    }
    return Optional.empty();
  }

  /**
   * Sets a service's password (in the document, before it is stored) and indexes it.
   *
   * @param s the service's document
   * @param digest the password's SHA-256
   */
  void setPassword(ObjectNode s, byte[] digest) {
    SecretHasher.Hashed h = hasher.hashDigest(digest);
    s.put("_passwordSalt", h.salt());
    s.put("_passwordHash", h.hash());
    String id = s.get("id").asText();
    String before = s.path("_tokenIndex").asText(null);
    String index = tokenIndex(digest);
    s.put("_tokenIndex", index);
    byTokenIndex.put(index, id);
    unindexed.remove(id);
    if (before != null && !before.equals(index)) {
      byTokenIndex.remove(before, id);
    }
  }

  /**
   * @param s a service that is gone
   */
  void forget(ObjectNode s) {
    String id = s.get("id").asText();
    byTokenIndex.remove(s.path("_tokenIndex").asText(), id);
    unindexed.remove(id);
  }

  /**
   * @param password a password
   * @return its SHA-256
   */
  static byte[] sha256(String password) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private String tokenIndex(byte[] digest) {
    return secrets.index("service-token", digest);
  }

  private boolean matches(byte[] digest, ObjectNode service) {
    return hasher.matchesDigest(
        digest, service.get("_passwordSalt").asText(), service.get("_passwordHash").asText());
  }
}
