package dev.chartwell.server.management;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.net.InetAddress;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An API key as persisted: the secret itself is never stored, only a salted hash of it.
 *
 * @param id the key's UUID, which the API's {@code /keys/{keyId}} paths name
 * @param keyId the key id a client sends as its HTTP Basic user name
 * @param organizationId the organization the key belongs to
 * @param name display name
 * @param roles {@code admin} and/or {@code developer}
 * @param salt base64 salt
 * @param hash the secret's hash under the salt, as {@link SecretHasher} writes it
 * @param createdAt ISO-8601 instant
 * @param state {@code enabled} or {@code disabled}; {@code null} (older documents) is enabled
 * @param expireAt when the key stops working (ISO-8601), or {@code null} for never
 * @param ipAccessList the addresses the key may be used from; empty or {@code null}: any
 * @param usedAt when the key was last used, to the minute, or {@code null} for never
 */
public record StoredKey(
    String id,
    String keyId,
    String organizationId,
    String name,
    List<String> roles,
    String salt,
    String hash,
    String createdAt,
    String state,
    String expireAt,
    List<IpAccessEntry> ipAccessList,
    String usedAt) {

  /**
   * One entry of a key's IP access list.
   *
   * @param source an IP address or CIDR block
   * @param description what it is, or {@code null}
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record IpAccessEntry(String source, String description) {}

  /**
   * @return whether the key may write (named so that JSON mapping does not take it for a field)
   */
  public boolean canWrite() {
    return roles.contains("admin");
  }

  /**
   * @param now the time
   * @return why the key cannot be used now, or {@code null} when it can
   */
  String unusableReason(Instant now) {
    if ("disabled".equals(state)) {
      return "API key " + keyId + " is disabled";
    }
    if (expireAt != null && !OffsetDateTime.parse(expireAt).toInstant().isAfter(now)) {
      return "API key " + keyId + " expired at " + expireAt;
    }
    return null;
  }

  /**
   * @param address a client address ({@code null} when unknown)
   * @return whether the key may be used from it
   */
  boolean allows(InetAddress address) {
    return IpAccessList.allows(
        ipAccessList == null
            ? List.of()
            : ipAccessList.stream().map(IpAccessEntry::source).toList(),
        address);
  }

  /**
   * @param usedAt when it was used
   * @return this key, last used then
   */
  StoredKey withUsedAt(String usedAt) {
    return new StoredKey(
        id,
        keyId,
        organizationId,
        name,
        roles,
        salt,
        hash,
        createdAt,
        state,
        expireAt,
        ipAccessList,
        usedAt);
  }

  /**
   * @param salt a new salt
   * @param hash the secret's hash under it
   * @return this key, its secret stored in a new form
   */
  StoredKey withSecret(String salt, String hash) {
    return new StoredKey(
        id,
        keyId,
        organizationId,
        name,
        roles,
        salt,
        hash,
        createdAt,
        state,
        expireAt,
        ipAccessList,
        usedAt);
  }

  /**
   * @param change what a PATCH sets (absent parts keep their value)
   * @return this key, changed
   */
  StoredKey with(KeyRules.KeyChange change) {
    return new StoredKey(
        id,
        keyId,
        organizationId,
        change.name().orElse(name),
        change.roles().orElse(roles),
        salt,
        hash,
        createdAt,
        change.state().orElse(state),
        change.expireAt().isPresent() ? emptyToNull(change.expireAt().get()) : expireAt,
        change.ipAccessList().orElse(ipAccessList),
        usedAt);
  }

  private static String emptyToNull(String s) {
    return s.isEmpty() ? null : s;
  }

  /**
   * The key as the API shows it: never the secret or its hash.
   *
   * @return the public view
   */
  public Map<String, Object> view() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("name", name);
    m.put("state", state == null ? "enabled" : state);
    m.put("roles", roles);
    List<Map<String, Object>> assigned = new ArrayList<>();
    for (String r : roles) {
      SystemRole.byLegacyName(r).ifPresent(role -> assigned.add(role.assigned()));
    }
    m.put("assignedRoles", assigned);
    m.put("keySuffix", keyId.substring(Math.max(0, keyId.length() - 4)));
    m.put("createdAt", createdAt);
    if (expireAt != null) {
      m.put("expireAt", expireAt);
    }
    if (usedAt != null) {
      m.put("usedAt", usedAt);
    }
    m.put("ipAccessList", ipAccessList == null ? List.of() : ipAccessList);
    return m;
  }
}
