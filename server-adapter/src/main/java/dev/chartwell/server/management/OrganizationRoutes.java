package dev.chartwell.server.management;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.util.List;

/** {@code GET /v1/organizations} and {@code GET /v1/organizations/{organizationId}}. */
public final class OrganizationRoutes {
  private OrganizationRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts the organizations and keys
   * @param maxBodyBytes body limit
   */
  public static void register(Router router, Accounts accounts, long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    router.add(
        "GET",
        "/v1/organizations",
        auth,
        maxBodyBytes,
        req -> {
          KeyPrincipal p = req.principal(KeyPrincipal.class);
          return Response.envelope(List.of(own(accounts, p.key().organizationId())));
        });
    router.add(
        "GET",
        "/v1/organizations/{organizationId}",
        auth,
        maxBodyBytes,
        req -> {
          return Response.envelope(own(accounts, KeyPrincipal.organization(req, false)));
        });
  }

  private static Organization own(Accounts accounts, String orgId) {
    return accounts
        .organization(orgId)
        .orElseThrow(() -> ApiException.notFound("organization " + orgId + " does not exist"));
  }
}
