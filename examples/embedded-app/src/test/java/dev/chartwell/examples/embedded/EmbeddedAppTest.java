package dev.chartwell.examples.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.server.ChartwellServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the example as its main does, and checks what it promises. */
class EmbeddedAppTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir Path dir;

  @Test
  void logsMetersChartsAndServesTheUi() throws Exception {
    int orders = 250;
    try (EmbeddedApp app = EmbeddedApp.start(dir, 0)) {
      app.placeOrders(orders);
      assertTrue(app.flush());

      // The chart counts exactly what was logged: 225 placed, 25 failed.
      long placed = 0;
      long failed = 0;
      for (ChartResult.Row row : app.ordersPerMinute().rows()) {
        placed += value(row, 0);
        failed += value(row, 1);
      }
      assertEquals(orders - orders / 10, placed);
      assertEquals(orders / 10, failed);

      // The meters are metric points in the engine.
      long now = System.currentTimeMillis();
      var counter = points(app.engine(), "otel_metrics_sum", "MetricName:\"orders.placed\"");
      assertEquals((double) orders, counter.get(0).get("Value"));

      // The UI and the API answer over HTTP on the loopback address.
      ChartwellServer server = app.server();
      String base = "http://127.0.0.1:" + server.port();
      assertEquals(200, get(base + "/health", Map.of()).statusCode());
      HttpResponse<String> ui = get(base + "/", Map.of());
      assertEquals(200, ui.statusCode());
      assertTrue(ui.body().contains("<html"));

      ChartwellServer.Access access = server.access().orElseThrow();
      String basic =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(
                      (access.adminKeyId() + ":" + access.adminKeySecret().orElseThrow())
                          .getBytes(StandardCharsets.UTF_8));
      HttpResponse<String> listed =
          get(
              base
                  + "/v1/organizations/"
                  + access.organizationId()
                  + "/services/"
                  + access.serviceId()
                  + "/clickstack/sources",
              Map.of("Authorization", basic));
      assertEquals(200, listed.statusCode(), listed.body());
      String logsId = null;
      String metricsId = null;
      for (JsonNode s : MAPPER.readTree(listed.body()).get("result")) {
        if (s.get("name").asText().equals("Logs")) {
          logsId = s.get("id").asText();
        } else if (s.get("name").asText().equals("Metrics")) {
          metricsId = s.get("id").asText();
        }
      }
      assertTrue(logsId != null && metricsId != null, listed.body());

      // The failed orders, charted over HTTP through the Logs source.
      assertEquals(
          orders / 10,
          chart(
              base,
              access.serviceToken(),
              Map.of(
                  "sourceId", logsId,
                  "aggFn", "count",
                  "where", "ScopeName:\"shop.orders\" SeverityText:ERROR"),
              now));

      // A HyperDX-style metric series over the Metrics source: one of the engine's own figures,
      // stored by the registry (otel_logs and the three metric sources).
      assertEquals(
          4,
          chart(
              base,
              access.serviceToken(),
              Map.of(
                  "sourceId", metricsId,
                  "aggFn", "max",
                  "metricDataType", "gauge",
                  "metricName", "chartwell.engine.sources"),
              now));
    }
  }

  /** One series over the last hour, in one 30-day bucket, over HTTP: its value. */
  private double chart(String base, String token, Map<String, String> series, long now)
      throws Exception {
    String query =
        MAPPER.writeValueAsString(
            Map.of(
                "startTime",
                now - 3_600_000,
                "endTime",
                now + 60_000,
                "granularity",
                "30d",
                "series",
                List.of(series)));
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v2/charts/series"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(query))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    double total = 0;
    for (JsonNode row : MAPPER.readTree(r.body()).get("data")) {
      total += row.get("series_0.data").asDouble();
    }
    return total;
  }

  @Test
  void mainRunsAndExits() throws Exception {
    EmbeddedApp.main(
        new String[] {"--port", "0", "--data-dir", dir.toString(), "--orders", "30", "--exit"});
    // What it logged is in its data directory: 27 placed, 3 failed (and its own lines).
    try (var engine =
        dev.chartwell.engine.Engine.builder().dataDirectory(dir.resolve("engine")).build()) {
      assertEquals(3, count(engine, "ScopeName:\"shop.orders\" SeverityText:ERROR"));
    }
  }

  // The engine queries of the tests, in one place.

  private static List<Map<String, Object>> points(
      dev.chartwell.engine.Engine engine, String sourceId, String where) {
    long now = System.currentTimeMillis();
    return engine
        .search(
            new SearchQuery(
                sourceId, now - 3_600_000, now + 60_000, where, null, null, null, 10, 0),
            QueryOptions.DEFAULT)
        .rows();
  }

  private static long count(dev.chartwell.engine.Engine engine, String where) {
    long now = System.currentTimeMillis();
    ChartResult r =
        engine.query(
            new dev.chartwell.engine.ChartQuery(
                now - 3_600_000,
                now + 60_000,
                null,
                List.of(
                    dev.chartwell.engine.Series.of(
                        "otel_logs", dev.chartwell.engine.AggFn.COUNT, null, where)),
                null));
    long n = 0;
    for (ChartResult.Row row : r.rows()) {
      n += value(row, 0);
    }
    return n;
  }

  private static long value(ChartResult.Row row, int series) {
    Number n = row.values().get(series);
    return n == null ? 0 : n.longValue();
  }

  private HttpResponse<String> get(String url, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
    headers.forEach(b::header);
    return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
