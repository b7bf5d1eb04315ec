package dev.chartwell.bench.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
  /** The chart endpoint. */
  static final String PATH = "/api/v2/charts/series";

  /**
   * @param client a connection to the server
   * @param token the service token
   * @param body the request
   * @return the timed answer
   * @throws IllegalStateException when the answer is not a 200 with rows
   */
  static ChartCall send(PlainHttp client, String token, String body) throws IOException {
    byte[] request = body.getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers =
        Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json");
    long t = System.nanoTime();
    PlainHttp.Answer r = client.post(PATH, headers, request);
    double took = (System.nanoTime() - t) / 1e6;
    if (r.status() != 200 || r.body().length <= "{\"data\":[]}".length()) {
      throw new IllegalStateException("chart query failed: " + r.status() + " " + r.text());
    }
    Map<String, Double> timing = serverTiming(r.headers().getOrDefault("server-timing", ""));
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
