package dev.chartwell.server.clickstack;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import dev.chartwell.server.management.Services;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code .../services/{serviceId}/clickstack/dashboards}, {@code .../alerts}, {@code .../webhooks},
 * {@code .../saved-searches} and {@code .../roles}: list, create, get (not for webhooks), replace
 * and delete; and {@code POST .../dashboards/validate}. Webhooks' URLs are shown only to admin keys
 * ({@link WebhookUrls}).
 */
public final class ResourceRoutes {
  private static final String BASE =
      "/v1/organizations/{organizationId}/services/{serviceId}/clickstack/";

  private ResourceRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services
   * @param catalog the sources (tile, filter and saved search sourceIds)
   * @param resources the resources
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
    // Before the dashboard routes, so that "validate" is never taken for a dashboard id.
    router.add(
        "POST",
        BASE + "dashboards/validate",
        auth,
        maxBodyBytes,
        req -> {
          Scope s = service(req, services, false);
          return Response.envelope(
              resources.validateDashboard(json.readTree(req.bodyBytes()), s.sources(catalog)));
        });
    for (Kind kind : Kind.values()) {
      String base = BASE + kind.path();
      router.add(
          "GET",
          base,
          auth,
          maxBodyBytes,
          req -> {
            List<ObjectNode> all = resources.list(kind, service(req, services, false).id());
            return Response.envelope(
                kind == Kind.WEBHOOK ? WebhookUrls.shownTo(admin(req), all) : all);
          });
      router.add(
          "POST",
          base,
          auth,
          maxBodyBytes,
          req -> {
            Scope s = service(req, services, true);
            return Response.envelope(
                shown(
                    req,
                    kind,
                    resources.put(
                        kind, s.id(), null, json.readTree(req.bodyBytes()), s.sources(catalog))));
          });
      if (kind != Kind.WEBHOOK) {
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
                shown(
                    req,
                    kind,
                    resources.put(
                        kind,
                        s.id(),
                        req.pathParam("id"),
                        json.readTree(req.bodyBytes()),
                        s.sources(catalog))));
          });
      router.add(
          "DELETE",
          base + "/{id}",
          auth,
          maxBodyBytes,
          req -> {
            resources.delete(kind, service(req, services, true).id(), req.pathParam("id"));
            return Response.emptyEnvelope();
          });
    }
  }

  private record Scope(String id, String warehouse) {
    Predicate<String> sources(Catalog catalog) {
      return src -> catalog.warehouseOf(src).filter(warehouse::equals).isPresent();
    }
  }

  /** Whether the request's key may manage webhooks, and so see their URLs ({@link WebhookUrls}). */
  private static boolean admin(Request req) {
    return KeyPrincipal.of(req).key().canWrite();
  }

  private static ObjectNode shown(Request req, Kind kind, ObjectNode resource) {
    return kind == Kind.WEBHOOK ? WebhookUrls.shownTo(admin(req), resource) : resource;
  }

  private static Scope service(Request req, Services services, boolean write) {
    var s = services.get(KeyPrincipal.organization(req, write), req.pathParam("serviceId"));
    return new Scope(s.get("id").asText(), s.get("dataWarehouseId").asText());
  }
}
