package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.remote.RemoteWrite;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code promsidebyside}: the Debian Prometheus and a Chartwell server side by side in one run. The
 * same samples ({@code x{job, instance}}, a counter per series, every 15 s) go to both by remote
 * write, a quarter of an hour of every series per request; the same samples also go to a second
 * Chartwell service by OTLP/HTTP (a gauge {@code x} with the labels as data point attributes), the
 * two kinds of request taking turns, so that the server's processor time per sample of each
 * protocol is measured on the same data. Then {@code sum by (job) (rate(x[5m]))} over the whole
 * span at 1 m steps is asked of both through {@code /api/v1/query_range}, the answers compared
 * (same series, values within 1e-9 relative), both warmed up alike and timed in turns.
 *
 * <p>Figures: the median wall time of a query, and each process's processor time per query (from
 * {@code /proc}, over all timed queries), with the load average at the start and the end.
 */
public final class PromSideBySide {
  private static final String QUERY = "sum by (job) (rate(x[5m]))";
  private static final long STEP_MS = 15_000;
  private static final int PER_REQUEST = 60; // a quarter of an hour of each series

  private PromSideBySide() {}

  /**
   * Runs it.
   *
   * @param flagValues {@code --series 1000 --hours 24 --warmup 10 --runs 20 --server-jar ...
   *     --server-jvm "..." --prometheus /usr/bin/prometheus}
   * @param out where the figures go
   * @return whether both answered the same
   */
  public static boolean run(Map<String, String> flagValues, PrintStream out) throws Exception {
    Flags flags = new Flags(flagValues);
    int series = flags.integer("series", 1000);
    int hours = flags.integer("hours", 24);
    int warmup = flags.integer("warmup", 10);
    int runs = flags.integer("runs", 20);
    Http http = new Http();
    Path data = Files.createTempDirectory("chartwell-bench-prom");
    try (PrometheusServer prom =
            PrometheusServer.start(Path.of(flags.get("prometheus", "/usr/bin/prometheus")), http);
        ChartwellProcess chartwell =
            ChartwellProcess.start(
                Path.of(flags.get("server-jar", "server-adapter/target/chartwell-server.jar")),
                List.of(flags.get("server-jvm", "-Xms2g -Xmx2g -XX:+UseParallelGC").split(" ")),
                data,
                http)) {
      // the server's start-up warm-up would otherwise run beside the measured ingestion, its CPU
      // counted in the server's per sample
      chartwell.awaitWarmUp(java.time.Duration.ofMinutes(10));
      String rwToken = "Bearer " + chartwell.service("remote write")[1];
      String otlpToken = "Bearer " + chartwell.service("otlp")[1];
      long end = System.currentTimeMillis() / 60_000 * 60_000;
      long start = end - hours * 3_600_000L;
      int samples = (int) ((end - start) / STEP_MS);
      out.printf(
          Locale.ROOT,
          "promsidebyside: %,d series x %,d samples (%,d), load average %s%n",
          series,
          samples,
          (long) series * samples,
          loadAverage());
      long[] ticks = new long[3]; // Chartwell by remote write, Chartwell by OTLP, Prometheus
      for (int from = 0, request = 0; from < samples; from += PER_REQUEST, request++) {
        int n = Math.min(PER_REQUEST, samples - from);
        byte[] remote = RemoteWrite.encode(remoteWrite(series, start, from, n));
        byte[] otlp = otlp(series, start, from, n).toByteArray();
        long before = CpuUse.processTicks(prom.pid());
        post(http, prom.url() + "/api/v1/write", null, remote, true);
        ticks[2] += CpuUse.processTicks(prom.pid()) - before;
        for (int turn = 0; turn < 2; turn++) {
          boolean rw = (turn + request) % 2 == 0;
          before = CpuUse.processTicks(chartwell.pid());
          if (rw) {
            post(http, chartwell.url() + "/api/v1/write", rwToken, remote, true);
          } else {
            post(http, chartwell.url() + "/v1/metrics", otlpToken, otlp, false);
          }
          ticks[rw ? 0 : 1] += CpuUse.processTicks(chartwell.pid()) - before;
        }
      }
      double total = (double) series * samples;
      out.printf(
          Locale.ROOT,
          "ingest, server CPU per sample: Chartwell remote write %.0f ns, Chartwell OTLP %.0f ns,"
              + " Prometheus remote write %.0f ns; load average %s%n",
          ticks[0] * 1e7 / total,
          ticks[1] * 1e7 / total,
          ticks[2] * 1e7 / total,
          loadAverage());
      quiet(chartwell.pid());
      quiet(prom.pid());
      out.println("Prometheus TSDB: " + tsdbState(http, prom.url()));
      String range =
          "/api/v1/query_range?query="
              + URLEncoder.encode(QUERY, StandardCharsets.UTF_8)
              + "&start="
              + start / 1000
              + "&end="
              + end / 1000
              + "&step=60";
      JsonNode ours = query(http, chartwell.url() + range, rwToken);
      JsonNode theirs = query(http, prom.url() + range, null);
      String difference = difference(ours, theirs);
      if (difference != null) {
        out.println("the answers differ: " + difference);
        return false;
      }
      out.printf(
          Locale.ROOT,
          "answers agree: %d series of %d points%n",
          ours.size(),
          ours.path(0).path("values").size());
      for (int i = 0; i < warmup; i++) {
        query(http, chartwell.url() + range, rwToken);
        query(http, prom.url() + range, null);
      }
      String loadBefore = loadAverage();
      long[] oursNs = new long[runs];
      long[] theirsNs = new long[runs];
      long oursTicks = 0;
      long theirsTicks = 0;
      for (int i = 0; i < runs; i++) {
        long cpu = CpuUse.processTicks(chartwell.pid());
        long t = System.nanoTime();
        query(http, chartwell.url() + range, rwToken);
        oursNs[i] = System.nanoTime() - t;
        oursTicks += CpuUse.processTicks(chartwell.pid()) - cpu;
        cpu = CpuUse.processTicks(prom.pid());
        t = System.nanoTime();
        query(http, prom.url() + range, null);
        theirsNs[i] = System.nanoTime() - t;
        theirsTicks += CpuUse.processTicks(prom.pid()) - cpu;
      }
      double oursMs = median(oursNs) / 1e6;
      double theirsMs = median(theirsNs) / 1e6;
      double oursCpu = oursTicks * 10.0 / runs;
      double theirsCpu = theirsTicks * 10.0 / runs;
      out.printf(
          Locale.ROOT,
          "%s at 1 m steps over %d h, %d runs after %d warm-up rounds each:%n"
              + "  Chartwell  median %.0f ms, CPU %.0f ms a query%n"
              + "  Prometheus median %.0f ms, CPU %.0f ms a query%n"
              + "  Prometheus / Chartwell: %.1fx wall, %.1fx CPU; load average %s before, %s"
              + " after%n",
          QUERY,
          hours,
          runs,
          warmup,
          oursMs,
          oursCpu,
          theirsMs,
          theirsCpu,
          theirsMs / oursMs,
          oursCpu == 0 ? Double.NaN : theirsCpu / oursCpu,
          loadBefore,
          loadAverage());
      return true;
    } finally {
      try (var files = Files.walk(data)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** A counter per series: it grows by a series' own rate, and resets every six hours. */
  static double value(int series, int sample) {
    return (sample % 1440) * (series % 7 + 1) + series % 3;
  }

  static RemoteWrite.Request remoteWrite(int series, long start, int from, int n) {
    List<RemoteWrite.TimeSeries> batch = new ArrayList<>(series);
    for (int s = 0; s < series; s++) {
      long[] t = new long[n];
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        t[i] = start + (from + i) * STEP_MS;
        v[i] = value(s, from + i);
      }
      batch.add(
          new RemoteWrite.TimeSeries(
              Labels.of("__name__", "x", "job", "j" + s % 10, "instance", "i" + s), t, v));
    }
    return new RemoteWrite.Request(batch, List.of());
  }

  /** The same samples as an OTLP gauge named {@code x}, the labels as point attributes. */
  static ExportMetricsServiceRequest otlp(int series, long start, int from, int n) {
    Gauge.Builder gauge = Gauge.newBuilder();
    for (int s = 0; s < series; s++) {
      KeyValue job = text("job", "j" + s % 10);
      KeyValue instance = text("instance", "i" + s);
      for (int i = 0; i < n; i++) {
        gauge.addDataPoints(
            NumberDataPoint.newBuilder()
                .setTimeUnixNano((start + (from + i) * STEP_MS) * 1_000_000L)
                .addAttributes(job)
                .addAttributes(instance)
                .setAsDouble(value(s, from + i)));
      }
    }
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(
            ResourceMetrics.newBuilder()
                .addScopeMetrics(
                    ScopeMetrics.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("bench"))
                        .addMetrics(Metric.newBuilder().setName("x").setGauge(gauge))))
        .build();
  }

  private static KeyValue text(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }

  private static void post(Http http, String url, String auth, byte[] body, boolean snappy)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofMinutes(5))
            .header("Content-Type", "application/x-protobuf")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (snappy) {
      b.header("Content-Encoding", "snappy").header("X-Prometheus-Remote-Write-Version", "0.1.0");
    }
    if (auth != null) {
      b.header("Authorization", auth);
    }
    HttpResponse<String> r = http.client().send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException("POST " + url + ": " + r.statusCode() + " " + r.body());
    }
  }

  /** The {@code result} of a range query. */
  private static JsonNode query(Http http, String url, String auth)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5));
    if (auth != null) {
      b.header("Authorization", auth);
    }
    HttpResponse<String> r = http.client().send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("GET " + url + ": " + r.statusCode() + " " + r.body());
    }
    return Http.JSON.readTree(r.body()).path("data").path("result");
  }

  /** What differs between two matrix results, or null when they agree. */
  static String difference(JsonNode ours, JsonNode theirs) {
    Map<String, JsonNode> byLabels = new HashMap<>();
    theirs.forEach(s -> byLabels.put(s.path("metric").toString(), s.path("values")));
    if (ours.size() != theirs.size()) {
      return ours.size() + " series against Prometheus' " + theirs.size();
    }
    for (JsonNode s : ours) {
      JsonNode want = byLabels.get(s.path("metric").toString());
      JsonNode got = s.path("values");
      if (want == null) {
        return "Prometheus has no series " + s.path("metric");
      }
      if (want.size() != got.size()) {
        return s.path("metric") + ": " + got.size() + " points against " + want.size();
      }
      for (int i = 0; i < got.size(); i++) {
        double a = Double.parseDouble(got.get(i).get(1).asText());
        double b = Double.parseDouble(want.get(i).get(1).asText());
        if (got.get(i).get(0).asDouble() != want.get(i).get(0).asDouble()
            || Math.abs(a - b) > 1e-9 * Math.max(Math.abs(a), Math.abs(b))) {
          return s.path("metric") + " point " + i + ": " + got.get(i) + " against " + want.get(i);
        }
      }
    }
    return null;
  }

  /** Waits until a process has used under a tenth of a core over a second (at most 3 minutes). */
  private static void quiet(long pid) throws InterruptedException {
    for (int i = 0; i < 180; i++) {
      long before = CpuUse.processTicks(pid);
      Thread.sleep(1000);
      if (CpuUse.processTicks(pid) - before < 10) {
        return;
      }
    }
  }

  /** What Prometheus' TSDB holds: persisted blocks and the head's span. */
  private static String tsdbState(Http http, String url) throws IOException, InterruptedException {
    String text =
        http.client()
            .send(
                HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Map<String, String> figures = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] f = line.split(" ");
      if (f.length == 2) {
        figures.put(f[0], f[1]);
      }
    }
    double headMin = Double.parseDouble(figures.getOrDefault("prometheus_tsdb_head_min_time", "0"));
    double headMax = Double.parseDouble(figures.getOrDefault("prometheus_tsdb_head_max_time", "0"));
    return String.format(
        Locale.ROOT,
        "%s persisted blocks, head %.1f h (%s series, %s chunks)",
        figures.get("prometheus_tsdb_blocks_loaded"),
        (headMax - headMin) / 3.6e6,
        figures.get("prometheus_tsdb_head_series"),
        figures.get("prometheus_tsdb_head_chunks"));
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static double median(long[] values) {
    long[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
  }
}
