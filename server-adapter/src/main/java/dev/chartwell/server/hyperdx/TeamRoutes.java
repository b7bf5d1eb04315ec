package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Organization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v2} (the API version and who is calling: a service, by its token) and {@code
 * /api/v2/team}: what Chartwell has of a HyperDX team. The team is the service's organization; the
 * members a service token sees are itself only (the organization's API keys are the management
 * API's, for admin keys). Chartwell has no user accounts and so no invitations: inviting answers
 * 404 saying so, the list of invitations is empty, and a service token cannot remove a member.
 */
final class TeamRoutes {
  private TeamRoutes() {}

  static void register(Router router, Authenticator bearer, Accounts accounts, long maxBodyBytes) {
    router.add(
        "GET",
        V2.BASE,
        bearer,
        maxBodyBytes,
        req -> {
          ObjectNode service = V2.caller(req, false).service();
          Map<String, Object> user = new LinkedHashMap<>();
          user.put("_id", service.get("id").asText());
          user.put("kind", "service");
          user.put("name", service.path("name").asText());
          user.put("team", service.path("_organizationId").asText());
          user.put("readOnly", service.path("isReadonly").asBoolean(false));
          Map<String, Object> body = new LinkedHashMap<>();
          body.put("version", "v2");
          body.put("user", user);
          return Response.json(200, body);
        });
    String team = V2.BASE + "/team";
    router.add(
        "GET",
        team,
        bearer,
        maxBodyBytes,
        req -> {
          Organization org = organization(accounts, V2.caller(req, false));
          Map<String, Object> t = new LinkedHashMap<>();
          t.put("id", org.id());
          t.put("name", org.name());
          return V2.data(t);
        });
    router.add(
        "GET",
        team + "/members",
        bearer,
        maxBodyBytes,
        req -> {
          // The caller's own identity only: a service token has no business listing the
          // organization's API keys (an admin key lists them with GET /v1/organizations/{id}/keys).
          ObjectNode service = V2.caller(req, false).service();
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("id", service.get("id").asText());
          m.put("name", service.path("name").asText());
          m.put("kind", "service");
          m.put("readOnly", service.path("isReadonly").asBoolean(false));
          m.put("isCurrentUser", true);
          return V2.data(List.of(m));
        });
    router.add(
        "GET",
        team + "/invitations",
        bearer,
        maxBodyBytes,
        req -> {
          V2.caller(req, false);
          return V2.data(List.of());
        });
    router.add(
        "POST",
        team + "/invitation",
        bearer,
        maxBodyBytes,
        req -> {
          V2.caller(req, true);
          throw ApiException.notFound(
              "Chartwell has no invitations: it has no user accounts; a member of the team is an"
                  + " API key of the organization, created with POST"
                  + " /v1/organizations/{organizationId}/keys");
        });
    router.add(
        "DELETE",
        team + "/invitation/{id}",
        bearer,
        maxBodyBytes,
        req -> {
          V2.caller(req, true);
          throw ApiException.notFound(
              "invitation "
                  + req.pathParam("id")
                  + " does not exist: Chartwell has no invitations");
        });
    router.add(
        "DELETE",
        team + "/member/{id}",
        bearer,
        maxBodyBytes,
        req -> {
          V2.caller(req, true);
          throw ApiException.forbidden(
              "a service token cannot remove members of the team; the organization's API keys are"
                  + " deleted with DELETE /v1/organizations/{organizationId}/keys/{keyId} and an"
                  + " admin key");
        });
  }

  private static Organization organization(Accounts accounts, ServicePrincipal p) {
    String id = p.service().path("_organizationId").asText();
    return accounts
        .organization(id)
        .orElseThrow(() -> ApiException.notFound("organization " + id + " does not exist"));
  }
}
