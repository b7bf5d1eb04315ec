package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.ApiServer;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Organization;
import dev.chartwell.server.management.SecretHasher;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.management.TransitionTimer;
import dev.chartwell.server.store.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart and search routes' authentication: a service token, or an organization's API key with
 * {@code X-Service-Id} naming one of that organization's services. One data directory holds one
 * organization through the public API, so the service of a second organization is created here
 * directly in the service store, as it would be stored.
 */
class ServiceScopeTest {
  private static final Secrets SECRETS = Secrets.of(new byte[32]);
  private static final SecretHasher HASHER = new SecretHasher(SecretHasher.MIN_ITERATIONS);

  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG_A = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
  static final String ORG_B = "00000000-0000-4000-8000-000000000000";

  @TempDir Path dir;
  Accounts accounts;
  Services services;
  ApiServer server;
  HttpTestClient http;
  String serviceA;
  String serviceB;
  String tokenB;

  @BeforeEach
  void start() throws Exception {
    Json json = new Json();
    accounts = Accounts.open(dir, json.mapper(), Clock.systemUTC(), SECRETS, HASHER);
    Accounts.Bootstrap boot =
        accounts.bootstrap(
            Optional.of(ORG_A), Optional.of("KEYA"), Optional.of("secret-of-a-1"), "SCALE", true);
    services =
        Services.open(
            dir,
            json.mapper(),
            Clock.systemUTC(),
            Duration.ZERO,
            TransitionTimer.realTime(),
            gone -> {},
            SECRETS,
            HASHER);
    JsonNode body =
        MAPPER.readTree("{\"name\":\"A\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceA = services.create(boot.organization(), body).service().get("id").asText();
    Organization other =
        new Organization(ORG_B, "other", "SCALE", true, "2026-01-01T00:00:00Z", null);
    Services.Created b = services.create(other, body);
    serviceB = b.service().get("id").asText();
    tokenB = b.password();

    ServiceScope scope = new ServiceScope(services, accounts);
    Router router =
        new Router()
            .add(
                "POST",
                "/api/v2/charts/series",
                scope.authenticator(),
                1024,
                scope.wrap(
                    req ->
                        Response.json(
                            200, Map.of("service", req.principal(ServicePrincipal.class).id()))));
    server =
        ApiServer.bind(
            "127.0.0.1",
            0,
            ApiServer.Options.defaults(),
            json,
            new PrintStream(new ByteArrayOutputStream(), true));
    server.start(router);
    http = new HttpTestClient(server.port());
  }

  @AfterEach
  void stop() {
    server.stop(1);
    services.close();
    accounts.close();
  }

  private HttpResponse<String> post(String... headers) throws Exception {
    return http.send("POST", "/api/v2/charts/series", "{}", headers);
  }

  private static String error(HttpResponse<String> r) throws Exception {
    return MAPPER.readTree(r.body()).get("error").asText();
  }

  @Test
  void aKeyReadsAServiceOfItsOwnOrganization() throws Exception {
    HttpResponse<String> r =
        post(
            "Authorization",
            HttpTestClient.basic("KEYA", "secret-of-a-1"),
            "X-Service-Id",
            serviceA);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(serviceA, MAPPER.readTree(r.body()).get("service").asText());
  }

  @Test
  void aKeyOfOrganizationADoesNotReadOrganizationBsService() throws Exception {
    HttpResponse<String> r =
        post(
            "Authorization",
            HttpTestClient.basic("KEYA", "secret-of-a-1"),
            "X-Service-Id",
            serviceB);
    assertEquals(404, r.statusCode(), r.body());
    assertEquals("NOT_FOUND: service " + serviceB + " does not exist", error(r));
  }

  @Test
  void theServiceTokenStillWorksAndNeedsNoHeader() throws Exception {
    HttpResponse<String> r = post("Authorization", "Bearer " + tokenB);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(serviceB, MAPPER.readTree(r.body()).get("service").asText());
  }

  @Test
  void aKeyWithoutTheServiceHeaderIsA400NamingIt() throws Exception {
    HttpResponse<String> r = post("Authorization", HttpTestClient.basic("KEYA", "secret-of-a-1"));
    assertEquals(400, r.statusCode(), r.body());
    assertTrue(error(r).startsWith("BAD_REQUEST: X-Service-Id: required"), r.body());
  }

  @Test
  void aWrongSecretOrNoCredentialsAre401ChallengingBothSchemes() throws Exception {
    HttpResponse<String> wrong =
        post("Authorization", HttpTestClient.basic("KEYA", "nope"), "X-Service-Id", serviceA);
    assertEquals(401, wrong.statusCode(), wrong.body());
    HttpResponse<String> none = post();
    assertEquals(401, none.statusCode(), none.body());
    String challenge = none.headers().firstValue("WWW-Authenticate").orElse("");
    assertTrue(challenge.contains("Bearer") && challenge.contains("Basic"), challenge);
    HttpResponse<String> other = post("Authorization", "Digest x");
    assertEquals(401, other.statusCode(), other.body());
    assertTrue(error(other).contains("Bearer, Basic or ApiKey expected"), other.body());
  }
}
