package dev.chartwell.server.prometheus;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.Source;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.PromQl;
import dev.chartwell.prometheus.promql.PromQlException;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The look-up half of Prometheus' HTTP API over a service's metric tables: {@code /api/v1/labels},
 * {@code /api/v1/label/<name>/values}, {@code /api/v1/series}, {@code /api/v1/metadata} and {@code
 * /api/v1/status/buildinfo}, answered in Prometheus' envelope ({@code status}, {@code data}, {@code
 * warnings}; errors with {@code errorType} and {@code error}).
 */
final class PromApi {
  /** The Prometheus version whose API this one follows, as {@code buildinfo} reports it. */
  static final String API_VERSION = "2.42.0";

  private final Tenants tenants;
  private final ObjectMapper mapper;

  PromApi(Tenants tenants, ObjectMapper mapper) {
    this.tenants = tenants;
    this.mapper = mapper;
  }

  Response buildinfo(Request req) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("version", API_VERSION);
    data.put("revision", "chartwell");
    data.put("branch", "");
    data.put("buildUser", "");
    data.put("buildDate", "");
    data.put("goVersion", "");
    return success(data, List.of());
  }

  Response labels(Request req) throws IOException {
    Params p = Params.of(req);
    Lookup l = lookup(req, p);
    return limited(l.store().labelNames(l.selectors(), l.start(), l.end()), p);
  }

  Response labelValues(Request req) throws IOException {
    Params p = Params.of(req);
    String name = req.pathParam("name");
    Lookup l = lookup(req, p);
    return limited(l.store().labelValues(name, l.selectors(), l.start(), l.end()), p);
  }

  Response series(Request req) throws IOException {
    Params p = Params.of(req);
    Lookup l = lookup(req, p);
    if (l.selectors().isEmpty()) {
      throw ApiException.badRequest("no match[] parameter provided");
    }
    List<Map<String, String>> out = new ArrayList<>();
    for (Labels s : l.store().series(l.selectors(), l.start(), l.end())) {
      out.add(s.asMap());
    }
    return limited(out, p);
  }

  Response metadata(Request req) throws IOException {
    Params p = Params.of(req);
    ServicePrincipal principal = reading(req);
    String metric = p.get("metric").orElse("");
    int limit = limit(p);
    Map<String, List<Map<String, String>>> data = new LinkedHashMap<>();
    for (RemoteWrite.Metadata m : tenants.reading(principal.warehouseId()).metadata().values()) {
      if ((metric.isEmpty() || metric.equals(m.family())) && (limit <= 0 || data.size() < limit)) {
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("type", m.type().apiName());
        entry.put("help", m.help());
        entry.put("unit", m.unit());
        data.put(m.family(), List.of(entry));
      }
    }
    return success(data, List.of());
  }

  private record Lookup(
      MetricStore store, List<List<LabelMatcher>> selectors, long start, long end) {}

  private Lookup lookup(Request req, Params p) {
    ServicePrincipal principal = reading(req);
    List<List<LabelMatcher>> selectors = new ArrayList<>();
    for (String m : p.all("match[]")) {
      try {
        selectors.add(PromQl.parseSelector(m));
      } catch (PromQlException e) {
        throw ApiException.badRequest(e.getMessage());
      }
    }
    long start = p.time("start", Source.MIN_TIMESTAMP);
    long end = p.time("end", Source.MAX_TIMESTAMP);
    if (end < start) {
      throw ApiException.badRequest("end timestamp must not be before start time");
    }
    return new Lookup(tenants.reading(principal.warehouseId()).store(), selectors, start, end);
  }

  static ServicePrincipal reading(Request req) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    return p;
  }

  private static int limit(Params p) {
    String v = p.get("limit").orElse("0");
    try {
      int n = Integer.parseInt(v);
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid parameter \"limit\": cannot parse \"" + v + "\"");
    }
  }

  private Response limited(List<?> all, Params p) {
    int limit = limit(p);
    if (limit > 0 && all.size() > limit) {
      return success(all.subList(0, limit), List.of("results truncated due to limit"));
    }
    return success(all, List.of());
  }

  /**
   * @param data the {@code data} member
   * @param warnings the {@code warnings}, left out when empty
   * @return the success envelope
   */
  static Response success(Object data, List<String> warnings) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "success");
    body.put("data", data);
    if (!warnings.isEmpty()) {
      body.put("warnings", warnings);
    }
    return Response.json(200, body);
  }

  /**
   * Writes an error in Prometheus' envelope.
   *
   * @param e the error
   * @return the body
   */
  Response.Bytes error(ApiException e) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "error");
    body.put("errorType", errorType(e));
    body.put("error", e.getMessage());
    try {
      return new Response.Bytes("application/json", mapper.writeValueAsBytes(body));
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  /** Prometheus' error types by status (a 503 of a query past its timeout is {@code timeout}). */
  static String errorType(ApiException e) {
    ErrorCode code = e.code();
    if (code == ErrorCode.SERVICE_UNAVAILABLE && e.getMessage().startsWith("query timed out")) {
      return "timeout";
    }
    return switch (code.status()) {
      case 400, 413, 414, 415 -> "bad_data";
      case 404 -> "not_found";
      case 422 -> "execution";
      case 429, 503 -> "unavailable";
      case 401, 403 -> "unauthorized";
      case 408 -> "timeout";
      default -> code.status() < 500 ? "bad_data" : "internal";
    };
  }
}
