package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.HttpTestClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starts the real server on a free loopback port and talks HTTP to it. */
class ChartwellServerIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

  @TempDir Path dataDir;

  private ServerConfig config(String... extra) throws Exception {
    String[] base = {"--port", "0", "--data-dir", dataDir.toString()};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return ServerConfig.parse(args, Map.of());
  }

  private static ChartwellServer start(ServerConfig config) throws Exception {
    return ChartwellServer.start(config, new PrintStream(new ByteArrayOutputStream(), true));
  }

  @Test
  void healthIsOpenAndManagementNeedsCredentials() throws Exception {
    try (ChartwellServer server = start(config("--org-id", ORG, "--api-key", "ADMIN:topsecret1"))) {
      HttpTestClient http = new HttpTestClient(server.port());

      HttpResponse<String> health = http.send("GET", "/health", null);
      assertEquals(200, health.statusCode());
      assertEquals("{\"status\":\"ok\"}", health.body());

      HttpResponse<String> anonymous = http.send("GET", "/v1/organizations", null);
      assertEquals(401, anonymous.statusCode());
      JsonNode error = MAPPER.readTree(anonymous.body());
      assertEquals(401, error.get("status").intValue());
      assertEquals(
          "UNAUTHORIZED: missing Authorization header (Basic expected)",
          error.get("error").textValue());

      String auth = HttpTestClient.basic("ADMIN", "topsecret1");
      HttpResponse<String> orgs =
          http.send("GET", "/v1/organizations", null, "Authorization", auth);
      assertEquals(200, orgs.statusCode(), orgs.body());
      JsonNode org = MAPPER.readTree(orgs.body()).get("result").get(0);
      assertEquals(ORG, org.get("id").textValue());
      assertFalse(org.has("tier") || org.has("paid"), "not in the Organization schema");
      JsonNode own =
          MAPPER
              .readTree(
                  http.send("GET", "/api/v2/organization", null, "Authorization", auth).body())
              .get("data");
      assertEquals("SCALE", own.get("tier").textValue());
      assertTrue(own.get("paid").booleanValue());

      String other = "/v1/organizations/00000000-0000-4000-8000-000000000000";
      assertEquals(403, http.send("GET", other, null, "Authorization", auth).statusCode());
      assertEquals(
          401,
          http.send(
                  "GET",
                  "/v1/organizations",
                  null,
                  "Authorization",
                  HttpTestClient.basic("ADMIN", "wrongsecret"))
              .statusCode());
      assertEquals(
          401,
          http.send(
                  "GET",
                  "/v1/organizations",
                  null,
                  "Authorization",
                  HttpTestClient.basic("NOBODY", "topsecret1"))
              .statusCode());
    }
  }

  @Test
  void generatedOrganizationAndKeySurviveARestart() throws Exception {
    String orgId;
    String keyId;
    String secret;
    try (ChartwellServer first = start(config())) {
      List<String> banner = first.banner();
      assertTrue(banner.get(0).matches("Chartwell listening on http://127\\.0\\.0\\.1:\\d+"));
      orgId = banner.get(1).substring("organization id: ".length());
      keyId = banner.get(2).substring("admin key id: ".length());
      secret = banner.get(3).substring(banner.get(3).lastIndexOf(' ') + 1);
    }
    try (ChartwellServer second = start(config())) {
      assertEquals(4, second.banner().size(), "the secret is printed only when generated");
      assertTrue(
          second.banner().get(3).startsWith("web UI: http://127.0.0.1:" + second.port() + "/"),
          second.banner().get(3));
      assertEquals("organization id: " + orgId, second.banner().get(1));
      assertEquals("admin key id: " + keyId, second.banner().get(2));
      HttpResponse<String> org =
          new HttpTestClient(second.port())
              .send(
                  "GET",
                  "/v1/organizations/" + orgId,
                  null,
                  "Authorization",
                  HttpTestClient.basic(keyId, secret));
      assertEquals(200, org.statusCode(), org.body());
      assertFalse(
          java.nio.file.Files.readString(
                  dataDir.resolve("api-keys.dat"), java.nio.charset.StandardCharsets.ISO_8859_1)
              .contains(secret),
          "the secret must not be stored");
    }
  }

  @Test
  void anotherOrgIdOnAnExistingDirectoryIsRefusedNamingTheOneItHolds() throws Exception {
    try (ChartwellServer first = start(config("--org-id", ORG))) {
      assertEquals("organization id: " + ORG, first.banner().get(1));
    }
    String other = "00000000-0000-4000-8000-000000000000";
    Exception e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> start(config("--org-id", other)));
    assertTrue(
        e.getMessage().contains("differs from the organization this data directory holds (" + ORG),
        e.getMessage());
    // Nothing was added: the same directory still starts with its own organization only.
    try (ChartwellServer again = start(config())) {
      assertEquals("organization id: " + ORG, again.banner().get(1));
    }
  }
}
