package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.QueryResult;
import dev.chartwell.prometheus.promql.diff.Differential;
import dev.chartwell.prometheus.promql.diff.PrometheusApiTarget;
import dev.chartwell.prometheus.promql.diff.PrometheusProcess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OTLP histograms and summaries read by PromQL under their Prometheus names: the series by hand
 * (cumulative {@code _bucket{le}} with {@code +Inf}, {@code _sum}, {@code _count}, {@code
 * {quantile}}, the unit suffix, staleness, delta left out), and half an hour of generated OTLP
 * histograms held to a real Prometheus that was sent the equivalent classic histogram by remote
 * write ({@code histogram_quantile} over {@code rate} of the buckets and friends).
 */
class OtlpHistogramPromQlTest {
  static final double[] BOUNDS = {0.1, 0.25, 1, 2.5};
  static final String NAME = "http_server_request_duration_seconds";

  @TempDir static Path dir;
  static PromTestServer ours;
  static final HttpClient CLIENT = HttpClient.newHttpClient();
  static final long T0 = (System.currentTimeMillis() - 40 * 60_000) / 60_000 * 60_000;

  @BeforeAll
  static void start() throws Exception {
    ours = new PromTestServer(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (ours != null) {
      ours.close();
    }
  }

  static KeyValue attr(String k, String v) {
    return KeyValue.newBuilder()
        .setKey(k)
        .setValue(AnyValue.newBuilder().setStringValue(v))
        .build();
  }

  static HistogramDataPoint point(long ms, long[] counts, double sum, String route) {
    HistogramDataPoint.Builder p =
        HistogramDataPoint.newBuilder()
            .setStartTimeUnixNano(T0 * 1_000_000L - 1)
            .setTimeUnixNano(ms * 1_000_000L)
            .addAttributes(attr("http.route", route))
            .setSum(sum);
    long total = 0;
    for (long c : counts) {
      p.addBucketCounts(c);
      total += c;
    }
    for (double b : BOUNDS) {
      p.addExplicitBounds(b);
    }
    return p.setCount(total).build();
  }

  static ResourceMetrics resource(String instance, Metric... metrics) {
    ScopeMetrics.Builder scope = ScopeMetrics.newBuilder();
    for (Metric m : metrics) {
      scope.addMetrics(m);
    }
    return ResourceMetrics.newBuilder()
        .setResource(
            Resource.newBuilder()
                .addAttributes(attr("service.name", "shop"))
                .addAttributes(attr("service.namespace", "prod"))
                .addAttributes(attr("service.instance.id", instance)))
        .addScopeMetrics(scope)
        .build();
  }

  static Metric histogram(
      String name, AggregationTemporality temporality, List<HistogramDataPoint> points) {
    return Metric.newBuilder()
        .setName(name)
        .setUnit("s")
        .setHistogram(
            Histogram.newBuilder().setAggregationTemporality(temporality).addAllDataPoints(points))
        .build();
  }

  static void send(ResourceMetrics... resources) throws Exception {
    ExportMetricsServiceRequest.Builder b = ExportMetricsServiceRequest.newBuilder();
    for (ResourceMetrics r : resources) {
      b.addResourceMetrics(r);
    }
    HttpResponse<String> r =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(ours.base + "/v1/metrics"))
                .header("Content-Type", "application/x-protobuf")
                .header("Authorization", ours.bearer())
                .POST(HttpRequest.BodyPublishers.ofByteArray(b.build().toByteArray()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
  }

  static JsonNode get(String path) throws Exception {
    HttpResponse<String> r =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(ours.base + path))
                .header("Authorization", ours.bearer())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return PromTestServer.MAPPER.readTree(r.body()).get("data");
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** The series and values of one hand-made histogram, a summary, a delta histogram. */
  @Test
  void histogramsAndSummariesByHand() throws Exception {
    long t = T0 + 60_000;
    Metric cumulative =
        histogram(
            "rpc.latency",
            AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
            List.of(
                point(t, new long[] {1, 2, 0, 3, 4}, 42.5, "/h"),
                HistogramDataPoint.newBuilder()
                    .setTimeUnixNano((t + 30_000) * 1_000_000L)
                    .addAttributes(attr("http.route", "/h"))
                    .setFlags(1) // no recorded value: the series end
                    .build()));
    Metric delta =
        histogram(
            "rpc.delta",
            AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA,
            List.of(point(t, new long[] {1, 1, 1, 1, 1}, 3, "/h")));
    Metric summary =
        Metric.newBuilder()
            .setName("rpc.size")
            .setUnit("By")
            .setSummary(
                Summary.newBuilder()
                    .addDataPoints(
                        SummaryDataPoint.newBuilder()
                            .setTimeUnixNano(t * 1_000_000L)
                            .setCount(7)
                            .setSum(700)
                            .addQuantileValues(
                                SummaryDataPoint.ValueAtQuantile.newBuilder()
                                    .setQuantile(0.5)
                                    .setValue(90))
                            .addQuantileValues(
                                SummaryDataPoint.ValueAtQuantile.newBuilder()
                                    .setQuantile(0.99)
                                    .setValue(250))))
            .build();
    Metric noBuckets =
        histogram(
            "rpc.plain",
            AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
            List.of(
                HistogramDataPoint.newBuilder()
                    .setTimeUnixNano(t * 1_000_000L)
                    .setCount(4)
                    .setSum(10)
                    .build()));
    send(resource("h1", cumulative, delta, summary, noBuckets));

    String at = "&time=" + Params.seconds(t + 1000).toPlainString();
    JsonNode series =
        get("/api/v1/series?match[]=" + enc("{__name__=~\"rpc_.*\"}") + "&start=" + (T0 / 1000));
    List<String> names = new ArrayList<>();
    series.forEach(
        s ->
            names.add(
                s.get("__name__").asText()
                    + s.path("le").asText("")
                    + s.path("quantile").asText("")));
    assertEquals(
        List.of(
            "rpc_latency_seconds_bucket+Inf",
            "rpc_latency_seconds_bucket0.1",
            "rpc_latency_seconds_bucket0.25",
            "rpc_latency_seconds_bucket1",
            "rpc_latency_seconds_bucket2.5",
            "rpc_latency_seconds_count",
            "rpc_latency_seconds_sum",
            "rpc_plain_seconds_bucket+Inf",
            "rpc_plain_seconds_count",
            "rpc_plain_seconds_sum",
            "rpc_size_bytes0.5",
            "rpc_size_bytes0.99",
            "rpc_size_bytes_count",
            "rpc_size_bytes_sum"),
        names.stream().sorted().toList(),
        series.toString());
    JsonNode first = series.get(0);
    assertEquals("prod/shop", first.get("job").asText());
    assertEquals("h1", first.get("instance").asText());
    assertEquals("/h", first.get("http_route").asText());

    JsonNode buckets =
        get("/api/v1/query?query=" + enc("sort(" + "rpc_latency_seconds_bucket)") + at)
            .get("result");
    List<String> cumulativeCounts = new ArrayList<>();
    buckets.forEach(
        b ->
            cumulativeCounts.add(
                b.get("metric").get("le").asText() + "=" + b.get("value").get(1).asText()));
    assertEquals(List.of("0.1=1", "0.25=3", "1=3", "2.5=6", "+Inf=10"), cumulativeCounts);
    assertEquals(
        "42.5",
        get("/api/v1/query?query=rpc_latency_seconds_sum" + at)
            .get("result")
            .get(0)
            .get("value")
            .get(1)
            .asText());
    assertEquals(
        "250",
        get("/api/v1/query?query=" + enc("rpc_size_bytes{quantile=\"0.99\"}") + at)
            .get("result")
            .get(0)
            .get("value")
            .get(1)
            .asText());
    assertEquals(
        "7",
        get("/api/v1/query?query=rpc_size_bytes_count" + at)
            .get("result")
            .get(0)
            .get("value")
            .get(1)
            .asText());
    // Their types, descriptions and units in /api/v1/metadata (the delta histogram has none).
    JsonNode metadata = get("/api/v1/metadata");
    assertEquals(
        "[{\"type\":\"histogram\",\"help\":\"\",\"unit\":\"seconds\"}]",
        metadata.get("rpc_latency_seconds").toString());
    assertEquals("summary", metadata.get("rpc_size_bytes").get(0).get("type").asText());
    assertEquals("bytes", metadata.get("rpc_size_bytes").get(0).get("unit").asText());
    assertTrue(metadata.path("rpc_delta_seconds").isMissingNode(), metadata.toString());
    // A histogram point without buckets is its +Inf bucket, sum and count.
    assertEquals(
        "4",
        get("/api/v1/query?query=" + enc("rpc_plain_seconds_bucket{le=\"+Inf\"}") + at)
            .get("result")
            .get(0)
            .get("value")
            .get(1)
            .asText());
    // The point flagged "no recorded value" is a staleness marker on all seven series.
    String later = "&time=" + Params.seconds(t + 31_000).toPlainString();
    assertEquals(
        0,
        get("/api/v1/query?query=" + enc("{__name__=~\"rpc_latency_seconds.*\"}") + later)
            .get("result")
            .size());
    // histogram_quantile over the buckets: 3 of 10 at or below 0.25, 6 at or below 2.5, so the
    // median lies in (1, 2.5]: 1 + 1.5 * (5 - 3) / (6 - 3) = 2.
    assertEquals(
        "2",
        get("/api/v1/query?query="
                + enc("histogram_quantile(0.5, rpc_latency_seconds_bucket)")
                + at)
            .get("result")
            .get(0)
            .get("value")
            .get(1)
            .asText());
  }

  /** A resource's other attributes make its target_info series, which joins onto its metrics. */
  @Test
  void targetInfoCarriesTheResourceAttributes() throws Exception {
    long t = T0 + 90_000;
    Metric gauge =
        Metric.newBuilder()
            .setName("room.temp")
            .setDescription("room temperature")
            .setUnit("Cel")
            .setGauge(
                Gauge.newBuilder()
                    .addDataPoints(
                        NumberDataPoint.newBuilder()
                            .setTimeUnixNano(t * 1_000_000L)
                            .setAsDouble(21.5)
                            .addAttributes(attr("room", "lab"))))
            .build();
    send(
        ResourceMetrics.newBuilder()
            .setResource(
                Resource.newBuilder()
                    .addAttributes(attr("service.name", "thermo"))
                    .addAttributes(attr("service.instance.id", "t9"))
                    .addAttributes(attr("k8s.pod.name", "pod-1"))
                    .addAttributes(attr("deployment.environment", "prod")))
            .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(gauge))
            .build());
    String at = "&time=" + Params.seconds(t + 1000).toPlainString();
    assertEquals(
        "[{\"type\":\"gauge\",\"help\":\"room temperature\",\"unit\":\"celsius\"}]",
        get("/api/v1/metadata?metric=room_temp_celsius").get("room_temp_celsius").toString());
    JsonNode info = get("/api/v1/query?query=target_info" + at).get("result");
    assertEquals(1, info.size(), info.toString());
    assertEquals(
        "{\"__name__\":\"target_info\",\"deployment_environment\":\"prod\",\"instance\":\"t9\","
            + "\"job\":\"thermo\",\"k8s_pod_name\":\"pod-1\"}",
        info.get(0).get("metric").toString());
    assertEquals("1", info.get(0).get("value").get(1).asText());
    JsonNode joined =
        get("/api/v1/query?query="
                + enc(
                    "room_temp_celsius * on (job, instance) group_left (k8s_pod_name) target_info")
                + at)
            .get("result");
    assertEquals(
        "{\"instance\":\"t9\",\"job\":\"thermo\",\"k8s_pod_name\":\"pod-1\",\"room\":\"lab\"}",
        joined.get(0).get("metric").toString());
    assertEquals("21.5", joined.get(0).get("value").get(1).asText());
    // Resources with only service.name, service.namespace and service.instance.id give none.
    assertEquals(
        0,
        get("/api/v1/series?match[]=" + enc("target_info{job=\"prod/shop\"}") + "&start=0").size());
  }

  /**
   * Half an hour of cumulative OTLP histograms (two instances, two routes, a restart) to us, and
   * the same observations as a classic histogram to a real Prometheus: the answers agree.
   */
  @Test
  void otlpHistogramsAnswerAsTheClassicHistogramInPrometheus() throws Exception {
    if (!PrometheusProcess.available()) {
      System.err.println("SKIPPED OtlpHistogramPromQlTest (Prometheus part): no prometheus binary");
    }
    Assumptions.assumeTrue(PrometheusProcess.available(), "prometheus binary missing");
    Random rnd = new Random(7);
    long start = T0 + 5 * 60_000;
    int scrapes = 30 * 4;
    List<SeriesData> classic = new ArrayList<>();
    List<ResourceMetrics> otlp = new ArrayList<>();
    for (String instance : new String[] {"a", "b"}) {
      List<HistogramDataPoint> points = new ArrayList<>();
      for (String route : new String[] {"/x", "/y"}) {
        long[][] bucketTs = new long[BOUNDS.length + 1][scrapes];
        double[][] bucketValues = new double[BOUNDS.length + 1][scrapes];
        long[] ts = new long[scrapes];
        double[] sums = new double[scrapes];
        double[] counts = new double[scrapes];
        long[] perBucket = new long[BOUNDS.length + 1];
        double sum = 0;
        for (int k = 0; k < scrapes; k++) {
          long t = start + k * 15_000L + (instance.equals("a") ? 0 : 4_321);
          if (k == scrapes / 2 && route.equals("/y")) {
            perBucket = new long[BOUNDS.length + 1]; // a restart: the counts start again
            sum = 0;
          }
          int n = rnd.nextInt(30);
          for (int o = 0; o < n; o++) {
            double x = Math.abs(rnd.nextGaussian());
            sum += x;
            int b = 0;
            while (b < BOUNDS.length && x > BOUNDS[b]) {
              b++;
            }
            perBucket[b]++;
          }
          points.add(point(t, perBucket.clone(), sum, route));
          ts[k] = t;
          sums[k] = sum;
          double cumulative = 0;
          for (int b = 0; b <= BOUNDS.length; b++) {
            cumulative += perBucket[b];
            bucketTs[b][k] = t;
            bucketValues[b][k] = cumulative;
          }
          counts[k] = cumulative;
        }
        for (int b = 0; b <= BOUNDS.length; b++) {
          classic.add(
              new SeriesData(
                  labels(
                      NAME + "_bucket",
                      instance,
                      route,
                      b == BOUNDS.length ? "+Inf" : OtlpHistograms.formatBound(BOUNDS[b])),
                  bucketTs[b],
                  bucketValues[b]));
        }
        classic.add(new SeriesData(labels(NAME + "_sum", instance, route, null), ts, sums));
        classic.add(new SeriesData(labels(NAME + "_count", instance, route, null), ts, counts));
      }
      otlp.add(
          resource(
              instance,
              histogram(
                  "http.server.request.duration",
                  AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
                  points)));
    }
    send(otlp.toArray(ResourceMetrics[]::new));
    try (PrometheusProcess prometheus = new PrometheusProcess()) {
      prometheus.write(classic);
      PrometheusApiTarget theirs = new PrometheusApiTarget(prometheus.base);
      PrometheusApiTarget mine = new PrometheusApiTarget(ours.base, ours.bearer(), false);
      long from = start + 6 * 60_000;
      long to = start + 29 * 60_000;
      assertEquals(
          20,
          ((QueryResult.Matrix) theirs.range(NAME + "_bucket", from, to, 60_000)).series().size(),
          "Prometheus holds 2 instances x 2 routes x 5 buckets");
      int comparisons = 0;
      for (String q :
          List.of(
              NAME + "_bucket",
              NAME + "_count",
              NAME + "_sum",
              "histogram_quantile(0.9, sum by (le) (rate(" + NAME + "_bucket[5m])))",
              "histogram_quantile(0.5, rate(" + NAME + "_bucket[5m]))",
              "histogram_quantile(0.99, sum by (job, le) (increase(" + NAME + "_bucket[10m])))",
              "rate(" + NAME + "_sum[5m]) / rate(" + NAME + "_count[5m])",
              "sum by (http_route) (rate(" + NAME + "_count{instance=\"b\"}[2m]))")) {
        Differential.compare(
            q + " range", theirs.range(q, from, to, 60_000), mine.range(q, from, to, 60_000), q);
        Differential.compare(
            q + " instant", theirs.instant(q, to - 7_000), mine.instant(q, to - 7_000), q);
        comparisons += 2;
      }
      System.out.println(
          "OtlpHistogramPromQlTest: " + comparisons + " comparisons with Prometheus");
    }
  }

  static Labels labels(String name, String instance, String route, String le) {
    List<String> l =
        new ArrayList<>(
            List.of(
                "__name__", name, "job", "prod/shop", "instance", instance, "http_route", route));
    if (le != null) {
      l.add("le");
      l.add(le);
    }
    return Labels.of(l.toArray(String[]::new));
  }
}
