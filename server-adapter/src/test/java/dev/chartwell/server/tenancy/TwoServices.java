package dev.chartwell.server.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.concurrent.CompletableFuture;

/** A real server on a loopback port with two running services, a flooding one and a quiet one. */
final class TwoServices implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final long T = 1_778_371_200_000L; // 2026-05-10T00:00:00Z

  final ChartwellServer server;
  final HttpTestClient http;
  final Service a;
  final Service b;
  private final HttpClient async =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A service: its id and Bearer token. */
  record Service(String id, String token) {}

  TwoServices(Path dataDir, String... flags) throws Exception {
    server = TestServers.start(dataDir, flags);
    http = new HttpTestClient(server.port());
    a = create("Flood");
    b = create("Quiet");
  }

  private Service create(String name) throws Exception {
    JsonNode created =
        cloud(
            "POST",
            SERVICES,
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String id = created.get("service").get("id").textValue();
    Await.until(
        "service " + name + " running",
        () -> cloud("GET", SERVICES + "/" + id, null).get("state").asText().equals("running"));
    return new Service(id, created.get("password").textValue());
  }

  /** A Cloud API call that must succeed; its {@code result}. */
  JsonNode cloud(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), () -> method + " " + path + ": " + r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  /** An {@code /api/v2} call of a service. */
  HttpResponse<String> v2(Service s, String method, String path, String body) throws Exception {
    return http.send(method, path, body, headers(s, path));
  }

  /** The same, sent without waiting for the answer. */
  CompletableFuture<HttpResponse<String>> v2Async(
      Service s, String method, String path, String body) {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    String[] h = headers(s, path);
    for (int i = 0; i < h.length; i += 2) {
      r.header(h[i], h[i + 1]);
    }
    return async.sendAsync(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String[] headers(Service s, String path) {
    return new String[] {
      "Authorization",
      "Bearer " + s.token(),
      "Content-Type",
      path.endsWith("/events") ? "application/x-ndjson" : "application/json"
    };
  }

  /** An {@code /api/v2} call that must succeed; its body. */
  JsonNode ok(Service s, String method, String path, String body) throws Exception {
    HttpResponse<String> r = v2(s, method, path, body);
    assertEquals(200, r.statusCode(), () -> method + " " + path + ": " + r.body());
    return MAPPER.readTree(r.body());
  }

  /** Creates a log source on a connection (the built-in one: {@code default}); its id. */
  String logSource(Service s, String connection, String table) throws Exception {
    return ok(
            s,
            "POST",
            "/api/v2/sources",
            "{\"name\":\""
                + table
                + "\",\"kind\":\"log\",\"connection\":\""
                + connection
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\""
                + table
                + "\"},\"timestampValueExpression\":\"Timestamp\"}")
        .get("data")
        .get("id")
        .textValue();
  }

  /** NDJSON of {@code n} events from {@code first}, a minute apart from {@code start}. */
  static String events(long start, long first, int n, int bodyChars) {
    StringBuilder sb = new StringBuilder();
    java.util.Random random = new java.util.Random(first);
    for (long i = first; i < first + n; i++) {
      sb.append("{\"Timestamp\":")
          .append(start + i * 10)
          .append(",\"ServiceName\":\"svc")
          .append(i % 7)
          .append("\",\"Body\":\"event ")
          .append(i)
          .append(' ');
      for (int c = 0; c < bodyChars; c++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
      sb.append("\"}\n");
    }
    return sb.toString();
  }

  /** A count chart of a source over all of {@link #T}'s day; its body. */
  static String countQuery(String source) {
    return "{\"startTime\":"
        + (T - 86_400_000L)
        + ",\"endTime\":"
        + (T + 86_400_000L)
        + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
        + source
        + "\",\"aggFn\":\"count\"}]}";
  }

  /** The rows a source's table holds, from {@code /api/v2/stats}. */
  long rows(Service s, String source) throws Exception {
    for (JsonNode src : ok(s, "GET", "/api/v2/stats", null).get("data").get("sources")) {
      if (src.get("id").asText().equals(source)) {
        return src.get("rows").asLong();
      }
    }
    throw new AssertionError("no source " + source);
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
