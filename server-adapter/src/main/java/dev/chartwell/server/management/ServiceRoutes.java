package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Handler;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The services resource: create, list, get, update, start/stop, rotate password, delete. */
public final class ServiceRoutes {
  private static final String BASE = "/v1/organizations/{organizationId}/services";

  private ServiceRoutes() {}

  /**
   * @param router where to add the routes
   * @param accounts organizations and keys (authentication)
   * @param services the services
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router, Accounts accounts, Services services, Json json, long maxBodyBytes) {
    Authenticator auth = accounts.basicAuthenticator();
    add(router, "GET", BASE, auth, maxBodyBytes, req -> Response.envelope(services.list(org(req))));
    add(
        router,
        "POST",
        BASE,
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          Services.Created c = services.create(org, json.readTree(req.bodyBytes()));
          Map<String, Object> result = new LinkedHashMap<>();
          result.put("service", c.service());
          result.put("password", c.password());
          return Response.envelope(result);
        });
    add(
        router,
        "GET",
        BASE + "/{serviceId}",
        auth,
        maxBodyBytes,
        req -> Response.envelope(services.get(org(req), req.pathParam("serviceId"))));
    add(
        router,
        "PATCH",
        BASE + "/{serviceId}",
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          return Response.envelope(
              services.patch(org, req.pathParam("serviceId"), json.readTree(req.bodyBytes())));
        });
    add(
        router,
        "PATCH",
        BASE + "/{serviceId}/state",
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          BodyReader body = BodyReader.of(json.readTree(req.bodyBytes()), Set.of("command"));
          Optional<String> command =
              ServiceRules.oneOf(body, "command", true, List.of("start", "stop"));
          body.finish();
          return Response.envelope(
              services.command(org.id(), req.pathParam("serviceId"), command.orElseThrow()));
        });
    add(
        router,
        "PATCH",
        BASE + "/{serviceId}/password",
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          byte[] bytes = req.bodyBytes();
          JsonNode tree =
              bytes.length == 0 ? json.mapper().createObjectNode() : json.readTree(bytes);
          BodyReader body = BodyReader.of(tree, Set.of("newPasswordHash", "newDoubleSha1Hash"));
          Optional<String> hash = body.string("newPasswordHash", false);
          body.string("newDoubleSha1Hash", false);
          body.finish();
          Optional<String> password =
              services.rotatePassword(org.id(), req.pathParam("serviceId"), hash);
          Map<String, Object> result = new LinkedHashMap<>();
          password.ifPresent(p -> result.put("password", p));
          return Response.envelope(result);
        });
    add(
        router,
        "DELETE",
        BASE + "/{serviceId}",
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          services.delete(org.id(), req.pathParam("serviceId"));
          return Response.emptyEnvelope();
        });
  }

  private static void add(
      Router router, String method, String path, Authenticator auth, long limit, Handler h) {
    router.add(new Route(method, PathPattern.of(path), auth, limit, h));
  }

  private static String org(Request req) {
    String org = req.pathParam("organizationId");
    req.principal(KeyPrincipal.class).requireOrganization(org);
    return org;
  }

  private static Organization organization(Request req, Accounts accounts, boolean write) {
    String id = org(req);
    if (write) {
      req.principal(KeyPrincipal.class).requireWrite();
    }
    return accounts
        .organization(id)
        .orElseThrow(() -> ApiException.notFound("organization " + id + " does not exist"));
  }
}
