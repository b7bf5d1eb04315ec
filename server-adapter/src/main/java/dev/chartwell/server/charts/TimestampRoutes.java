package dev.chartwell.server.charts;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Kind;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import java.util.Map;

/**
 * Chartwell's own {@code GET /api/v2/sources/{id}/timestamps}, {@code
 * /api/v2/dashboards/{id}/timestamps} and {@code /api/v2/saved-searches/{id}/timestamps}: when a
 * source, dashboard or saved search of the Bearer token's service was created and last updated.
 * Chartwell keeps these times, but the shapes of the ClickHouse Cloud document (and HyperDX's) have
 * no field for them. Answers use the HyperDX envelope {@code {"data": ...}}.
 */
public final class TimestampRoutes {
  private TimestampRoutes() {}

  /**
   * @param router where to add the routes
   * @param services the services (tokens)
   * @param catalog the sources
   * @param resources the dashboards and saved searches
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router, Services services, Catalog catalog, Resources resources, long maxBodyBytes) {
    Authenticator bearer = ChartRoutes.serviceToken(services);
    router.add(
        "GET",
        "/api/v2/sources/{id}/timestamps",
        bearer,
        maxBodyBytes,
        req -> data(catalog.sourceTimestamps(service(req).warehouseId(), req.pathParam("id"))));
    for (Kind kind : new Kind[] {Kind.DASHBOARD, Kind.SAVED_SEARCH}) {
      router.add(
          "GET",
          "/api/v2/" + kind.path() + "/{id}/timestamps",
          bearer,
          maxBodyBytes,
          req -> data(resources.timestamps(kind, service(req).id(), req.pathParam("id"))));
    }
  }

  private static ServicePrincipal service(Request req) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    return p;
  }

  private static Response data(Object data) {
    return Response.json(200, Map.of("data", data));
  }
}
