package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.charts.ServiceScope;
import dev.chartwell.server.clickstack.Api;
import dev.chartwell.server.clickstack.Kind;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.clickstack.WebhookUrls;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Handler;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code /api/v2/sources}, {@code /dashboards} (and {@code /dashboards/validate}), {@code /alerts},
 * {@code /webhooks} and {@code /saved-searches}: list, create, get (not webhooks), replace and
 * delete, in HyperDX's shapes ({@link Api#HYPERDX}, {@link SourceApi#HYPERDX}). They are the same
 * stored resources as the Cloud API's {@code clickstack} paths of the token's service; sources
 * belong to its warehouse. A service token never sees a webhook's URL ({@link WebhookUrls}).
 */
final class ResourceRoutes {
  /** The lists HyperDX pages ({@code ?limit=&offset=}, with {@code meta}). */
  private static final Set<Kind> PAGED = Set.of(Kind.ALERT, Kind.WEBHOOK, Kind.SAVED_SEARCH);

  private ResourceRoutes() {}

  static void register(
      Router router,
      Authenticator bearer,
      ServiceScope scope,
      Catalog catalog,
      Resources resources,
      Json json,
      long maxBodyBytes) {
    sources(router, bearer, catalog, json, maxBodyBytes);
    // Before the dashboard routes, so that "validate" is never taken for a dashboard id.
    router.add(
        "POST",
        V2.BASE + "/dashboards/validate",
        bearer,
        maxBodyBytes,
        req ->
            Response.json(
                200,
                resources.validateDashboard(
                    json.readTree(req.bodyBytes()),
                    sourcesOf(catalog, V2.caller(req, false)),
                    Api.HYPERDX)));
    for (Kind kind : new Kind[] {Kind.DASHBOARD, Kind.ALERT, Kind.WEBHOOK, Kind.SAVED_SEARCH}) {
      String base = V2.BASE + "/" + kind.path();
      router.add(
          "GET",
          base,
          bearer,
          maxBodyBytes,
          req -> {
            var all = resources.list(kind, V2.caller(req, false).id(), Api.HYPERDX);
            if (kind == Kind.WEBHOOK) {
              WebhookUrls.shownTo(false, all); // a service token never sees a webhook's URL
            }
            return PAGED.contains(kind) ? V2.page(req, all) : V2.data(all);
          });
      router.add(
          "POST",
          base,
          bearer,
          maxBodyBytes,
          req -> put(req, kind, null, catalog, resources, json));
      if (kind != Kind.WEBHOOK) {
        Handler get =
            req ->
                V2.data(
                    resources.get(
                        kind, V2.caller(req, false).id(), req.pathParam("id"), Api.HYPERDX));
        // A dashboard is also read with an API key and X-Service-Id, as charts and events are: the
        // web UI reads its variables (filters[].isVariableEnabled, variableName) this way, fields
        // only this API's document has.
        router.add(
            "GET",
            base + "/{id}",
            kind == Kind.DASHBOARD ? scope.authenticator() : bearer,
            maxBodyBytes,
            kind == Kind.DASHBOARD ? scope.wrap(get) : get);
      }
      router.add(
          "PUT",
          base + "/{id}",
          bearer,
          maxBodyBytes,
          req -> put(req, kind, req.pathParam("id"), catalog, resources, json));
      router.add(
          "DELETE",
          base + "/{id}",
          bearer,
          maxBodyBytes,
          req -> {
            resources.delete(kind, V2.caller(req, true).id(), req.pathParam("id"));
            return V2.empty();
          });
    }
  }

  private static Response put(
      Request req, Kind kind, String id, Catalog catalog, Resources resources, Json json)
      throws java.io.IOException {
    ServicePrincipal p = V2.caller(req, true);
    ObjectNode stored =
        resources.put(
            kind, p.id(), id, json.readTree(req.bodyBytes()), sourcesOf(catalog, p), Api.HYPERDX);
    return V2.data(kind == Kind.WEBHOOK ? WebhookUrls.shownTo(false, stored) : stored);
  }

  private static Predicate<String> sourcesOf(Catalog catalog, ServicePrincipal p) {
    return src -> catalog.warehouseOf(src).filter(p.warehouseId()::equals).isPresent();
  }

  private static void sources(
      Router router, Authenticator bearer, Catalog catalog, Json json, long maxBodyBytes) {
    String base = V2.BASE + "/sources";
    router.add(
        "GET",
        base,
        bearer,
        maxBodyBytes,
        req -> V2.data(catalog.sources(V2.caller(req, false).warehouseId(), SourceApi.HYPERDX)));
    router.add(
        "POST",
        base,
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                catalog.createSource(
                    V2.caller(req, true).warehouseId(),
                    json.readTree(req.bodyBytes()),
                    SourceApi.HYPERDX)));
    router.add(
        "GET",
        base + "/{id}",
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                catalog.source(
                    V2.caller(req, false).warehouseId(), req.pathParam("id"), SourceApi.HYPERDX)));
    router.add(
        "PUT",
        base + "/{id}",
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                catalog.replaceSource(
                    V2.caller(req, true).warehouseId(),
                    req.pathParam("id"),
                    json.readTree(req.bodyBytes()),
                    SourceApi.HYPERDX)));
    router.add(
        "DELETE",
        base + "/{id}",
        bearer,
        maxBodyBytes,
        req -> {
          catalog.deleteSource(V2.caller(req, true).warehouseId(), req.pathParam("id"));
          return V2.empty();
        });
  }
}
