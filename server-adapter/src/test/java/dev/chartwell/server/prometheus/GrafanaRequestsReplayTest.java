package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.http.HttpTestClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays the requests Grafana's Prometheus data source sends ({@code
 * prometheus/grafana-requests.txt}, captured from Grafana's source with the file each comes from)
 * against a real server holding 20 minutes of a counter and a histogram, and checks each answer's
 * status and the shape Grafana's parser reads: the envelope, {@code resultType} and {@code result}
 * with Unix-second numbers and string values, string lists, series objects, metadata and build
 * info.
 */
class GrafanaRequestsReplayTest {
  @TempDir static Path dir;
  static PromTestServer ours;
  static final HttpClient CLIENT = HttpClient.newHttpClient();
  static final long T0 = (System.currentTimeMillis() - 30 * 60_000) / 60_000 * 60_000;

  /** One request of the fixture. */
  record Replay(
      String source,
      String method,
      String target,
      List<String[]> headers,
      String body,
      int status,
      String shape,
      String contains) {}

  @BeforeAll
  static void start() throws Exception {
    ours = new PromTestServer(dir);
    List<RemoteWrite.TimeSeries> series = new ArrayList<>();
    int points = 20 * 4;
    for (String[] target : new String[][] {{"api", "a:1"}, {"web", "b:1"}}) {
      long[] ts = new long[points];
      double[] counter = new double[points];
      for (int k = 0; k < points; k++) {
        ts[k] = T0 + k * 15_000L;
        counter[k] = k * (target[0].equals("api") ? 3 : 1);
      }
      series.add(
          new RemoteWrite.TimeSeries(
              Labels.of("__name__", "http_requests_total", "job", target[0], "instance", target[1]),
              ts,
              counter));
      for (String le : new String[] {"0.1", "1", "+Inf"}) {
        double[] bucket = new double[points];
        for (int k = 0; k < points; k++) {
          bucket[k] = k * (le.equals("0.1") ? 1 : le.equals("1") ? 2 : 3);
        }
        series.add(
            new RemoteWrite.TimeSeries(
                Labels.of(
                    "__name__",
                    "http_request_duration_seconds_bucket",
                    "job",
                    target[0],
                    "instance",
                    target[1],
                    "le",
                    le),
                ts,
                bucket));
      }
    }
    ours.write(
        new RemoteWrite.Request(
            series,
            List.of(
                new RemoteWrite.Metadata(
                    RemoteWrite.MetricType.COUNTER, "http_requests_total", "requests served", ""),
                new RemoteWrite.Metadata(
                    RemoteWrite.MetricType.HISTOGRAM,
                    "http_request_duration_seconds",
                    "request latency",
                    "seconds"))));
  }

  @AfterAll
  static void stop() throws Exception {
    if (ours != null) {
      ours.close();
    }
  }

  static List<Replay> fixture() throws IOException {
    String text;
    try (InputStream in =
        GrafanaRequestsReplayTest.class.getResourceAsStream("/prometheus/grafana-requests.txt")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    long s = T0 / 1000 + 120;
    long e = T0 / 1000 + 18 * 60;
    Map<String, String> values =
        Map.of(
            "{S}", Long.toString(s),
            "{E}", Long.toString(e),
            "{S15}", Long.toString(s / 15 * 15),
            "{E15}", Long.toString(e / 15 * 15),
            "{S60}", Long.toString(s / 60 * 60),
            "{E60}", Long.toString(e / 60 * 60),
            "{S_MS}", Long.toString(s * 1000),
            "{E_MS}", Long.toString(e * 1000));
    List<Replay> out = new ArrayList<>();
    for (String block : text.split("\n\\s*\n")) {
      String source = null;
      String method = null;
      String target = null;
      String body = null;
      String shape = null;
      String contains = null;
      int status = 0;
      List<String[]> headers = new ArrayList<>();
      for (String raw : block.split("\n")) {
        String line = raw;
        for (var v : values.entrySet()) {
          line = line.replace(v.getKey(), v.getValue());
        }
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        } else if (line.startsWith("source: ")) {
          source = line.substring(8);
        } else if (line.startsWith("header: ")) {
          String h = line.substring(8);
          int colon = h.indexOf(": ");
          headers.add(new String[] {h.substring(0, colon), h.substring(colon + 2)});
        } else if (line.startsWith("body: ")) {
          body = line.substring(6);
        } else if (line.startsWith("expect: ")) {
          String[] p = line.substring(8).split(" ");
          status = Integer.parseInt(p[0]);
          shape = p[1];
        } else if (line.startsWith("contains: ")) {
          contains = line.substring(10);
        } else if (line.startsWith("GET ") || line.startsWith("POST ")) {
          method = line.substring(0, line.indexOf(' '));
          target = line.substring(line.indexOf(' ') + 1);
        } else {
          throw new IllegalStateException("fixture line not understood: " + line);
        }
      }
      if (method != null) {
        out.add(new Replay(source, method, target, headers, body, status, shape, contains));
      }
    }
    return out;
  }

  @Test
  void everyGrafanaRequestIsAnsweredAsGrafanaReadsIt() throws Exception {
    List<Replay> replays = fixture();
    assertTrue(replays.size() >= 15, "requests in the fixture: " + replays.size());
    String basic = HttpTestClient.basic(ours.serviceId, ours.token);
    List<String> failures = new ArrayList<>();
    for (Replay r : replays) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(ours.base + r.target()))
              .header("Authorization", basic)
              .header("User-Agent", "Grafana/11.0.0");
      r.headers().forEach(h -> b.header(h[0], h[1]));
      b.method(
          r.method(),
          r.body() == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofString(r.body()));
      HttpResponse<String> answer = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
      try {
        check(r, answer);
      } catch (AssertionError | RuntimeException e) {
        failures.add(r.method() + " " + r.target() + " (" + r.source() + "): " + e.getMessage());
      }
    }
    assertEquals(List.of(), failures);
  }

  static void check(Replay r, HttpResponse<String> answer) throws IOException {
    assertEquals(r.status(), answer.statusCode(), answer.body());
    if (r.shape().equals("absent")) {
      return; // not served; Grafana's code catches the failure (see the fixture's source line)
    }
    assertTrue(
        answer.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
        "JSON answer");
    JsonNode body = PromTestServer.MAPPER.readTree(answer.body());
    if (r.shape().equals("error")) {
      assertEquals("error", body.path("status").asText(), answer.body());
      assertTrue(body.path("errorType").isTextual(), "errorType");
      assertTrue(body.path("error").isTextual(), "error");
    } else {
      assertEquals("success", body.path("status").asText(), answer.body());
      shape(r.shape(), body.path("data"));
    }
    if (r.contains() != null) {
      String where = r.shape().equals("error") ? body.toString() : body.path("data").toString();
      assertTrue(where.contains(r.contains()), "expected " + r.contains() + " in " + where);
    }
  }

  /** The shape Grafana's parser (pkg/promlib/converter/prom.go, the front end) reads. */
  static void shape(String shape, JsonNode data) {
    switch (shape) {
      case "scalar" -> {
        assertEquals("scalar", data.path("resultType").asText());
        point(data.path("result"));
      }
      case "vector" -> {
        assertEquals("vector", data.path("resultType").asText());
        assertTrue(data.path("result").isArray());
        data.path("result")
            .forEach(
                s -> {
                  labels(s.path("metric"));
                  point(s.path("value"));
                });
      }
      case "matrix" -> {
        assertEquals("matrix", data.path("resultType").asText());
        assertTrue(data.path("result").size() > 0, "series in " + data);
        data.path("result")
            .forEach(
                s -> {
                  labels(s.path("metric"));
                  assertTrue(s.path("values").size() > 0, "values in " + s);
                  s.path("values").forEach(GrafanaRequestsReplayTest::point);
                });
      }
      case "strings" -> {
        assertTrue(data.isArray() && data.size() > 0, "a list of strings: " + data);
        data.forEach(v -> assertTrue(v.isTextual(), "string " + v));
      }
      case "series" -> {
        assertTrue(data.isArray() && data.size() > 0, "a list of series: " + data);
        data.forEach(
            s -> {
              labels(s);
              assertTrue(s.path("__name__").isTextual(), "__name__ in " + s);
            });
      }
      case "metadata" -> {
        assertTrue(data.isObject() && data.size() > 0, "metadata by name: " + data);
        data.fields()
            .forEachRemaining(
                e -> {
                  assertTrue(e.getValue().isArray() && e.getValue().size() > 0, e.getKey());
                  e.getValue()
                      .forEach(
                          m -> {
                            assertTrue(m.path("type").isTextual(), "type of " + e.getKey());
                            assertTrue(m.path("help").isTextual(), "help of " + e.getKey());
                            assertTrue(m.path("unit").isTextual(), "unit of " + e.getKey());
                          });
                });
      }
      case "buildinfo" -> {
        assertTrue(data.path("version").isTextual(), "version: " + data);
        // No features: Grafana's heuristics call the data source Prometheus (not Mimir).
        assertTrue(data.path("features").isMissingNode() || data.path("features").isEmpty());
      }
      default -> throw new IllegalStateException("unknown shape " + shape);
    }
  }

  private static void labels(JsonNode metric) {
    assertTrue(metric.isObject(), "a label object: " + metric);
    metric.fields().forEachRemaining(e -> assertTrue(e.getValue().isTextual(), e.getKey()));
  }

  private static void point(JsonNode p) {
    assertTrue(p.isArray() && p.size() == 2, "a [time, value] pair: " + p);
    assertTrue(p.get(0).isNumber(), "Unix seconds as a number: " + p);
    assertTrue(p.get(1).isTextual(), "the value as a string: " + p);
  }
}
