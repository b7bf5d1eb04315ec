package dev.chartwell.server.management;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Principal;
import dev.chartwell.server.http.Request;

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
   * The key of a request, once it is known to be allowed from the client's address.
   *
   * @param req a request authenticated with an API key
   * @return its principal
   * @throws ApiException 403 when the key's IP access list does not hold the client's address
   */
  public static KeyPrincipal of(Request req) {
    KeyPrincipal p = req.principal(KeyPrincipal.class);
    if (!p.key.allows(req.remoteAddress())) {
      throw ApiException.forbidden(
          "API key "
              + p.key.keyId()
              + " may not be used from "
              + (req.remoteAddress() == null ? "this client" : req.remoteAddress().getHostAddress())
              + " (see its ipAccessList)");
    }
    return p;
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
   * The organization named by a request's path ({@code organizationId}), once the request's key is
   * known to belong to it, to be allowed from the client's address and, for a change, to be allowed
   * to write.
   *
   * @param req a request authenticated with an API key
   * @param write whether the request changes something
   * @return the organization id
   * @throws ApiException 403 when the key belongs to another organization, is not allowed from the
   *     client's address, or is read-only
   */
  public static String organization(Request req, boolean write) {
    String organizationId = req.pathParam("organizationId");
    KeyPrincipal key = of(req);
    key.requireOrganization(organizationId);
    if (write) {
      key.requireWrite();
    }
    return organizationId;
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
