package dev.chartwell.server.http;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the route of a request. A path that matches no pattern is a 404; a path that matches only
 * under other methods is a 405 with an {@code Allow} header.
 */
public final class Router {
  private final List<Route> routes = new ArrayList<>();
  private volatile RequestObserver observer = RequestObserver.NONE;

  /**
   * @param observer told of every request this router's server answers
   * @return this router
   */
  public Router observe(RequestObserver observer) {
    this.observer = observer;
    return this;
  }

  /**
   * @return the observer of answered requests
   */
  public RequestObserver observer() {
    return observer;
  }

  /**
   * Adds a route. Routes are tried in the order they were added.
   *
   * @param route the route
   * @return this router
   */
  public Router add(Route route) {
    routes.add(route);
    return this;
  }

  /**
   * Adds a route. Routes are tried in the order they were added.
   *
   * @param method HTTP method, upper case
   * @param path the path pattern, for example {@code /v1/organizations/{organizationId}}
   * @param auth the required authentication
   * @param maxBodyBytes the largest request body accepted (413 beyond)
   * @param handler the handler
   * @return this router; POST, PUT and PATCH routes require a JSON body ({@link
   *     Route.Body#defaultFor})
   */
  public Router add(
      String method, String path, Authenticator auth, long maxBodyBytes, Handler handler) {
    return add(new Route(method, PathPattern.of(path), auth, maxBodyBytes, handler));
  }

  /**
   * Adds a route that reads the request bodies {@code body} describes.
   *
   * @param method HTTP method, upper case
   * @param path the path pattern
   * @param auth the required authentication
   * @param maxBodyBytes the largest request body accepted (413 beyond)
   * @param body the accepted body media types and whether a body is required
   * @param handler the handler
   * @return this router
   */
  public Router add(
      String method,
      String path,
      Authenticator auth,
      long maxBodyBytes,
      Route.Body body,
      Handler handler) {
    return add(new Route(method, PathPattern.of(path), auth, maxBodyBytes, body, handler));
  }

  /**
   * A route with its path parameters bound.
   *
   * @param route the matched route
   * @param params the path parameters by name
   */
  public record Match(Route route, Map<String, String> params) {}

  /**
   * @param method the request method
   * @param path the decoded request path
   * @return the matching route and parameters
   * @throws ApiException 404 when no route has this path, 405 when none has it with this method
   */
  public Match route(String method, String path) {
    List<String> segments = PathPattern.split(path);
    Set<String> allowed = new LinkedHashSet<>();
    for (Route r : routes) {
      Optional<Map<String, String>> params = r.path().match(segments);
      if (params.isPresent()) {
        if (r.method().equals(method)) {
          return new Match(r, params.get());
        }
        allowed.add(r.method());
      }
    }
    if (allowed.isEmpty()) {
      throw ApiException.notFound("no such resource: " + method + " " + path);
    }
    String allow = String.join(", ", allowed);
    throw new ApiException(
        ErrorCode.METHOD_NOT_ALLOWED,
        method + " is not allowed on " + path + " (allowed: " + allow + ")",
        Map.of("Allow", allow));
  }
}
