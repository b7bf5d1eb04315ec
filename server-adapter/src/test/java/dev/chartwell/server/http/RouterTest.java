package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterTest {
  private static Route route(String method, String path) {
    return new Route(
        method,
        PathPattern.of(path),
        new Authenticator.None(),
        1024,
        req -> Response.json(200, ""));
  }

  private final Route orgs = route("GET", "/v1/organizations/{organizationId}");
  private final Route service = route("GET", "/v1/organizations/{organizationId}/services/{id}");
  private final Route deleteService =
      route("DELETE", "/v1/organizations/{organizationId}/services/{id}");
  private final Router router = new Router().add(orgs).add(service).add(deleteService);

  @Test
  void bindsPathParameters() {
    Router.Match m = router.route("GET", "/v1/organizations/o-1/services/s-2");
    assertSame(service, m.route());
    assertEquals(Map.of("organizationId", "o-1", "id", "s-2"), m.params());
  }

  @Test
  void picksTheRouteOfTheMethod() {
    assertSame(deleteService, router.route("DELETE", "/v1/organizations/o/services/s").route());
  }

  @Test
  void toleratesOneTrailingSlash() {
    assertSame(orgs, router.route("GET", "/v1/organizations/o-1/").route());
  }

  @Test
  void unknownPathIs404() {
    ApiException e = assertThrows(ApiException.class, () -> router.route("GET", "/v2/nothing"));
    assertEquals(ErrorCode.NOT_FOUND, e.code());
    assertEquals("NOT_FOUND: no such resource: GET /v2/nothing", e.envelopeText());
  }

  @Test
  void emptyParameterDoesNotMatch() {
    ApiException e =
        assertThrows(
            ApiException.class, () -> router.route("GET", "/v1/organizations//services/s"));
    assertEquals(ErrorCode.NOT_FOUND, e.code());
  }

  @Test
  void wrongMethodIs405WithAllowHeader() {
    ApiException e =
        assertThrows(
            ApiException.class, () -> router.route("PATCH", "/v1/organizations/o/services/s"));
    assertEquals(ErrorCode.METHOD_NOT_ALLOWED, e.code());
    assertEquals("GET, DELETE", e.headers().get("Allow"));
    assertEquals(
        "METHOD_NOT_ALLOWED: PATCH is not allowed on /v1/organizations/o/services/s"
            + " (allowed: GET, DELETE)",
        e.envelopeText());
  }

  @Test
  void splitsPaths() {
    assertEquals(List.of(), PathPattern.split("/"));
    assertEquals(List.of("a", "b"), PathPattern.split("/a/b"));
    assertEquals(List.of("a", "", "b"), PathPattern.split("/a//b"));
  }

  @Test
  void rejectsMalformedPatterns() {
    assertThrows(IllegalArgumentException.class, () -> PathPattern.of("no-slash"));
    assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a/{b"));
  }
}
