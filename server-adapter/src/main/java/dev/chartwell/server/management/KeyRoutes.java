package dev.chartwell.server.management;

import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /v1/organizations/{organizationId}/keys}: list (never secrets), create (the secret is
 * shown once), and {@code /keys/{keyId}} (the key's UUID, or its key id): get, update, delete (not
 * the last admin key, not the key of the request).
 */
public final class KeyRoutes {
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
          Accounts.CreatedKey created = accounts.createKey(org, json.readTree(req.bodyBytes()));
          Map<String, Object> result = new LinkedHashMap<>();
          result.put("key", created.key().view());
          result.put("keyId", created.key().keyId());
          result.put("keySecret", created.secret());
          return Response.envelope(result);
        });
    router.add(
        "GET",
        BASE + "/{keyId}",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                accounts
                    .key(KeyPrincipal.organization(req, false), req.pathParam("keyId"))
                    .view()));
    router.add(
        "PATCH",
        BASE + "/{keyId}",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                accounts
                    .updateKey(
                        KeyPrincipal.organization(req, true),
                        req.pathParam("keyId"),
                        json.readTree(req.bodyBytes()))
                    .view()));
    router.add(
        "DELETE",
        BASE + "/{keyId}",
        auth,
        maxBodyBytes,
        req -> {
          String org = KeyPrincipal.organization(req, true);
          accounts.deleteKey(org, req.pathParam("keyId"), KeyPrincipal.of(req).key());
          return Response.emptyEnvelope();
        });
  }
}
