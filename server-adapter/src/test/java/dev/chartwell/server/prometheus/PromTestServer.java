package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * A real server on a free loopback port with one running service, for the Prometheus tests: its
 * address, the service's id, token and warehouse, and remote write into it.
 */
final class PromTestServer implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  private static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";

  final ChartwellServer server;
  final HttpTestClient http;
  final String base;
  final String serviceId;
  final String token;
  final String warehouse;
  private final HttpClient client = HttpClient.newHttpClient();

  /**
   * @param dir the server's data directory
   * @param extra further command-line options
   */
  PromTestServer(Path dir, String... extra) throws Exception {
    server = TestServers.start(dir, extra);
    try {
      http = new HttpTestClient(server.port());
      base = "http://127.0.0.1:" + server.port();
      HttpResponse<String> r =
          http.send(
              "POST",
              SERVICES,
              "{\"name\":\"Prom\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
              "Authorization",
              ADMIN);
      assertEquals(200, r.statusCode(), r.body());
      JsonNode created = MAPPER.readTree(r.body()).get("result");
      serviceId = created.get("service").get("id").textValue();
      token = created.get("password").textValue();
      warehouse = created.get("service").get("dataWarehouseId").textValue();
      Await.until(
          "service running",
          () ->
              MAPPER
                  .readTree(
                      http.send("GET", SERVICES + "/" + serviceId, null, "Authorization", ADMIN)
                          .body())
                  .path("result")
                  .path("state")
                  .asText()
                  .equals("running"));
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
  }

  /**
   * @return the service's {@code Authorization: Bearer} value
   */
  String bearer() {
    return "Bearer " + token;
  }

  /** Remote-writes a request with the service's token; fails unless it is stored (204). */
  void write(RemoteWrite.Request request) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/write"))
                .header("Content-Type", "application/x-protobuf")
                .header("Content-Encoding", "snappy")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                .header("Authorization", bearer())
                .POST(HttpRequest.BodyPublishers.ofByteArray(RemoteWrite.encode(request)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(204, r.statusCode(), r.body());
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
