package dev.chartwell.server.management;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Principal;

/**
 * A request authenticated with an organization API key.
 *
 * @param key the key
 */
public record KeyPrincipal(StoredKey key) implements Principal {

  @Override
  public String describe() {
    return "key " + key.keyId();
  }

  /**
   * @throws ApiException 403 when the key has only the read-only developer role
   */
  public void requireWrite() {
    if (!key.canWrite()) {
      throw ApiException.forbidden(
          "API key " + key.keyId() + " has the developer role, which is read-only");
    }
  }

  /**
   * @param organizationId the organization of the path
   * @throws ApiException 403 when the key belongs to another organization
   */
  public void requireOrganization(String organizationId) {
    if (!key.organizationId().equals(organizationId)) {
      throw ApiException.forbidden(
          "API key " + key.keyId() + " has no access to organization " + organizationId);
    }
  }
}
