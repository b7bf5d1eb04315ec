package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/**
 * A Chartwell extension of the management API: a service's disk quota, {@code GET} and {@code PATCH
 * /v1/organizations/{organizationId}/services/{serviceId}/diskQuota} with an admin API key (Basic).
 * Past its quota, only that service's oldest events are dropped. The body of a patch is {@code
 * {"maxDiskBytes": <bytes>}}, or {@code {"maxDiskBytes": null}} to fall back to {@code
 * --max-disk-per-service}.
 */
public final class DiskQuotaRoutes {
  private static final String PATH =
      "/v1/organizations/{organizationId}/services/{serviceId}/diskQuota";

  /** The smallest quota: one segment file and a log take about this much. */
  static final long MIN_BYTES = 1L << 20;

  private DiskQuotaRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services, which keep their quotas
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   * @param perService {@code --max-disk-per-service}, if given
   * @param usedBytes the bytes a warehouse's event files take now
   * @param changed told after a quota changed
   */
  public static void register(
      Router router,
      Accounts accounts,
      Services services,
      Json json,
      long maxBodyBytes,
      OptionalLong perService,
      ToLongFunction<String> usedBytes,
      Runnable changed) {
    router.add(
        "GET",
        PATH,
        accounts.basicAuthenticator(),
        maxBodyBytes,
        req -> view(req, services, perService, usedBytes, false));
    router.add(
        "PATCH",
        PATH,
        accounts.basicAuthenticator(),
        maxBodyBytes,
        req -> {
          String org = KeyPrincipal.organization(req, true);
          String id = req.pathParam("serviceId");
          services.get(org, id); // 404 before the body is judged
          OptionalLong quota = quota(json.readTree(req.bodyBytes()));
          services.setDiskQuota(org, id, quota);
          changed.run();
          return view(req, services, perService, usedBytes, true);
        });
  }

  private static Response view(
      Request req,
      Services services,
      OptionalLong perService,
      ToLongFunction<String> usedBytes,
      boolean write) {
    String org = KeyPrincipal.organization(req, write);
    String id = req.pathParam("serviceId");
    String warehouse = services.get(org, id).get("dataWarehouseId").asText();
    OptionalLong own = services.diskQuota(org, id);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("maxDiskBytes", own.isPresent() ? own.getAsLong() : null);
    result.put("defaultMaxDiskBytes", perService.isPresent() ? perService.getAsLong() : null);
    result.put("usedDiskBytes", usedBytes.applyAsLong(warehouse));
    return Response.envelope(result);
  }

  private static OptionalLong quota(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("the body must be a JSON object: {\"maxDiskBytes\": <bytes>}");
    }
    Iterator<String> names = body.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!name.equals("maxDiskBytes")) {
        throw ApiException.badRequest(
            name + ": unknown field; the only field is maxDiskBytes (bytes, or null)");
      }
    }
    JsonNode v = body.get("maxDiskBytes");
    if (v == null) {
      throw ApiException.badRequest("maxDiskBytes: is required (bytes, or null for the default)");
    }
    if (v.isNull()) {
      return OptionalLong.empty();
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < MIN_BYTES) {
      throw ApiException.badRequest(
          "maxDiskBytes: must be a whole number of bytes, at least " + MIN_BYTES + " (1 MiB)");
    }
    return OptionalLong.of(v.longValue());
  }
}
