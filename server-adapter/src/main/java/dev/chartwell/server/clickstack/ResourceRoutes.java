package dev.chartwell.server.clickstack;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import dev.chartwell.server.management.Services;
import java.util.Map;

/**
 * {@code .../services/{serviceId}/clickstack/dashboards}, {@code .../alerts} and {@code
 * .../webhooks}: list, create, get (not for webhooks), replace and delete.
 */
public final class ResourceRoutes {
  private static final String BASE =
      "/v1/organizations/{organizationId}/services/{serviceId}/clickstack/";

  private ResourceRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services
   * @param catalog the sources (tile sourceIds)
   * @param resources dashboards, alerts and webhooks
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router,
      Accounts accounts,
      Services services,
      Catalog catalog,
      Resources resources,
      Json json,
      long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    for (Resources.Kind kind : Resources.Kind.values()) {
      String base = BASE + kind.name().toLowerCase(java.util.Locale.ROOT) + "s";
      router.add(
          "GET",
          base,
          auth,
          maxBodyBytes,
          req -> Response.envelope(resources.list(kind, service(req, services, false).id())));
      router.add(
          "POST",
          base,
          auth,
          maxBodyBytes,
          req -> {
            Scope s = service(req, services, true);
            return Response.envelope(
                resources.put(
                    kind,
                    s.id(),
                    null,
                    json.readTree(req.bodyBytes()),
                    src -> catalog.warehouseOf(src).filter(s.warehouse()::equals).isPresent()));
          });
      if (kind != Resources.Kind.WEBHOOK) {
        router.add(
            "GET",
            base + "/{id}",
            auth,
            maxBodyBytes,
            req ->
                Response.envelope(
                    resources.get(kind, service(req, services, false).id(), req.pathParam("id"))));
      }
      router.add(
          "PUT",
          base + "/{id}",
          auth,
          maxBodyBytes,
          req -> {
            Scope s = service(req, services, true);
            return Response.envelope(
                resources.put(
                    kind,
                    s.id(),
                    req.pathParam("id"),
                    json.readTree(req.bodyBytes()),
                    src -> catalog.warehouseOf(src).filter(s.warehouse()::equals).isPresent()));
          });
      router.add(
          "DELETE",
          base + "/{id}",
          auth,
          maxBodyBytes,
          req -> {
            int alerts =
                resources.delete(kind, service(req, services, true).id(), req.pathParam("id"));
            return kind == Resources.Kind.DASHBOARD
                ? Response.envelope(Map.of("deletedAlerts", alerts))
                : Response.emptyEnvelope();
          });
    }
  }

  private record Scope(String id, String warehouse) {}

  private static Scope service(Request req, Services services, boolean write) {
    var s = services.get(KeyPrincipal.organization(req, write), req.pathParam("serviceId"));
    return new Scope(s.get("id").asText(), s.get("dataWarehouseId").asText());
  }
}
