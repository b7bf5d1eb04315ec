package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The service operations that a single machine has no use for, answered honestly in the document's
 * shapes, because clients such as the Terraform provider read them on every refresh: {@code
 * privateEndpointConfig} (no endpoint service), {@code backupConfiguration} (no schedule: backups
 * are taken on request, see {@link dev.chartwell.server.backup.BackupRoutes}; setting one is
 * refused) and {@code serviceQueryEndpoint} (none; creating one is refused, since Chartwell runs no
 * SQL).
 */
public final class SingleMachineRoutes {
  private static final String BASE = "/v1/organizations/{organizationId}/services/{serviceId}";
  private static final Set<String> BACKUP_FIELDS =
      Set.of("backupPeriodInHours", "backupRetentionPeriodInHours", "backupStartTime");

  private SingleMachineRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router, Accounts accounts, Services services, Json json, long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    router.add(
        "GET",
        BASE + "/privateEndpointConfig",
        auth,
        maxBodyBytes,
        req -> {
          service(req, services, false);
          return Response.envelope(Map.of());
        });
    router.add(
        "GET",
        BASE + "/backupConfiguration",
        auth,
        maxBodyBytes,
        req -> {
          service(req, services, false);
          return Response.envelope(Map.of());
        });
    router.add(
        "PATCH",
        BASE + "/backupConfiguration",
        auth,
        maxBodyBytes,
        req -> {
          service(req, services, true);
          backupPatch(json.readTree(req.bodyBytes()));
          return Response.envelope(Map.of());
        });
    router.add(
        "GET",
        BASE + "/serviceQueryEndpoint",
        auth,
        maxBodyBytes,
        req -> {
          throw noQueryEndpoint(service(req, services, false));
        });
    router.add(
        "DELETE",
        BASE + "/serviceQueryEndpoint",
        auth,
        maxBodyBytes,
        req -> {
          throw noQueryEndpoint(service(req, services, true));
        });
    router.add(
        "POST",
        BASE + "/serviceQueryEndpoint",
        auth,
        maxBodyBytes,
        req -> {
          service(req, services, true);
          // Read the body first: refusing before it is read leaves the client still sending on a
          // connection the server closes, and a large body then meets a reset, not this answer.
          json.readTree(req.bodyBytes());
          throw ApiException.badRequest(
              "Chartwell runs no SQL, so it has no query endpoint to create; query with POST"
                  + " /api/v2/charts/series");
        });
  }

  private static String service(Request req, Services services, boolean write) {
    String id = req.pathParam("serviceId");
    services.get(KeyPrincipal.organization(req, write), id);
    return id;
  }

  private static ApiException noQueryEndpoint(String serviceId) {
    return ApiException.notFound(
        "service " + serviceId + " has no query endpoint (Chartwell runs no SQL)");
  }

  /** Setting every field to {@code null} (the defaults: no schedule) is all a patch may do. */
  private static void backupPatch(JsonNode body) {
    BodyReader r = BodyReader.of(body, BACKUP_FIELDS);
    r.number("backupPeriodInHours");
    r.number("backupRetentionPeriodInHours");
    r.string("backupStartTime", false);
    r.finish();
    Iterator<Map.Entry<String, JsonNode>> fields = body.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      if (!f.getValue().isNull()) {
        throw ApiException.badRequest(
            f.getKey()
                + ": Chartwell takes backups on request (POST /api/v2/admin/backup), so there is"
                + " no schedule to set");
      }
    }
  }
}
