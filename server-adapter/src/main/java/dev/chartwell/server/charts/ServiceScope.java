package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Handler;
import dev.chartwell.server.http.Principal;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import dev.chartwell.server.management.Services;

/**
 * The read routes that take either a service token (Bearer, Basic {@code serviceId:token} or {@code
 * ApiKey base64(serviceId:token)}) or an organization's API key (Basic, key id and secret) together
 * with the header {@value #SERVICE_HEADER} naming one of that organization's services. A Basic user
 * name that is the id of a service of this server is the service form; any other is an API key id
 * (see {@link Authenticator.ServiceToken}). The built-in web UI signs in with an API key and reads
 * charts and events this way, without any service password. A key reads only its own organization's
 * services: another organization's service is answered as one that does not exist (404), as a
 * source of another service is.
 */
public final class ServiceScope {
  /** The header that names the service a Basic API key reads. */
  public static final String SERVICE_HEADER = "X-Service-Id";

  private final Services services;
  private final Authenticator.ServiceToken authenticator;

  /**
   * @param services the services (tokens, and the organization of each)
   * @param accounts the API keys
   */
  public ServiceScope(Services services, Accounts accounts) {
    this.services = services;
    this.authenticator =
        ChartRoutes.serviceToken(services, (Authenticator.Basic) accounts.basicAuthenticator());
  }

  /**
   * @return the authenticator of these routes: a service's token in any form, or a Basic API key
   */
  public Authenticator authenticator() {
    return authenticator;
  }

  /**
   * @param handler a handler that reads {@link ServicePrincipal}
   * @return the handler, seeing the service of an API key's request as its principal
   */
  public Handler wrap(Handler handler) {
    return req -> handler.handle(req.withPrincipal(service(req)));
  }

  /**
   * @param req a request authenticated by {@link #authenticator()}
   * @return the service it reads
   * @throws ApiException 400 when an API key names no service, 403 when the key, or the service's
   *     {@code ipAccessList}, does not allow the client's address, 404 when its organization has no
   *     such service
   */
  ServicePrincipal service(Request req) {
    Principal p = req.principal(Principal.class);
    if (p instanceof ServicePrincipal s) {
      return s;
    }
    KeyPrincipal key = KeyPrincipal.of(req);
    String serviceId =
        req.header(SERVICE_HEADER)
            .map(String::strip)
            .filter(v -> !v.isEmpty())
            .orElseThrow(
                () ->
                    ApiException.badRequest(
                        SERVICE_HEADER
                            + ": required with an API key (Basic): the id of the service to"
                            + " read"));
    ObjectNode service = services.get(key.key().organizationId(), serviceId);
    return ServicePrincipal.admitted(service, req.remoteAddress());
  }
}
