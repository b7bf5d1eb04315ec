package dev.chartwell.server.management;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/organizations}, {@code GET} and {@code PATCH /v1/organizations/{organizationId}},
 * its {@code privateEndpointConfig}, and Chartwell's own {@code GET /api/v2/organization} (the
 * fields the ClickHouse Cloud shape has no place for: tier and paid).
 */
public final class OrganizationRoutes {
  private OrganizationRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts the organizations and keys
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(Router router, Accounts accounts, Json json, long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    router.add(
        "GET",
        "/v1/organizations",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                List.of(own(accounts, KeyPrincipal.of(req).key().organizationId()).view())));
    router.add(
        "GET",
        "/v1/organizations/{organizationId}",
        auth,
        maxBodyBytes,
        req -> Response.envelope(own(accounts, KeyPrincipal.organization(req, false)).view()));
    router.add(
        "PATCH",
        "/v1/organizations/{organizationId}",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                accounts
                    .updateOrganization(
                        KeyPrincipal.organization(req, true), json.readTree(req.bodyBytes()))
                    .view()));
    router.add(
        "GET",
        "/v1/organizations/{organizationId}/privateEndpointConfig",
        auth,
        maxBodyBytes,
        req -> {
          KeyPrincipal.organization(req, false);
          OrganizationRules.privateEndpointQuery(
              req.queryParam("cloud_provider"), req.queryParam("region_id"));
          // A single machine offers no endpoint service: the configuration has none to name.
          return Response.envelope(Map.of());
        });
    router.add(
        "GET",
        "/api/v2/organization",
        auth,
        maxBodyBytes,
        req ->
            Response.json(
                200,
                Map.of(
                    "data",
                    own(accounts, KeyPrincipal.of(req).key().organizationId()).chartwellView())));
  }

  private static Organization own(Accounts accounts, String orgId) {
    return accounts
        .organization(orgId)
        .orElseThrow(() -> ApiException.notFound("organization " + orgId + " does not exist"));
  }
}
