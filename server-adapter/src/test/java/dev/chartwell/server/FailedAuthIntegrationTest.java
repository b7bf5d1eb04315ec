package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.HttpTestClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failed authentication over HTTP on the real server (from 127.0.0.1, with the server's clock moved
 * by hand): wrong secrets lock the address out with 429 and {@code Retry-After}, the right secret
 * too while the lock-out lasts, and it works again once the clock has moved past it. The limiter's
 * rules with other addresses are tested in {@code FailedAuthLimiterTest}.
 */
class FailedAuthIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG_PATH = "/v1/organizations/" + TestServers.ORG;

  final MutableClock clock = new MutableClock(Instant.parse("2026-05-10T00:00:00Z"));
  final ByteArrayOutputStream log = new ByteArrayOutputStream();
  ChartwellServer server;
  HttpTestClient http;

  void start(Path dir) throws Exception {
    server =
        ChartwellServer.start(
            ServerConfig.parse(
                new String[] {
                  "--port", "0",
                  "--otlp-port", "0",
                  "--data-dir", dir.toString(),
                  "--org-id", TestServers.ORG,
                  "--api-key", "ADMIN:adminsecret1"
                },
                Map.of()),
            new PrintStream(log, true, StandardCharsets.UTF_8),
            new ChartwellServer.Overrides(clock, false, Duration.ZERO, null));
    http = new HttpTestClient(server.port());
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  List<String> lockouts() {
    return Arrays.stream(log.toString(StandardCharsets.UTF_8).split("\n"))
        .filter(l -> l.contains("locked out"))
        .toList();
  }

  HttpResponse<String> asAdmin(String secret) throws Exception {
    return http.send("GET", ORG_PATH, null, "Authorization", HttpTestClient.basic("ADMIN", secret));
  }

  @Test
  void oneHundredFiftyWrongSecretsThenTheRightOneIsRefusedUntilTheLockOutEnds(@TempDir Path dir)
      throws Exception {
    start(dir);
    for (int i = 0; i < 150; i++) {
      HttpResponse<String> r = asAdmin("wrong-secret-" + i);
      if (i < 5) {
        assertEquals(401, r.statusCode(), "attempt " + i + ": " + r.body());
      } else {
        assertEquals(429, r.statusCode(), "attempt " + i + ": " + r.body());
        assertEquals("1", r.headers().firstValue("Retry-After").orElse(null));
      }
    }
    HttpResponse<String> right = asAdmin("adminsecret1");
    assertEquals(429, right.statusCode(), right.body());
    assertEquals("1", right.headers().firstValue("Retry-After").orElse(null));
    JsonNode body = MAPPER.readTree(right.body());
    assertEquals(
        "TOO_MANY_REQUESTS: too many failed authentications from 127.0.0.1; try again in 1 s",
        body.get("error").asText());
    // One line per lock-out (the address's and the key id's), not one per refused request.
    assertEquals(2, lockouts().size(), lockouts().toString());
    assertEquals(
        "chartwell: authentication from 127.0.0.1 locked out for 1 s after 5 failures within 60 s"
            + " (lock-out 1)",
        lockouts().get(0));

    clock.advance(Duration.ofSeconds(1));
    assertEquals(200, asAdmin("adminsecret1").statusCode());
    // The success reset the count: four more failures lock nothing out.
    for (int i = 0; i < 4; i++) {
      assertEquals(401, asAdmin("wrong").statusCode());
    }
    assertEquals(200, asAdmin("adminsecret1").statusCode());
  }

  @Test
  void wrongTokensOnTheMainPortLockTheAddressOutOnTheOtlpPortToo(@TempDir Path dir)
      throws Exception {
    start(dir);
    JsonNode created =
        MAPPER
            .readTree(
                http.send(
                        "POST",
                        ORG_PATH + "/services",
                        "{\"name\":\"s\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
                        "Authorization",
                        HttpTestClient.basic("ADMIN", "adminsecret1"))
                    .body())
            .get("result");
    String token = created.get("password").asText();
    String id = created.get("service").get("id").asText();
    Await.until(
        "service running",
        () ->
            MAPPER
                .readTree(
                    http.send(
                            "GET",
                            ORG_PATH + "/services/" + id,
                            null,
                            "Authorization",
                            HttpTestClient.basic("ADMIN", "adminsecret1"))
                        .body())
                .get("result")
                .get("state")
                .asText()
                .equals("running"));
    for (int i = 0; i < 5; i++) {
      assertEquals(
          401,
          http.send("GET", "/api/v2/stats", null, "Authorization", "Bearer wrong" + i)
              .statusCode());
    }
    HttpTestClient otlp = new HttpTestClient(server.otlpPort().getAsInt());
    HttpResponse<String> refused =
        otlp.send(
            "POST",
            "/v1/logs",
            "{}",
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(429, refused.statusCode(), refused.body());
    assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null));
    JsonNode status = MAPPER.readTree(refused.body());
    assertEquals(8, status.get("code").asInt(), "RESOURCE_EXHAUSTED: " + refused.body());
    assertEquals(
        "TOO_MANY_REQUESTS: too many failed authentications from 127.0.0.1; try again in 1 s",
        status.get("message").asText());
    assertEquals(
        429,
        http.send("GET", "/api/v2/stats", null, "Authorization", "Bearer " + token).statusCode());
    clock.advance(Duration.ofSeconds(1));
    HttpResponse<String> accepted =
        otlp.send(
            "POST",
            "/v1/logs",
            "{}",
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(200, accepted.statusCode(), accepted.body());
  }

  @Test
  void failuresOfTheBasicAndApiKeyFormsOfAServiceTokenCountToo(@TempDir Path dir) throws Exception {
    start(dir);
    JsonNode created =
        MAPPER
            .readTree(
                http.send(
                        "POST",
                        ORG_PATH + "/services",
                        "{\"name\":\"s\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
                        "Authorization",
                        HttpTestClient.basic("ADMIN", "adminsecret1"))
                    .body())
            .get("result");
    String token = created.get("password").asText();
    String id = created.get("service").get("id").asText();
    Await.until(
        "service running",
        () ->
            MAPPER
                .readTree(
                    http.send(
                            "GET",
                            ORG_PATH + "/services/" + id,
                            null,
                            "Authorization",
                            HttpTestClient.basic("ADMIN", "adminsecret1"))
                        .body())
                .get("result")
                .get("state")
                .asText()
                .equals("running"));
    String apiKeyWrong =
        "ApiKey "
            + java.util.Base64.getEncoder()
                .encodeToString((id + ":wrong").getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < 5; i++) {
      String header = i % 2 == 0 ? HttpTestClient.basic(id, "wrong" + i) : apiKeyWrong;
      HttpResponse<String> r = http.send("GET", "/api/v2/stats", null, "Authorization", header);
      assertEquals(401, r.statusCode(), "attempt " + i + ": " + r.body());
    }
    HttpResponse<String> right =
        http.send("GET", "/api/v2/stats", null, "Authorization", HttpTestClient.basic(id, token));
    assertEquals(429, right.statusCode(), right.body());
    // The address's lock-out and the claimed service id's.
    assertEquals(2, lockouts().size(), lockouts().toString());
    assertTrue(
        lockouts().get(1).contains("ending in '" + id.substring(id.length() - 4) + "'"),
        lockouts().toString());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(
        200,
        http.send("GET", "/api/v2/stats", null, "Authorization", HttpTestClient.basic(id, token))
            .statusCode());
  }
}
