package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * A running server with one service and its token, and what the shipper tests ask it: raw requests,
 * the service's tables and sources, and chart and search counts.
 */
final class ShipperServer implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String BASE = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  /**
   * The server, or {@code null} when it runs in another process ({@link #of(int, AutoCloseable)}).
   */
  final ChartwellServer server;

  final HttpTestClient http;
  private final int port;
  private final AutoCloseable owner;
  final String serviceId;
  final String token;
  private final boolean ownsServer;
  private final HttpClient raw =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  ShipperServer(Path dataDir, String... extra) throws Exception {
    this(TestServers.start(dataDir, extra), true);
  }

  private ShipperServer(ChartwellServer server, boolean ownsServer) throws Exception {
    this(server, server.port(), ownsServer ? server : null);
  }

  private ShipperServer(ChartwellServer server, int port, AutoCloseable owner) throws Exception {
    this.server = server;
    this.port = port;
    this.owner = owner;
    this.ownsServer = owner != null;
    http = new HttpTestClient(port);
    JsonNode created =
        admin("POST", BASE, "{\"name\":\"Ship\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "service running",
        () ->
            admin("GET", BASE + "/" + serviceId, null).get("state").textValue().equals("running"));
  }

  /**
   * A new service on a server running in another process, reached on a loopback port.
   *
   * @param port the server's port (it has the test servers' {@code ADMIN} key)
   * @param owner closed with this (stops that server)
   */
  static ShipperServer of(int port, AutoCloseable owner) throws Exception {
    return new ShipperServer(null, port, owner);
  }

  /** A second service (its own warehouse) on this server; closing it leaves the server. */
  ShipperServer anotherService() throws Exception {
    return new ShipperServer(server, port, null);
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  String bearer() {
    return "Bearer " + token;
  }

  String basic() {
    return HttpTestClient.basic(serviceId, token);
  }

  String apiKey() {
    return "ApiKey "
        + Base64.getEncoder()
            .encodeToString((serviceId + ":" + token).getBytes(StandardCharsets.UTF_8));
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  /** Sends a request with the given headers (name, value pairs); the body as bytes. */
  HttpResponse<byte[]> send(String method, String path, byte[] body, String... headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url() + path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return raw.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /**
   * POSTs a body with the service's Bearer token and a content type.
   *
   * @param more further headers (name, value pairs), such as a content encoding
   */
  HttpResponse<byte[]> post(String path, byte[] body, String contentType, String... more)
      throws Exception {
    String[] headers = new String[4 + more.length];
    headers[0] = "Authorization";
    headers[1] = bearer();
    headers[2] = "Content-Type";
    headers[3] = contentType;
    System.arraycopy(more, 0, headers, 4, more.length);
    return send("POST", path, body, headers);
  }

  /** The service's sources by name. */
  Map<String, JsonNode> sources() throws Exception {
    Map<String, JsonNode> byName = new TreeMap<>();
    for (JsonNode s : admin("GET", BASE + "/" + serviceId + "/clickstack/sources", null)) {
      byName.put(s.get("name").textValue(), s);
    }
    return byName;
  }

  /** The tables of the service's warehouse, by name. */
  Map<String, JsonNode> tables() throws Exception {
    HttpResponse<String> r = http.send("GET", "/api/v2/tables", null, "Authorization", bearer());
    assertEquals(200, r.statusCode(), r.body());
    Map<String, JsonNode> byName = new TreeMap<>();
    for (JsonNode t : MAPPER.readTree(r.body()).get("data")) {
      byName.put(t.get("tableName").textValue(), t);
    }
    return byName;
  }

  /**
   * @param source a source's name
   * @param where a search (Lucene-style), or null
   * @return how many events of the source match, over all time, by a chart count
   */
  long count(String source, String where) throws Exception {
    return counts(source, null, where).values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * @return a chart count of a source's events grouped by a column (null: not grouped)
   */
  Map<String, Long> counts(String source, String groupBy, String where) throws Exception {
    ObjectNode q = MAPPER.createObjectNode();
    q.put("startTime", 1_000_000_000_000L);
    q.put("endTime", 4_102_444_800_000L);
    ObjectNode s = q.putArray("series").addObject();
    s.put("sourceId", sources().get(source).get("id").textValue());
    s.put("aggFn", "count");
    if (where != null) {
      s.put("where", where);
    }
    if (groupBy != null) {
      s.putArray("groupBy").add(groupBy);
    }
    HttpResponse<String> r =
        http.send(
            "POST",
            "/api/v2/charts/series",
            MAPPER.writeValueAsString(q),
            "Authorization",
            bearer());
    assertEquals(200, r.statusCode(), r.body());
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode row : MAPPER.readTree(r.body()).get("data")) {
      String key = groupBy == null ? "" : row.get("group").get(0).asText();
      out.merge(key, row.get("series_0.data").asLong(), Long::sum);
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    if (ownsServer) {
      owner.close();
    }
  }
}
