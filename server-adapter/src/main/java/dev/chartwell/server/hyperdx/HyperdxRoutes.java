package dev.chartwell.server.hyperdx;

import dev.chartwell.engine.Engine;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.ServiceScope;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.tenancy.Tenancy;
import java.time.Clock;

/** Adds every route of HyperDX's {@code /api/v2} except the chart query and ingestion. */
public final class HyperdxRoutes {
  private HyperdxRoutes() {}

  /**
   * @param router where to add the routes
   * @param services the services (tokens)
   * @param accounts the organizations and keys (the team)
   * @param catalog sources and connections
   * @param resources dashboards, alerts, webhooks and saved searches
   * @param alerts alert evaluation (an alert's history)
   * @param engine the engine (search)
   * @param json the JSON codec
   * @param clock the time (the default search range)
   * @param maxBodyBytes body limit
   * @param tenancy the per-service limits and the external query runner
   */
  public static void register(
      Router router,
      Services services,
      Accounts accounts,
      Catalog catalog,
      Resources resources,
      Alerts alerts,
      Engine engine,
      Json json,
      Clock clock,
      long maxBodyBytes,
      Tenancy tenancy) {
    Authenticator bearer = ChartRoutes.serviceToken(services);
    TeamRoutes.register(router, bearer, accounts, maxBodyBytes);
    ServiceScope scope = new ServiceScope(services, accounts);
    ResourceRoutes.register(router, bearer, scope, catalog, resources, json, maxBodyBytes);
    ConnectionRoutes.register(router, bearer, catalog, json, maxBodyBytes);
    router.add(
        "GET",
        V2.BASE + "/alerts/{id}/history",
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                alerts.history(
                    V2.caller(req, false).id(),
                    req.pathParam("id"),
                    req.queryParam("limit").orElse(null),
                    req.queryParam("before").orElse(null))));
    post(
        router,
        scope,
        maxBodyBytes,
        "/search",
        req -> SearchRoute.search(req, catalog, engine, json, clock, tenancy));
    TraceRoute.register(router, scope, catalog, engine, json, clock, maxBodyBytes, tenancy);
    post(
        router,
        scope,
        maxBodyBytes,
        "/facets",
        req -> FacetRoute.facets(req, catalog, engine, json, clock, tenancy));
    ContextRoute.register(router, scope, catalog, engine, json, maxBodyBytes, tenancy);
    post(
        router,
        scope,
        maxBodyBytes,
        "/patterns",
        req -> PatternRoute.patterns(req, catalog, engine, json, clock, tenancy));
    TailRoute.register(
        router, scope, catalog, engine, json, TailRoute.hub(clock, json), maxBodyBytes);
  }

  /** A {@code POST} route of the service-scoped API under {@code /api/v2}. */
  private static void post(
      Router router,
      ServiceScope scope,
      long maxBodyBytes,
      String path,
      dev.chartwell.server.http.Handler handler) {
    router.add("POST", V2.BASE + path, scope.authenticator(), maxBodyBytes, scope.wrap(handler));
  }
}
