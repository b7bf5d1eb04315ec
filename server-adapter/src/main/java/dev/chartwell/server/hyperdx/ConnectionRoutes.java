package dev.chartwell.server.hyperdx;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Router;

/**
 * {@code /api/v2/connections}: the connections of the token's warehouse, the built-in one first;
 * external ClickHouse connections are created, read, replaced and deleted here, their passwords
 * never shown.
 */
final class ConnectionRoutes {
  private ConnectionRoutes() {}

  static void register(
      Router router, Authenticator bearer, Catalog catalog, Json json, long maxBodyBytes) {
    String base = V2.BASE + "/connections";
    router.add(
        "GET",
        base,
        bearer,
        maxBodyBytes,
        req -> V2.data(catalog.connections().list(V2.caller(req, false).warehouseId())));
    router.add(
        "POST",
        base,
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                catalog
                    .connections()
                    .create(V2.caller(req, true).warehouseId(), json.readTree(req.bodyBytes()))));
    router.add(
        "GET",
        base + "/{id}",
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                catalog
                    .connections()
                    .get(V2.caller(req, false).warehouseId(), req.pathParam("id"))));
    router.add(
        "PUT",
        base + "/{id}",
        bearer,
        maxBodyBytes,
        req ->
            V2.data(
                catalog
                    .connections()
                    .replace(
                        V2.caller(req, true).warehouseId(),
                        req.pathParam("id"),
                        json.readTree(req.bodyBytes()))));
    router.add(
        "DELETE",
        base + "/{id}",
        bearer,
        maxBodyBytes,
        req -> {
          catalog.deleteConnection(V2.caller(req, true).warehouseId(), req.pathParam("id"));
          return V2.empty();
        });
  }
}
