package dev.chartwell.server.clickstack;

import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Handler;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
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
      SourceCatalog catalog,
      Resources resources,
      Json json,
      long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    for (Resources.Kind kind : Resources.Kind.values()) {
      String base = BASE + kind.name().toLowerCase(java.util.Locale.ROOT) + "s";
      add(
          router,
          "GET",
          base,
          auth,
          maxBodyBytes,
          req -> Response.envelope(resources.list(kind, service(req, services, false).id())));
      add(
          router,
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
        add(
            router,
            "GET",
            base + "/{id}",
            auth,
            maxBodyBytes,
            req ->
                Response.envelope(
                    resources.get(kind, service(req, services, false).id(), req.pathParam("id"))));
      }
      add(
          router,
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
      add(
          router,
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

  private static void add(
      Router router, String method, String path, Authenticator auth, long limit, Handler h) {
    router.add(new Route(method, PathPattern.of(path), auth, limit, h));
  }

  private static Scope service(Request req, Services services, boolean write) {
    String org = req.pathParam("organizationId");
    KeyPrincipal key = req.principal(KeyPrincipal.class);
    key.requireOrganization(org);
    if (write) {
      key.requireWrite();
    }
    var s = services.get(org, req.pathParam("serviceId"));
    return new Scope(s.get("id").asText(), s.get("dataWarehouseId").asText());
  }
}
