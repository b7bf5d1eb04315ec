package dev.chartwell.server.management;

import java.util.List;

/**
 * An API key as persisted: the secret itself is never stored, only a salted hash of it.
 *
 * @param keyId public id (the HTTP Basic user name)
 * @param organizationId the organization the key belongs to
 * @param name display name
 * @param roles {@code admin} and/or {@code developer}
 * @param salt base64 salt
 * @param hash base64 SHA-256 of salt and secret
 * @param createdAt ISO-8601 instant
 */
public record StoredKey(
    String keyId,
    String organizationId,
    String name,
    List<String> roles,
    String salt,
    String hash,
    String createdAt) {

  /**
   * @return whether the key may write (named so that JSON mapping does not take it for a field)
   */
  public boolean canWrite() {
    return roles.contains("admin");
  }

  /**
   * The key as the API shows it: never the secret or its hash.
   *
   * @return the public view
   */
  public java.util.Map<String, Object> view() {
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("id", keyId);
    m.put("name", name);
    m.put("state", "enabled");
    m.put("roles", roles);
    m.put("keySuffix", keyId.substring(Math.max(0, keyId.length() - 4)));
    m.put("createdAt", createdAt);
    return m;
  }
}
