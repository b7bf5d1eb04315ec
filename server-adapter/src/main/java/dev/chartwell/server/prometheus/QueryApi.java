package dev.chartwell.server.prometheus;

import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.promql.EvalSettings;
import dev.chartwell.prometheus.promql.Evaluator;
import dev.chartwell.prometheus.promql.Expr;
import dev.chartwell.prometheus.promql.PromQl;
import dev.chartwell.prometheus.promql.PromQlException;
import dev.chartwell.prometheus.promql.QueryResult;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code /api/v1/query} and {@code /api/v1/query_range}: PromQL evaluated over a service's metric
 * tables ({@link MetricStore}), answered as Prometheus answers: {@code resultType} and {@code
 * result}, sample values as strings, times as Unix seconds. A query stops at its {@code timeout}
 * (at most {@link #MAX_TIMEOUT_MS}) or when its client disconnects.
 */
final class QueryApi {
  /** The longest a query may run, and the default {@code timeout}: 2 minutes, as Prometheus. */
  static final long MAX_TIMEOUT_MS = 120_000;

  /** Prometheus' limit of points per series of a range query. */
  static final long MAX_POINTS = 11_000;

  private final Tenants tenants;
  private final PromMeters meters;

  QueryApi(Tenants tenants, PromMeters meters) {
    this.tenants = tenants;
    this.meters = meters;
  }

  Response instant(Request req) throws IOException {
    Params p = Params.of(req);
    String query = p.required("query");
    long time = p.time("time", System.currentTimeMillis());
    return run(req, p, query, (ev, expr) -> ev.instant(expr, time));
  }

  Response range(Request req) throws IOException {
    Params p = Params.of(req);
    String query = p.required("query");
    long start = Params.parseTime("start", p.required("start"));
    long end = Params.parseTime("end", p.required("end"));
    long step = Params.parseDuration("step", p.required("step"));
    if (end < start) {
      throw ApiException.badRequest("end timestamp must not be before start time");
    }
    if (step <= 0) {
      throw ApiException.badRequest(
          "zero or negative query resolution step widths are not accepted. Try a positive integer");
    }
    if ((end - start) / step > MAX_POINTS) {
      throw ApiException.badRequest(
          "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query"
              + " resolution (?step=XX)");
    }
    return run(req, p, query, (ev, expr) -> ev.range(expr, start, end, step));
  }

  private interface Evaluation {
    QueryResult run(Evaluator evaluator, Expr expr);
  }

  private Response run(Request req, Params p, String query, Evaluation evaluation) {
    ServicePrincipal principal = PromApi.reading(req);
    long timeout =
        Math.min(
            MAX_TIMEOUT_MS,
            p.get("timeout").map(t -> Params.parseDuration("timeout", t)).orElse(MAX_TIMEOUT_MS));
    AtomicBoolean gone = new AtomicBoolean();
    req.onClientDisconnect(() -> gone.set(true));
    long deadline = System.nanoTime() + timeout * 1_000_000L;
    EvalSettings settings =
        new EvalSettings(
            EvalSettings.DEFAULT_LOOKBACK_MS,
            PrometheusRoutes.MAX_SAMPLES,
            () -> gone.get() || System.nanoTime() - deadline > 0);
    QueryResult result;
    try {
      Expr expr = PromQl.parse(query);
      result =
          evaluation.run(
              new Evaluator(tenants.reading(principal.warehouseId()).store(), settings), expr);
    } catch (PromQlException e) {
      meters.query(e.kind().apiName());
      throw error(e);
    }
    meters.query("completed");
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("resultType", result.resultType());
    data.put("result", result(result));
    return PromApi.success(data, result.warnings());
  }

  private static Object result(QueryResult r) {
    if (r instanceof QueryResult.Scalar s) {
      return point(s.timeMs(), Params.value(s.value()));
    }
    if (r instanceof QueryResult.StringValue s) {
      return point(s.timeMs(), s.value());
    }
    List<Object> out = new ArrayList<>();
    if (r instanceof QueryResult.Vector v) {
      for (QueryResult.Sample s : v.samples()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("metric", s.labels().asMap());
        m.put("value", point(s.timeMs(), Params.value(s.value())));
        out.add(m);
      }
      return out;
    }
    for (SeriesData s : ((QueryResult.Matrix) r).series()) {
      List<Object> values = new ArrayList<>(s.size());
      for (int i = 0; i < s.size(); i++) {
        values.add(point(s.timestamps()[i], Params.value(s.values()[i])));
      }
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("metric", s.labels().asMap());
      one.put("values", values);
      out.add(one);
    }
    return out;
  }

  private static List<Object> point(long timeMs, String value) {
    return List.of(Params.seconds(timeMs), value);
  }

  /**
   * A PromQL error as an API error: bad data 400, execution 422, timeout 503 (its text, {@code
   * query timed out ...}, gives it the {@code timeout} error type).
   */
  static ApiException error(PromQlException e) {
    return new ApiException(
        switch (e.kind()) {
          case BAD_DATA -> ErrorCode.BAD_REQUEST;
          case EXECUTION -> ErrorCode.UNPROCESSABLE_ENTITY;
          case TIMEOUT -> ErrorCode.SERVICE_UNAVAILABLE;
        },
        e.getMessage());
  }
}
