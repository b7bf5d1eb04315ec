package dev.chartwell.server.management;

import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.validation.Names;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET/POST /v1/organizations/{organizationId}/keys} and {@code DELETE .../keys/{keyId}}:
 * list (never secrets), create (the secret is shown once), delete (not the last admin key).
 */
public final class KeyRoutes {
  static final Set<String> ROLES = Set.of("admin", "developer");
  private static final String BASE = "/v1/organizations/{organizationId}/keys";

  private KeyRoutes() {}

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
        BASE,
        auth,
        maxBodyBytes,
        req -> {
          String org = KeyPrincipal.organization(req, false);
          return Response.envelope(accounts.keys(org).stream().map(StoredKey::view).toList());
        });
    router.add(
        "POST",
        BASE,
        auth,
        maxBodyBytes,
        req -> {
          String org = KeyPrincipal.organization(req, true);
          BodyReader body = BodyReader.of(json.readTree(req.bodyBytes()), Set.of("name", "roles"));
          String name = body.string("name", true).orElse(null);
          String nameProblem = name == null ? null : Names.name("name", name);
          if (nameProblem != null) {
            body.problem(nameProblem);
          }
          java.util.Optional<List<String>> given = body.strings("roles", true);
          List<String> roles = given.orElse(List.of());
          if (given.isPresent() && roles.isEmpty()) {
            body.problem("roles: must hold at least one role");
          }
          for (int i = 0; i < roles.size(); i++) {
            if (!ROLES.contains(roles.get(i))) {
              body.problem("roles[" + i + "]: must be one of admin, developer");
            }
          }
          body.finish();
          Accounts.CreatedKey created =
              accounts.createKey(org, name, List.copyOf(new LinkedHashSet<>(roles)));
          Map<String, Object> result = new LinkedHashMap<>();
          result.put("key", created.key().view());
          result.put("keyId", created.key().keyId());
          result.put("keySecret", created.secret());
          return Response.envelope(result);
        });
    router.add(
        "DELETE",
        BASE + "/{keyId}",
        auth,
        maxBodyBytes,
        req -> {
          String org = KeyPrincipal.organization(req, true);
          accounts.deleteKey(org, req.pathParam("keyId"));
          return Response.emptyEnvelope();
        });
  }
}
