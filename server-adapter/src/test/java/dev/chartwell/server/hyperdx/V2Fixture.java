package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A real server on a loopback port with one running service: its Bearer token for {@code /api/v2}
 * and the admin key for the Cloud API's {@code clickstack} paths of the same service.
 */
final class V2Fixture implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";

  final ChartwellServer server;
  final HttpTestClient http;
  final String serviceId;
  final String token;

  V2Fixture(Path dataDir, String... flags) throws Exception {
    server = TestServers.start(dataDir, flags);
    http = new HttpTestClient(server.port());
    JsonNode created =
        cloud("POST", SERVICES, "{\"name\":\"V2\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "the service running",
        () ->
            cloud("GET", SERVICES + "/" + serviceId, null).get("state").asText().equals("running"));
  }

  /**
   * A server started again on a data directory that already holds the service.
   *
   * @param dataDir the data directory of an earlier fixture
   * @param earlier that fixture (closed): its service and token are used again
   */
  V2Fixture(Path dataDir, V2Fixture earlier) throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    serviceId = earlier.serviceId;
    token = earlier.token;
  }

  /** A Cloud API call that must succeed; its {@code result}. */
  JsonNode cloud(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), () -> method + " " + path + ": " + r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  /** The Cloud API path of a ClickStack resource list of the service. */
  String clickstack(String kind) {
    return SERVICES + "/" + serviceId + "/clickstack/" + kind;
  }

  /** An {@code /api/v2} call with the service's token. */
  HttpResponse<String> v2(String method, String path, String body) throws Exception {
    return http.send(
        method,
        path,
        body,
        "Authorization",
        "Bearer " + token,
        "Content-Type",
        path.endsWith("/events") || path.contains("/events?")
            ? "application/x-ndjson"
            : "application/json");
  }

  /** An {@code /api/v2} call that must succeed; its body. */
  JsonNode ok(String method, String path, String body) throws Exception {
    HttpResponse<String> r = v2(method, path, body);
    assertEquals(200, r.statusCode(), () -> method + " " + path + ": " + r.body());
    return MAPPER.readTree(r.body());
  }

  /** An {@code /api/v2} call that must fail with {@code status}; its error text. */
  String fails(int status, String method, String path, String body) throws Exception {
    HttpResponse<String> r = v2(method, path, body);
    assertEquals(status, r.statusCode(), () -> method + " " + path + ": " + r.body());
    JsonNode b = MAPPER.readTree(r.body());
    // Errors under /api/v2 carry HyperDX's "message" besides our "error".
    assertEquals(b.get("error"), b.get("message"), r.body());
    return b.get("error").textValue();
  }

  /**
   * Creates a log source named "Logs" on the default connection, reading a table of the default
   * database with {@code Timestamp} as its time and {@code Timestamp, ServiceName, Body} shown.
   *
   * @param table the table's name
   * @return its id
   */
  String logSource(String table) throws Exception {
    return logSource("Logs", "default", table);
  }

  /**
   * Creates a log source of another name on another connection, as {@link #logSource(String)}.
   *
   * @param name the source's name
   * @param connection the connection's id
   * @param table the table's name
   * @return its id
   */
  String logSource(String name, String connection, String table) throws Exception {
    return ok(
            "POST",
            "/api/v2/sources",
            "{\"name\":\""
                + name
                + "\",\"kind\":\"log\",\"connection\":\""
                + connection
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\""
                + table
                + "\"},\"timestampValueExpression\":\"Timestamp\","
                + "\"defaultTableSelectExpression\":\"Timestamp, ServiceName, Body\"}")
        .get("data")
        .get("id")
        .textValue();
  }

  /**
   * Sends 30 OTLP log records one second apart from {@code t0}: services {@code api} (15), {@code
   * db} (10) and {@code web} (5); every tenth without a host, the others on {@code host-0} or
   * {@code host-1} in turn; every fifth an {@code ERROR}, the others {@code INFO}; bodies {@code
   * line 0} to {@code line 29}.
   *
   * @param t0 the first record's time, in epoch milliseconds
   * @return the id of the logs source they made
   */
  String sendThirtyLogs(long t0) throws Exception {
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String service = i < 15 ? "api" : i < 25 ? "db" : "web";
      String host =
          i % 10 == 9
              ? ""
              : ",{\"key\":\"host.name\",\"value\":{\"stringValue\":\"host-" + (i % 2) + "\"}}";
      records.add(
          String.format(
              Locale.ROOT,
              "{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":"
                  + "\"%s\"}}%s]},\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"%d\","
                  + "\"severityText\":\"%s\",\"body\":{\"stringValue\":\"line %d\"}}]}]}",
              service,
              host,
              (t0 + i * 1000L) * 1_000_000L,
              i % 5 == 0 ? "ERROR" : "INFO",
              i));
    }
    HttpResponse<String> r =
        http.send(
            "POST",
            "/v1/logs",
            "{\"resourceLogs\":[" + String.join(",", records) + "]}",
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    String logs = null;
    for (JsonNode s : ok("GET", "/api/v2/sources", null).get("data")) {
      logs = s.get("id").asText();
    }
    return logs;
  }

  /** Sends NDJSON lines; all must be accepted. */
  void ingest(String path, String ndjson) throws Exception {
    JsonNode r = ok("POST", path, ndjson);
    assertEquals(0, r.get("rejected").asInt(), r.toString());
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
