package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.HttpTestClient;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (the {@code prometheus} binary, skipped loudly when absent) scrapes itself and
 * our {@code /metrics} (with the metrics token) and remote-writes everything to us (Basic with the
 * service id and token): our {@code /metrics} is {@code up}, every sample Prometheus holds is in
 * our tables, none twice.
 */
class RealPrometheusIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String METRICS_TOKEN = "metrics-token-0123456789";

  @TempDir Path dir;
  PromTestServer prom;
  ChartwellServer server;
  HttpTestClient http;
  Process prometheus;
  int promPort;
  String serviceId;
  String token;
  String warehouse;
  final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  static Path binary() {
    for (String p : new String[] {"/usr/bin/prometheus", "/usr/local/bin/prometheus"}) {
      if (Files.isExecutable(Path.of(p))) {
        return Path.of(p);
      }
    }
    return null;
  }

  @BeforeEach
  void start() throws Exception {
    Path bin = binary();
    if (bin == null) {
      System.err.println(
          "SKIPPED RealPrometheusIntegrationTest: no prometheus binary (apt-get install prometheus)");
    }
    Assumptions.assumeTrue(bin != null, "no prometheus binary");
    prom = new PromTestServer(dir.resolve("chartwell"), "--metrics-token", METRICS_TOKEN);
    server = prom.server;
    http = prom.http;
    serviceId = prom.serviceId;
    token = prom.token;
    warehouse = prom.warehouse;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      promPort = s.getLocalPort();
    }
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, config(server.port(), promPort, serviceId, token));
    prometheus =
        new ProcessBuilder(
                bin.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + promPort)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
  }

  /**
   * The first YAML example of docs/prometheus.md, with this test's ports and credentials, a 1 s
   * scrape interval and a remote write queue that sends within a second.
   */
  static String config(int ourPort, int promPort, String serviceId, String token)
      throws java.io.IOException {
    String doc = Files.readString(Path.of("..", "docs", "prometheus.md"));
    int from = doc.indexOf("```yaml\n") + "```yaml\n".length();
    String yaml = doc.substring(from, doc.indexOf("```", from));
    assertTrue(yaml.contains("remote_write:"), yaml);
    return yaml.replace("scrape_interval: 15s", "scrape_interval: 1s")
            .replace("localhost:9090", "127.0.0.1:" + promPort)
            .replace("localhost:8080", "127.0.0.1:" + ourPort)
            .replace("METRICS_TOKEN", METRICS_TOKEN)
            .replace("SERVICE_ID", serviceId)
            .replace("SERVICE_TOKEN", token)
        + """
                queue_config:
                  batch_send_deadline: 1s
                  min_backoff: 100ms
                  max_backoff: 1s
                metadata_config:
                  send_interval: 1s
            """;
  }

  @AfterEach
  void stop() throws Exception {
    if (prometheus != null && prometheus.isAlive()) {
      prometheus.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    if (prom != null) {
      prom.close();
    }
  }

  JsonNode promQuery(String query, long timeMs) throws Exception {
    String url =
        "http://127.0.0.1:"
            + promPort
            + "/api/v1/query?query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8)
            + "&time="
            + java.math.BigDecimal.valueOf(timeMs, 3).toPlainString();
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    return MAPPER.readTree(r.body());
  }

  boolean promUp(String job) {
    try {
      JsonNode res =
          promQuery("up{job=\"" + job + "\"}", System.currentTimeMillis())
              .path("data")
              .path("result");
      return res.size() == 1 && res.get(0).path("value").get(1).asText().equals("1");
    } catch (Exception e) {
      return false; // not listening yet
    }
  }

  MetricStore store() {
    Catalog catalog = server.catalog();
    return new MetricStore(
        t -> catalog.engineTable(warehouse, Catalog.DEFAULT_DATABASE, t.tableName()).orElse(null),
        100_000_000L);
  }

  @Test
  void everySamplePrometheusHoldsIsOursOnce() throws Exception {
    Path bin = binary();
    Await.until("Prometheus scrapes our /metrics (up is 1)", () -> promUp("chartwell"));
    Await.until("Prometheus scrapes itself", () -> promUp("prometheus"));
    // Our HTTP API sees what was written, with the service's Basic credentials.
    String basic = HttpTestClient.basic(serviceId, token);
    Await.until(
        "both jobs' up series remote-written",
        () -> {
          HttpResponse<String> r =
              http.send("GET", "/api/v1/label/job/values?match[]=up", null, "Authorization", basic);
          return r.statusCode() == 200
              && MAPPER
                  .readTree(r.body())
                  .path("data")
                  .toString()
                  .equals("[\"chartwell\",\"prometheus\"]");
        });
    // Every raw sample Prometheus holds up to a moment reaches us.
    long[] atHolder = {0};
    Await.until(
        "Prometheus holds a few seconds of samples",
        () -> {
          atHolder[0] = System.currentTimeMillis() - 2_000;
          JsonNode up = promQuery("up{job=\"chartwell\"}[10m]", atHolder[0]);
          return up.path("data").path("result").path(0).path("values").size() >= 3;
        });
    long at = atHolder[0];
    JsonNode answer = promQuery("{job=~\"chartwell|prometheus\"}[10m]", at);
    JsonNode matrix = answer.path("data").path("result");
    assertTrue(
        matrix.size() > 100,
        "Prometheus holds " + matrix.size() + " series at " + at + ": " + answer);
    Map<Labels, List<double[]>> expected = new HashMap<>();
    for (JsonNode s : matrix) {
      Map<String, String> l = new HashMap<>();
      s.get("metric").fields().forEachRemaining(e -> l.put(e.getKey(), e.getValue().asText()));
      List<double[]> points = new ArrayList<>();
      for (JsonNode v : s.get("values")) {
        points.add(new double[] {Math.round(v.get(0).asDouble() * 1000), parse(v.get(1).asText())});
      }
      expected.put(Labels.of(l), points);
    }
    String[] missing = {""};
    try {
      Await.until(
          "every sample Prometheus holds up to " + at + " is stored with us",
          () -> {
            Map<Labels, List<double[]>> ours = ours(at);
            for (var e : expected.entrySet()) {
              List<double[]> got = ours.getOrDefault(e.getKey(), List.of());
              if (!same(e.getValue(), got)) {
                missing[0] = e.getKey() + ": " + e.getValue().size() + " vs " + got.size();
                return false;
              }
            }
            return true;
          });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; first difference: " + missing[0], e);
    }
    // The same queries through both servers' HTTP API answer the same.
    for (String q :
        List.of(
            "up",
            "count by (job) ({job=~\"chartwell|prometheus\"})",
            "sum by (job) (rate(prometheus_http_requests_total[30s]))")) {
      JsonNode theirs = promQuery(q, at).path("data");
      String path =
          "/api/v1/query?query="
              + URLEncoder.encode(q, StandardCharsets.UTF_8)
              + "&time="
              + java.math.BigDecimal.valueOf(at, 3).toPlainString();
      JsonNode ours = MAPPER.readTree(http.send("GET", path, null, "Authorization", basic).body());
      assertSameVector(q, theirs, ours.path("data"));
    }
    // promtool (Prometheus' Go client) reads our API with the credentials in the URL.
    Path promtool = bin.resolveSibling("promtool");
    if (Files.isExecutable(promtool)) {
      Process p =
          new ProcessBuilder(
                  promtool.toString(),
                  "query",
                  "instant",
                  "http://" + serviceId + ":" + token + "@127.0.0.1:" + server.port(),
                  "up{job=\"chartwell\"}")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), out);
      assertTrue(out.contains("job=\"chartwell\"} => 1 @["), out);
    } else {
      System.err.println("RealPrometheusIntegrationTest: no promtool beside prometheus, not run");
    }
    // Stopped, Prometheus flushes its queue; then no sample is stored twice.
    prometheus.destroy();
    assertTrue(prometheus.waitFor(90, TimeUnit.SECONDS), "Prometheus stops");
    long rows = 0;
    for (OtelTable t : List.of(OtelTable.GAUGE, OtelTable.SUM)) {
      rows +=
          server
              .catalog()
              .engineTable(warehouse, Catalog.DEFAULT_DATABASE, t.tableName())
              .orElseThrow()
              .stats()
              .rows();
    }
    long distinct = 0;
    for (SeriesData s :
        store()
            .select(
                List.of(new LabelMatcher(Labels.NAME, LabelMatcher.Type.REGEX, ".+")),
                0,
                Long.MAX_VALUE)) {
      distinct += s.size();
    }
    assertEquals(distinct, rows, "rows stored vs distinct (series, time) samples");
  }

  /** Our samples of every series up to a time, staleness markers left out as Prometheus does. */
  Map<Labels, List<double[]>> ours(long at) {
    Map<Labels, List<double[]>> out = new HashMap<>();
    for (SeriesData s :
        store()
            .select(
                List.of(new LabelMatcher("job", LabelMatcher.Type.REGEX, "chartwell|prometheus")),
                at - 600_000,
                at)) {
      List<double[]> points = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        if (!SeriesData.isStale(s.values()[i]) && s.timestamps()[i] > at - 600_000) {
          points.add(new double[] {s.timestamps()[i], s.values()[i]});
        }
      }
      out.put(s.labels(), points);
    }
    return out;
  }

  /**
   * Two instant query answers hold the same series at the same time with the same values, up to the
   * last bits a different order of summation moves (relative 1e-12).
   */
  static void assertSameVector(String query, JsonNode theirs, JsonNode ours) {
    assertEquals(theirs.path("resultType").asText(), ours.path("resultType").asText(), query);
    Map<String, JsonNode> a = new java.util.TreeMap<>();
    theirs.path("result").forEach(r -> a.put(r.path("metric").toString(), r.path("value")));
    Map<String, JsonNode> b = new java.util.TreeMap<>();
    ours.path("result").forEach(r -> b.put(r.path("metric").toString(), r.path("value")));
    assertEquals(a.keySet(), b.keySet(), query);
    a.forEach(
        (metric, value) -> {
          JsonNode other = b.get(metric);
          assertEquals(value.get(0).asText(), other.get(0).asText(), query + " " + metric);
          double x = parse(value.get(1).asText());
          double y = parse(other.get(1).asText());
          assertTrue(
              x == y || Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y)),
              query + " " + metric + ": " + value + " vs " + other);
        });
  }

  static boolean same(List<double[]> a, List<double[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i)[0] != b.get(i)[0]
          || Double.doubleToLongBits(a.get(i)[1]) != Double.doubleToLongBits(b.get(i)[1])) {
        return false;
      }
    }
    return true;
  }

  static double parse(String v) {
    return switch (v) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(v);
    };
  }
}
