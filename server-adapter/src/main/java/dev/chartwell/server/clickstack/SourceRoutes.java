package dev.chartwell.server.clickstack;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import dev.chartwell.server.management.Services;

/**
 * {@code /v1/organizations/{organizationId}/services/{serviceId}/clickstack/sources}: list, create,
 * get, replace, delete. Sources belong to the service's warehouse, so the services of one warehouse
 * see the same sources.
 */
public final class SourceRoutes {
  private static final String BASE =
      "/v1/organizations/{organizationId}/services/{serviceId}/clickstack/sources";

  private SourceRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services
   * @param catalog the sources
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router,
      Accounts accounts,
      Services services,
      Catalog catalog,
      Json json,
      long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    router.add(
        "GET",
        BASE,
        auth,
        maxBodyBytes,
        req -> Response.envelope(catalog.sources(warehouse(req, services, false))));
    router.add(
        "POST",
        BASE,
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                catalog.createSource(
                    warehouse(req, services, true), json.readTree(req.bodyBytes()))));
    router.add(
        "GET",
        BASE + "/{sourceId}",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                catalog.source(
                    warehouse(req, services, false), req.pathParam("sourceId"), SourceApi.CLOUD)));
    router.add(
        "PUT",
        BASE + "/{sourceId}",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                catalog.replaceSource(
                    warehouse(req, services, true),
                    req.pathParam("sourceId"),
                    json.readTree(req.bodyBytes()),
                    SourceApi.CLOUD)));
    router.add(
        "DELETE",
        BASE + "/{sourceId}",
        auth,
        maxBodyBytes,
        req -> {
          catalog.deleteSource(warehouse(req, services, true), req.pathParam("sourceId"));
          return Response.emptyEnvelope();
        });
  }

  private static String warehouse(Request req, Services services, boolean write) {
    return services
        .get(KeyPrincipal.organization(req, write), req.pathParam("serviceId"))
        .get("dataWarehouseId")
        .asText();
  }
}
