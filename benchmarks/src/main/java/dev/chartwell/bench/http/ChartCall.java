package dev.chartwell.bench.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * One chart request over HTTP, timed by the client from sending to the last byte of the answer,
 * with the durations the server reports in its {@code Server-Timing} header.
 *
 * @param clientMs the client's time
 * @param engineMs the engine's time ({@code NaN} when the server does not report it)
 * @param readMs the server's time receiving the request body ({@code NaN} when not reported)
 * @param writeMs the server's time to write the JSON answer ({@code NaN} when not reported)
 * @param serverMs the server's whole time, from dispatch to the answer ready to send ({@code NaN}
 *     when not reported)
 * @param body the answer (as bytes: the client's time includes receiving it, not decoding it)
 */
record ChartCall(
    double clientMs, double engineMs, double readMs, double writeMs, double serverMs, byte[] body) {
  /**
   * @param http the client
   * @param url {@code .../api/v2/charts/series}
   * @param token the service token
   * @param body the request
   * @return the timed answer
   * @throws IllegalStateException when the answer is not a 200 with rows
   */
  static ChartCall send(Http http, String url, String token, String body)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofMinutes(2))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    long t = System.nanoTime();
    HttpResponse<byte[]> r = http.client().send(request, HttpResponse.BodyHandlers.ofByteArray());
    double took = (System.nanoTime() - t) / 1e6;
    if (r.statusCode() != 200 || r.body().length <= "{\"data\":[]}".length()) {
      throw new IllegalStateException(
          "chart query failed: "
              + r.statusCode()
              + " "
              + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
    Map<String, Double> timing = serverTiming(r.headers().firstValue("Server-Timing").orElse(""));
    return new ChartCall(
        took,
        timing.getOrDefault("engine", timing.getOrDefault("clickhouse", Double.NaN)),
        timing.getOrDefault("read", Double.NaN),
        timing.getOrDefault("write", Double.NaN),
        timing.getOrDefault("total", Double.NaN),
        r.body());
  }

  /**
   * @param header a {@code Server-Timing} value such as {@code engine;dur=1.5, total;dur=2}
   * @return milliseconds by metric name (metrics without {@code dur} are left out)
   */
  static Map<String, Double> serverTiming(String header) {
    Map<String, Double> out = new HashMap<>();
    for (String metric : header.split(",")) {
      String[] parts = metric.trim().split(";");
      for (int i = 1; i < parts.length; i++) {
        String p = parts[i].trim();
        if (p.startsWith("dur=")) {
          try {
            out.put(parts[0].trim(), Double.parseDouble(p.substring(4)));
          } catch (NumberFormatException e) {
            // not a duration: ignored, as the header's grammar allows
          }
        }
      }
    }
    return out;
  }
}
