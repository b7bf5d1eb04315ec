package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A real server on loopback whose alerts follow a test clock, with a service, a log source, a
 * dashboard and a webhook to a local {@link Receiver}, and the HTTP calls alert tests make.
 */
final class AlertHarness implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  final Path dataDir;
  final Clock clock;
  final ChartwellServer.Overrides overrides;
  final String[] flags;
  final Receiver receiver;
  ChartwellServer server;
  HttpTestClient http;
  String service;
  String token;
  String source;
  String webhook;

  AlertHarness(Path dataDir, Clock clock, String... flags) throws Exception {
    this(dataDir, new ChartwellServer.Overrides(clock, false, Duration.ZERO, null), flags);
  }

  /**
   * @param overrides the server's clock (alerts follow it) and whether its alert threads run
   */
  AlertHarness(Path dataDir, ChartwellServer.Overrides overrides, String... flags)
      throws Exception {
    this.dataDir = dataDir;
    this.clock = overrides.clock();
    this.overrides = overrides;
    this.flags = flags;
    this.receiver = new Receiver();
    start();
    JsonNode created =
        ok("POST", SERVICES, "{\"name\":\"A\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    service = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "the service running",
        () -> ok("GET", SERVICES + "/" + service, null).get("state").asText().equals("running"));
    source = ok("POST", cs("sources"), "{\"name\":\"logs\",\"kind\":\"log\"}").get("id").asText();
    webhook =
        ok(
                "POST",
                cs("webhooks"),
                "{\"name\":\"on-call\",\"service\":\"generic\",\"url\":\""
                    + receiver.url()
                    + "\",\"body\":\"{\\\"title\\\":\\\"{{title}}\\\",\\\"body\\\":\\\"{{body}}\\\","
                    + "\\\"state\\\":\\\"{{state}}\\\",\\\"group\\\":\\\"{{group}}\\\","
                    + "\\\"value\\\":{{value}},\\\"threshold\\\":\\\"{{threshold}}\\\","
                    + "\\\"startTime\\\":{{startTime}},\\\"endTime\\\":{{endTime}},"
                    + "\\\"alertId\\\":\\\"{{alertId}}\\\",\\\"eventId\\\":\\\"{{eventId}}\\\","
                    + "\\\"link\\\":\\\"{{link}}\\\"}\"}")
            .get("id")
            .asText();
  }

  void start() throws Exception {
    server = TestServers.start(dataDir, overrides, flags);
    http = new HttpTestClient(server.port());
  }

  /** Stops the server and starts another on the same data directory and clock. */
  void restart() throws Exception {
    server.close();
    start();
  }

  String cs(String resource) {
    return SERVICES + "/" + service + "/clickstack/" + resource;
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  JsonNode ok(String method, String path, String body) throws Exception {
    HttpResponse<String> r = send(method, path, body);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  /**
   * Sends events: each {@code [timestamp ISO, ServiceName, SeverityText]}.
   *
   * @param events the events
   */
  void ingest(List<String[]> events) throws Exception {
    StringBuilder nd = new StringBuilder();
    for (String[] e : events) {
      nd.append(
          MAPPER
              .createObjectNode()
              .put("Timestamp", e[0])
              .put("ServiceName", e[1])
              .put("SeverityText", e[2])
              .put("Body", "event")
              .toString());
      nd.append('\n');
    }
    HttpResponse<String> r =
        http.send(
            "POST",
            "/api/v2/sources/" + source + "/events",
            nd.toString(),
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/x-ndjson");
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(events.size(), MAPPER.readTree(r.body()).get("accepted").asInt(), r.body());
  }

  /**
   * @param at a time
   * @param n how many
   * @param service their ServiceName
   * @param severity their SeverityText
   * @return {@code n} events at that time
   */
  static List<String[]> events(Instant at, int n, String service, String severity) {
    return java.util.Collections.nCopies(n, new String[] {at.toString(), service, severity});
  }

  /**
   * @param groupBy the tile's groupBy, or {@code null}
   * @return the id of a tile (counting errors) on a new dashboard, as {@code dashboardId/tileId}
   */
  String[] errorTile(String groupBy) throws Exception {
    JsonNode d =
        ok(
            "POST",
            cs("dashboards"),
            "{\"name\":\"Checkout\",\"tiles\":[{\"name\":\"Errors\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,"
                + "\"config\":{\"displayType\":\"line\",\"sourceId\":\""
                + source
                + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}]"
                + (groupBy == null ? "" : ",\"groupBy\":\"" + groupBy + "\"")
                + "}}]}");
    return new String[] {d.get("id").asText(), d.get("tiles").get(0).get("id").asText()};
  }

  /**
   * @param tile {@code dashboardId/tileId}
   * @param rest further fields of the alert, each a JSON member
   * @return the alert's id
   */
  String tileAlert(String[] tile, String rest) throws Exception {
    return ok(
            "POST",
            cs("alerts"),
            "{\"source\":\"tile\",\"dashboardId\":\""
                + tile[0]
                + "\",\"tileId\":\""
                + tile[1]
                + "\",\"interval\":\"1m\",\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
                + webhook
                + "\"},"
                + rest
                + "}")
        .get("id")
        .asText();
  }

  JsonNode alert(String id) throws Exception {
    return ok("GET", cs("alerts") + "/" + id, null);
  }

  JsonNode history(String id) throws Exception {
    return ok("GET", cs("alerts") + "/" + id + "/history", null);
  }

  Alerts alerts() {
    return server.alerts();
  }

  /** The bodies received so far, parsed. */
  List<JsonNode> notifications() throws Exception {
    List<JsonNode> out = new java.util.ArrayList<>();
    for (Receiver.Received r : receiver.received()) {
      out.add(MAPPER.readTree(r.body()));
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    try {
      server.close();
    } finally {
      receiver.close();
    }
  }
}
