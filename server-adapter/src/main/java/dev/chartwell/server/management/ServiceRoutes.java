package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The services resource: create, list (with tag filters), get, update basic details, scaling and
 * replica scaling, start/stop/awake, rotate password, delete.
 */
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
    router.add(
        "GET",
        BASE,
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                services.list(KeyPrincipal.organization(req, false), req.queryParams("filter"))));
    router.add(
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
    router.add(
        "GET",
        BASE + "/{serviceId}",
        auth,
        maxBodyBytes,
        req ->
            Response.envelope(
                services.get(KeyPrincipal.organization(req, false), req.pathParam("serviceId"))));
    router.add(
        "PATCH",
        BASE + "/{serviceId}",
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          return Response.envelope(
              services.patch(org, req.pathParam("serviceId"), json.readTree(req.bodyBytes())));
        });
    router.add(
        "PATCH",
        BASE + "/{serviceId}/state",
        auth,
        maxBodyBytes,
        req -> {
          Organization org = organization(req, accounts, true);
          BodyReader body = BodyReader.of(json.readTree(req.bodyBytes()), Set.of("command"));
          Optional<String> command =
              ServiceRules.oneOf(body, "command", true, List.of("start", "stop", "awake"));
          body.finish();
          return Response.envelope(
              services.command(org.id(), req.pathParam("serviceId"), command.orElseThrow()));
        });
    for (String path : List.of("scaling", "replicaScaling")) {
      Set<String> fields =
          path.equals("scaling")
              ? ServiceRules.SCALING_FIELDS
              : ServiceRules.REPLICA_SCALING_FIELDS;
      router.add(
          "PATCH",
          BASE + "/{serviceId}/" + path,
          auth,
          maxBodyBytes,
          req -> {
            Organization org = organization(req, accounts, true);
            return Response.envelope(
                services.scale(
                    org, req.pathParam("serviceId"), json.readTree(req.bodyBytes()), fields));
          });
    }
    router.add(
        "PATCH",
        BASE + "/{serviceId}/password",
        auth,
        maxBodyBytes,
        Route.Body.OPTIONAL_JSON, // an empty request asks for a generated password
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
    router.add(
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

  private static Organization organization(Request req, Accounts accounts, boolean write) {
    String id = KeyPrincipal.organization(req, write);
    return accounts
        .organization(id)
        .orElseThrow(() -> ApiException.notFound("organization " + id + " does not exist"));
  }
}
