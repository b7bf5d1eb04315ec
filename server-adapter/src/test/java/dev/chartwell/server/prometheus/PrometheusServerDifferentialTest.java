package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.diff.Differential;
import dev.chartwell.prometheus.promql.diff.HourOfSamples;
import dev.chartwell.prometheus.promql.diff.InProcessTarget;
import dev.chartwell.prometheus.promql.diff.PrometheusApiTarget;
import dev.chartwell.prometheus.promql.diff.PrometheusProcess;
import dev.chartwell.prometheus.promql.diff.QueryTarget;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.http.HttpTestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Item 4 of the Prometheus work through our server: the generated hour of {@link HourOfSamples}
 * remote-written to a real Prometheus and to a real server of ours (in the same 5-minute requests,
 * ours with the metric metadata Prometheus sends, from the third request on: a counter, a
 * histogram, a gauge, families without), then every expression of {@link Differential} through both
 * servers' {@code /api/v1/query_range} and {@code /api/v1/query}: ours by GET with a Bearer token
 * and by POST form with Basic credentials (as Grafana sends it), and our evaluator in process over
 * the same series, all held to the one Prometheus. Skips loudly when {@code /usr/bin/prometheus} is
 * missing.
 */
class PrometheusServerDifferentialTest {
  @TempDir static Path dir;
  private static PrometheusProcess prometheus;
  private static PromTestServer ours;
  private static long start;
  private static List<SeriesData> data;

  @BeforeAll
  static void load() throws Exception {
    if (!PrometheusProcess.available()) {
      System.err.println(
          "SKIPPED PrometheusServerDifferentialTest: no prometheus binary (apt-get install"
              + " prometheus)");
      return;
    }
    start = HourOfSamples.start(System.currentTimeMillis());
    data = HourOfSamples.generate(42, start, HourOfSamples.SCRAPES);
    prometheus = new PrometheusProcess();
    ours = new PromTestServer(dir);
    List<RemoteWrite.Metadata> metadata =
        List.of(
            new RemoteWrite.Metadata(
                RemoteWrite.MetricType.COUNTER, "dt_requests_total", "requests", ""),
            new RemoteWrite.Metadata(
                RemoteWrite.MetricType.HISTOGRAM, "dt_latency_seconds", "latency", "seconds"),
            new RemoteWrite.Metadata(
                RemoteWrite.MetricType.GAUGE, "dt_temperature", "temperature", ""));
    int request = 0;
    for (List<SeriesData> slice : HourOfSamples.slices(data, start)) {
      prometheus.write(slice);
      List<RemoteWrite.TimeSeries> series = new ArrayList<>();
      for (SeriesData s : slice) {
        series.add(new RemoteWrite.TimeSeries(s.labels(), s.timestamps(), s.values()));
      }
      // The metadata comes with the third request, as Prometheus sends it on its own schedule:
      // the first samples of a histogram's series are stored as untyped, the later ones typed.
      ours.write(new RemoteWrite.Request(series, request++ == 2 ? metadata : List.of()));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (ours != null) {
      ours.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
  }

  @Test
  void everyExpressionAgreesWithPrometheusThroughOurHttpApi() {
    Assumptions.assumeTrue(prometheus != null, "prometheus binary missing");
    Map<String, QueryTarget> targets = new LinkedHashMap<>();
    targets.put("server GET", new PrometheusApiTarget(ours.base, ours.bearer(), false));
    targets.put(
        "server POST",
        new PrometheusApiTarget(ours.base, HttpTestClient.basic(ours.serviceId, ours.token), true));
    targets.put("in process", new InProcessTarget(new MemorySeriesSource(data)));
    Map<String, Differential.Outcome> outcomes =
        Differential.run(new PrometheusApiTarget(prometheus.base), targets, start);
    List<String> failures = new ArrayList<>();
    outcomes.forEach(
        (name, o) -> {
          System.out.println(
              "PrometheusServerDifferentialTest "
                  + name
                  + ": "
                  + Differential.EXPRESSIONS.size()
                  + " expressions, "
                  + o.comparisons()
                  + " comparisons, "
                  + o.failures().size()
                  + " failed");
          o.failures().forEach(f -> failures.add(name + ": " + f));
        });
    assertTrue(outcomes.get("server GET").comparisons() > 5 * 60);
    assertEquals(List.of(), failures.subList(0, Math.min(failures.size(), 40)));
  }

  /** The look-ups Grafana's autocomplete sends answer as Prometheus' do, over the same hour. */
  @Test
  void theLookUpsAgreeWithPrometheus() throws Exception {
    Assumptions.assumeTrue(prometheus != null, "prometheus binary missing");
    String range =
        "start="
            + Params.seconds(start + 10 * 60_000).toPlainString()
            + "&end="
            + Params.seconds(start + 50 * 60_000).toPlainString();
    HttpClient client = HttpClient.newHttpClient();
    for (String path :
        List.of(
            "/api/v1/labels?" + range,
            "/api/v1/labels?match[]=dt_info&" + range,
            "/api/v1/label/__name__/values?" + range,
            "/api/v1/label/le/values?" + range,
            "/api/v1/label/instance/values?match[]=dt_temperature%7Bjob%3D%22db%22%7D&" + range,
            "/api/v1/series?match[]=dt_temperature&match[]=dt_info&" + range,
            "/api/v1/series?match[]=%7B__name__%3D~%22dt_latency.*%22%2Cinstance%3D%22i1%22%7D&"
                + range)) {
      JsonNode theirs = getJson(client, prometheus.base + path, null);
      JsonNode mine = getJson(client, ours.base + path, ours.bearer());
      assertEquals(theirs, mine, path);
    }
  }

  /**
   * promtool (Prometheus' Go client, credentials in the URL) prints the same answers from both
   * servers, for range and instant queries.
   */
  @Test
  void promtoolPrintsTheSameFromBothServers() throws Exception {
    Assumptions.assumeTrue(prometheus != null, "prometheus binary missing");
    Path promtool = Path.of("/usr/bin/promtool");
    if (!Files.isExecutable(promtool)) {
      System.err.println("SKIPPED promtool part of PrometheusServerDifferentialTest: no promtool");
    }
    Assumptions.assumeTrue(Files.isExecutable(promtool), "promtool missing");
    String mine = "http://" + ours.serviceId + ":" + ours.token + "@" + ours.base.substring(7);
    String from = Params.seconds(start + 20 * 60_000).toPlainString();
    String to = Params.seconds(start + 40 * 60_000).toPlainString();
    for (String q :
        List.of(
            "dt_temperature",
            "count by (job) (dt_requests_total)",
            "max_over_time(dt_temperature[5m])",
            "dt_latency_seconds_bucket{le=\"+Inf\", instance=\"i1\"}")) {
      List<String> range =
          List.of("query", "range", "--start=" + from, "--end=" + to, "--step=60s");
      List<String> instant = List.of("query", "instant", "--time=" + to);
      for (List<String> args : List.of(range, instant)) {
        String theirs = promtool(promtool, args, prometheus.base, q);
        assertTrue(theirs.contains("=>"), q + ": " + theirs);
        assertEquals(theirs, promtool(promtool, args, mine, q), String.join(" ", args) + " " + q);
      }
    }
  }

  private static String promtool(Path promtool, List<String> args, String server, String query)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(promtool.toString());
    command.addAll(args);
    command.add(server);
    command.add(query);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool ends");
    assertEquals(0, p.exitValue(), command + ": " + out);
    return out;
  }

  private static JsonNode getJson(HttpClient client, String url, String authorization)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url + " -> " + r.body());
    return PromTestServer.MAPPER.readTree(r.body());
  }
}
