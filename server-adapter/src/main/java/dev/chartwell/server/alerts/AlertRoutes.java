package dev.chartwell.server.alerts;

import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import dev.chartwell.server.management.Services;

/**
 * The alert routes of the management API: {@code GET .../clickstack/alerts/{id}/history} (query
 * parameters {@code limit} and {@code before}) and {@code POST .../clickstack/webhooks/{id}/test}
 * (always with {@code Content-Type: application/json}, 415 otherwise; a body, if any, is ignored).
 */
public final class AlertRoutes {
  private static final String BASE =
      "/v1/organizations/{organizationId}/services/{serviceId}/clickstack/";

  private AlertRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services
   * @param alerts the alerts
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router, Accounts accounts, Services services, Alerts alerts, long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    router.add(
        "GET",
        BASE + "alerts/{id}/history",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                alerts.history(
                    service(req, services, false),
                    req.pathParam("id"),
                    req.queryParam("limit").orElse(null),
                    req.queryParam("before").orElse(null))));
    router.add(
        "POST",
        BASE + "webhooks/{id}/test",
        auth,
        maxBodyBytes,
        // A JSON body (or none) with Content-Type: application/json, which no HTML form can send:
        // a cross-site form cannot fire the test where a browser keeps Basic credentials.
        Route.Body.JSON,
        req ->
            Response.envelope(
                alerts.testWebhook(service(req, services, true), req.pathParam("id"))));
  }

  private static String service(Request req, Services services, boolean write) {
    return services
        .get(KeyPrincipal.organization(req, write), req.pathParam("serviceId"))
        .get("id")
        .asText();
  }
}
