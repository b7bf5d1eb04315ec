package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private endpoints, backups (without --backup-dir: none; see BackupIntegrationTest) and query
 * endpoints: what a single machine answers to the calls the Terraform provider makes on every
 * refresh.
 */
class SingleMachineRoutesIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String service;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    service =
        SERVICES
            + "/"
            + result(
                    send(
                        "POST",
                        SERVICES,
                        "{\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
                        ADMIN),
                    200)
                .get("result")
                .get("service")
                .get("id")
                .textValue();
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  HttpResponse<String> send(String method, String path, String body, String auth) throws Exception {
    return http.send(method, path, body, "Authorization", auth);
  }

  static JsonNode result(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  String error(String method, String path, String body, int status) throws Exception {
    return result(send(method, path, body, ADMIN), status).get("error").textValue();
  }

  @Test
  void privateEndpointsAndBackupsAnswerWhatIsTrue() throws Exception {
    assertEquals(
        "{}",
        result(send("GET", service + "/privateEndpointConfig", null, ADMIN), 200)
            .get("result")
            .toString());
    assertEquals(
        "[]", result(send("GET", service + "/backups", null, ADMIN), 200).get("result").toString());
    assertEquals(
        "NOT_FOUND: backup 5f1a77f0-0000-4000-8000-000000000000 of service "
            + service.substring(service.lastIndexOf('/') + 1)
            + " does not exist",
        error("GET", service + "/backups/5f1a77f0-0000-4000-8000-000000000000", null, 404));
    assertEquals(
        "{}",
        result(send("GET", service + "/backupConfiguration", null, ADMIN), 200)
            .get("result")
            .toString());
  }

  @Test
  void aBackupScheduleCannotBeSetButDefaultsCan() throws Exception {
    String path = service + "/backupConfiguration";
    assertEquals(
        "{}",
        result(
                send(
                    "PATCH",
                    path,
                    "{\"backupPeriodInHours\":null,\"backupRetentionPeriodInHours\":null}",
                    ADMIN),
                200)
            .get("result")
            .toString());
    assertEquals(
        "BAD_REQUEST: backupPeriodInHours: Chartwell takes backups on request (POST"
            + " /api/v2/admin/backup), so there is no schedule to set",
        error("PATCH", path, "{\"backupPeriodInHours\":24}", 400));
    assertEquals(
        "BAD_REQUEST: backupStartTime: must be a string; backupEvery: unknown field",
        error("PATCH", path, "{\"backupStartTime\":3,\"backupEvery\":1}", 400)
            .replace(
                "backupEvery: unknown field; backupStartTime: must be a string",
                "backupStartTime: must be a string; backupEvery: unknown field"));
  }

  @Test
  void thereIsNoQueryEndpoint() throws Exception {
    String path = service + "/serviceQueryEndpoint";
    String id = service.substring(service.lastIndexOf('/') + 1);
    assertEquals(
        "NOT_FOUND: service " + id + " has no query endpoint (Chartwell runs no SQL)",
        error("GET", path, null, 404));
    assertEquals(
        "BAD_REQUEST: Chartwell runs no SQL, so it has no query endpoint to create; query with POST"
            + " /api/v2/charts/series",
        error("POST", path, "{\"roles\":[\"sql_console_admin\"],\"openApiKeys\":[]}", 400));
    assertEquals(404, send("DELETE", path, null, ADMIN).statusCode());
  }

  @Test
  void unknownServicesAndReadOnlyKeysAreRefused() throws Exception {
    String other = SERVICES + "/5f1a77f0-0000-4000-8000-000000000000";
    for (String p :
        new String[] {
          "/privateEndpointConfig", "/backups", "/backupConfiguration", "/serviceQueryEndpoint"
        }) {
      assertEquals(
          "NOT_FOUND: service 5f1a77f0-0000-4000-8000-000000000000 does not exist",
          error("GET", other + p, null, 404));
    }
    JsonNode dev =
        result(
                send(
                    "POST",
                    "/v1/organizations/" + TestServers.ORG + "/keys",
                    "{\"name\":\"d\",\"roles\":[\"developer\"]}",
                    ADMIN),
                200)
            .get("result");
    String auth =
        HttpTestClient.basic(dev.get("keyId").textValue(), dev.get("keySecret").textValue());
    assertEquals(200, send("GET", service + "/backupConfiguration", null, auth).statusCode());
    assertEquals(
        403,
        send("PATCH", service + "/backupConfiguration", "{\"backupPeriodInHours\":null}", auth)
            .statusCode());
  }
}
