package dev.chartwell.server.charts;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Services;
import java.util.Map;

/**
 * Chartwell's own {@code /api/v2/tables}: the tables of the Bearer token's warehouse (reads also
 * with an organization's API key and the service it names, see {@link ServiceScope}), with their
 * columns (declared, and learnt from the events written) and how many events they hold; {@code PUT
 * /api/v2/tables/{databaseName}/{tableName}} declares a table and its columns, {@code DELETE}
 * deletes one that no source reads. Answers use the HyperDX envelope {@code {"data": ...}}.
 */
public final class TableRoutes {
  private static final String BASE = "/api/v2/tables";
  private static final String ONE = BASE + "/{databaseName}/{tableName}";

  private TableRoutes() {}

  /**
   * @param router where to add the routes
   * @param services the services (tokens)
   * @param accounts the API keys (the reads also take an organization's key, see {@link
   *     ServiceScope})
   * @param catalog the tables
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router,
      Services services,
      Accounts accounts,
      Catalog catalog,
      Json json,
      long maxBodyBytes) {
    Authenticator bearer = ChartRoutes.serviceToken(services);
    ServiceScope scope = new ServiceScope(services, accounts);
    router.add(
        "GET",
        BASE,
        scope.authenticator(),
        maxBodyBytes,
        scope.wrap(req -> data(catalog.tables(warehouse(req, false)))));
    router.add(
        "GET",
        ONE,
        scope.authenticator(),
        maxBodyBytes,
        scope.wrap(
            req ->
                data(
                    catalog.table(
                        warehouse(req, false),
                        req.pathParam("databaseName"),
                        req.pathParam("tableName")))));
    router.add(
        "PUT",
        ONE,
        bearer,
        maxBodyBytes,
        req ->
            data(
                catalog.declareTable(
                    warehouse(req, true),
                    req.pathParam("databaseName"),
                    req.pathParam("tableName"),
                    json.readTree(req.bodyBytes()))));
    router.add(
        "DELETE",
        ONE,
        bearer,
        maxBodyBytes,
        req -> {
          catalog.deleteTable(
              warehouse(req, true), req.pathParam("databaseName"), req.pathParam("tableName"));
          return Response.json(200, Map.of());
        });
  }

  private static Response data(Object data) {
    return Response.json(200, Map.of("data", data));
  }

  private static String warehouse(Request req, boolean write) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    if (write) {
      p.requireWritable();
    }
    return p.warehouseId();
  }
}
