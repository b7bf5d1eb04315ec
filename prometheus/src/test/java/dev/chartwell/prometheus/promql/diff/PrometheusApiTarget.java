package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.QueryResult;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A server speaking Prometheus' query API (the real Prometheus, or our server): answers parsed from
 * its JSON into {@link QueryResult}s.
 */
public final class PrometheusApiTarget implements QueryTarget {
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;
  private final String authorization;
  private final boolean post;

  /**
   * @param base the server's address ({@code http://127.0.0.1:9090})
   */
  public PrometheusApiTarget(String base) {
    this(base, null, false);
  }

  /**
   * @param base the server's address
   * @param authorization the {@code Authorization} header sent, or null
   * @param post whether queries are sent as POST forms (as Grafana sends them) instead of GET
   */
  public PrometheusApiTarget(String base, String authorization, boolean post) {
    this.base = base;
    this.authorization = authorization;
    this.post = post;
  }

  private static String seconds(long ms) {
    return BigDecimal.valueOf(ms, 3).toPlainString();
  }

  @Override
  public QueryResult instant(String query, long timeMs) throws Exception {
    return get("/api/v1/query?query=" + enc(query) + "&time=" + seconds(timeMs));
  }

  @Override
  public QueryResult range(String query, long startMs, long endMs, long stepMs) throws Exception {
    return get(
        "/api/v1/query_range?query="
            + enc(query)
            + "&start="
            + seconds(startMs)
            + "&end="
            + seconds(endMs)
            + "&step="
            + seconds(stepMs));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @SuppressWarnings("unchecked")
  private QueryResult get(String path) throws Exception {
    HttpRequest.Builder b;
    if (post) {
      int q = path.indexOf('?');
      b =
          HttpRequest.newBuilder(URI.create(base + path.substring(0, q)))
              .header("Content-Type", "application/x-www-form-urlencoded")
              .POST(HttpRequest.BodyPublishers.ofString(path.substring(q + 1)));
    } else {
      b = HttpRequest.newBuilder(URI.create(base + path)).GET();
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    Map<String, Object> body = (Map<String, Object>) MiniJson.parse(r.body());
    if (!"success".equals(body.get("status"))) {
      throw new IllegalStateException(path + " -> " + r.body());
    }
    Map<String, Object> data = (Map<String, Object>) body.get("data");
    String type = (String) data.get("resultType");
    Object result = data.get("result");
    return switch (type) {
      case "scalar" -> {
        List<Object> p = (List<Object>) result;
        yield new QueryResult.Scalar(ms(p.get(0)), value(p.get(1)), List.of());
      }
      case "string" -> {
        List<Object> p = (List<Object>) result;
        yield new QueryResult.StringValue(ms(p.get(0)), (String) p.get(1), List.of());
      }
      case "vector" -> {
        List<QueryResult.Sample> samples = new ArrayList<>();
        for (Object o : (List<Object>) result) {
          Map<String, Object> s = (Map<String, Object>) o;
          List<Object> p = (List<Object>) s.get("value");
          samples.add(
              new QueryResult.Sample(labels(s.get("metric")), ms(p.get(0)), value(p.get(1))));
        }
        yield new QueryResult.Vector(samples, List.of());
      }
      default -> {
        List<SeriesData> series = new ArrayList<>();
        for (Object o : (List<Object>) result) {
          Map<String, Object> s = (Map<String, Object>) o;
          List<Object> values = (List<Object>) s.get("values");
          long[] ts = new long[values.size()];
          double[] vs = new double[values.size()];
          for (int i = 0; i < ts.length; i++) {
            List<Object> p = (List<Object>) values.get(i);
            ts[i] = ms(p.get(0));
            vs[i] = value(p.get(1));
          }
          series.add(new SeriesData(labels(s.get("metric")), ts, vs));
        }
        yield new QueryResult.Matrix(series, List.of());
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static Labels labels(Object o) {
    return Labels.of((Map<String, String>) (Map<String, ?>) o);
  }

  private static long ms(Object seconds) {
    return BigDecimal.valueOf((Double) seconds)
        .movePointRight(3)
        .setScale(0, java.math.RoundingMode.HALF_UP)
        .longValueExact();
  }

  private static double value(Object s) {
    return switch ((String) s) {
      case "NaN" -> Double.NaN;
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble((String) s);
    };
  }
}
