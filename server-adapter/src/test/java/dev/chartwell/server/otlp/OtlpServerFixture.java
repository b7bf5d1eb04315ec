package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * A running server with {@code --otlp-port}, one service and its token, and the HTTP calls OTLP
 * tests make: raw OTLP requests, the management API, and chart queries that read back exactly what
 * a column holds (by grouping on it).
 */
final class OtlpServerFixture implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String BASE = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  final ChartwellServer server;
  final HttpTestClient http;
  final String serviceId;
  final String token;

  /** Whether {@link #close} closes the server: not for {@link #anotherService()}'s fixtures. */
  private final boolean ownsServer;

  private final HttpClient raw =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  OtlpServerFixture(Path dataDir, String... extra) throws Exception {
    this(TestServers.start(dataDir, withOtlpPort(extra)), true);
  }

  private static String[] withOtlpPort(String... extra) {
    String[] args = new String[extra.length + 2];
    args[0] = "--otlp-port";
    args[1] = "0";
    System.arraycopy(extra, 0, args, 2, extra.length);
    return args;
  }

  private OtlpServerFixture(ChartwellServer server, boolean ownsServer) throws Exception {
    this.server = server;
    this.ownsServer = ownsServer;
    http = new HttpTestClient(server.port());
    JsonNode created =
        admin("POST", BASE, "{\"name\":\"Otel\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    awaitState(serviceId, "running");
  }

  /**
   * @return a fixture for a new service, in a warehouse of its own (its own tables and sources), on
   *     this fixture's server; closing it leaves the server running
   */
  OtlpServerFixture anotherService() throws Exception {
    return new OtlpServerFixture(server, false);
  }

  /**
   * @param otlpPort whether to use the OTLP-only port rather than the main one
   * @return the base URL an exporter sends to
   */
  String endpoint(boolean otlpPort) {
    int port = otlpPort ? server.otlpPort().getAsInt() : server.port();
    return "http://127.0.0.1:" + port;
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  void awaitState(String id, String state) throws Exception {
    Await.until(
        "service " + id + " " + state,
        () -> admin("GET", BASE + "/" + id, null).get("state").textValue().equals(state));
  }

  /** The service's ClickStack sources by name. */
  Map<String, JsonNode> sources() throws Exception {
    Map<String, JsonNode> byName = new TreeMap<>();
    for (JsonNode s : admin("GET", BASE + "/" + serviceId + "/clickstack/sources", null)) {
      byName.put(s.get("name").textValue(), s);
    }
    return byName;
  }

  /**
   * Posts a raw OTLP request.
   *
   * @param path {@code /v1/logs}, ...
   * @param contentType the Content-Type, or null for none
   * @param body the body
   * @param headers more header name/value pairs
   * @return the response, body as bytes
   */
  HttpResponse<byte[]> post(String path, String contentType, byte[] body, String... headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(endpoint(true) + path))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return raw.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** Posts with this service's token. */
  HttpResponse<byte[]> postOwn(String path, String contentType, byte[] body, String... headers)
      throws Exception {
    String[] all = java.util.Arrays.copyOf(headers, headers.length + 2);
    all[headers.length] = "Authorization";
    all[headers.length + 1] = "Bearer " + token;
    return post(path, contentType, body, all);
  }

  /**
   * Reads back the values of a column: a count grouped by it over the given time range.
   *
   * @param sourceId the source
   * @param column the column
   * @param fromMillis range start
   * @param toMillis range end
   * @param extra more fields of the series (where, metricDataType, metricName), as JSON pairs
   * @return each value's text and how many rows hold it
   */
  Map<String, Long> values(
      String sourceId, String column, long fromMillis, long toMillis, Map<String, String> extra)
      throws Exception {
    ObjectNode q = MAPPER.createObjectNode();
    q.put("startTime", fromMillis);
    q.put("endTime", toMillis);
    q.put("granularity", "30d");
    ArrayNode series = q.putArray("series");
    ObjectNode s = series.addObject();
    String type = extra.get("metricDataType");
    if (type == null) {
      s.put("sourceId", sourceId);
      extra.forEach(s::put);
    } else {
      // A metric source's charts follow HyperDX's metric semantics; the rows of one of its tables
      // are read back through a plain source on that table.
      s.put("sourceId", rawSource(sourceId, type));
      boolean sql = "sql".equals(extra.get("whereLanguage"));
      String name = extra.get("metricName");
      String where = extra.get("where");
      String byName =
          name == null ? null : sql ? "MetricName = '" + name + "'" : "MetricName:\"" + name + "\"";
      if (byName != null || where != null) {
        s.put(
            "where",
            byName == null ? where : where == null ? byName : byName + " AND (" + where + ")");
      }
      if (sql) {
        s.put("whereLanguage", "sql");
      }
    }
    s.put("aggFn", "count");
    s.putArray("groupBy").add(column);
    JsonNode data = chart(q).get("data");
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode row : data) {
      out.merge(row.get("group").get(0).asText(), row.get("series_0.data").asLong(), Long::sum);
    }
    out.remove(""); // rows without the column
    return out;
  }

  private final Map<String, String> rawSources = new java.util.HashMap<>();

  /**
   * @return a log source on the table of a metric source's data type (created once), so that tests
   *     read its rows as they are stored
   */
  private String rawSource(String metricSourceId, String type) throws Exception {
    String table = null;
    for (JsonNode src : sources().values()) {
      if (src.get("id").textValue().equals(metricSourceId)) {
        table = src.get("metricTables").get(type).textValue();
      }
    }
    String name = table;
    if (!rawSources.containsKey(name)) {
      JsonNode created =
          admin(
              "POST",
              BASE + "/" + serviceId + "/clickstack/sources",
              "{\"name\":\"raw "
                  + name
                  + "\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\",\"tableName\":\""
                  + name
                  + "\"},\"timestampValueExpression\":\"TimeUnix\","
                  + "\"defaultTableSelectExpression\":\"TimeUnix\"}");
      rawSources.put(name, created.get("id").textValue());
    }
    return rawSources.get(name);
  }

  /**
   * @return the answer of a chart query that must succeed
   */
  JsonNode chart(JsonNode query) throws Exception {
    HttpResponse<String> r =
        http.send(
            "POST",
            "/api/v2/charts/series",
            MAPPER.writeValueAsString(query),
            "Authorization",
            "Bearer " + token);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body());
  }

  /** The tables of the service's warehouse, by name. */
  Map<String, JsonNode> tables() throws Exception {
    HttpResponse<String> r =
        http.send("GET", "/api/v2/tables", null, "Authorization", "Bearer " + token);
    assertEquals(200, r.statusCode(), r.body());
    Map<String, JsonNode> byName = new TreeMap<>();
    for (JsonNode t : MAPPER.readTree(r.body()).get("data")) {
      byName.put(t.get("tableName").textValue(), t);
    }
    return byName;
  }

  @Override
  public void close() throws Exception {
    if (ownsServer) {
      server.close();
    }
  }
}
