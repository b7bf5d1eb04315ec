package dev.chartwell.server.prometheus;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Handler;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.tenancy.ServiceLimits;
import java.util.Set;

/**
 * The Prometheus routes of a service: remote write in ({@code POST /api/v1/write}) and the HTTP API
 * Grafana's Prometheus data source reads, all authenticated by the service's token (Bearer, or
 * Basic with the service id as user name).
 */
public final class PrometheusRoutes {
  /** The most samples one query may read from the tables. */
  public static final long MAX_SAMPLES = 50_000_000L;

  private static final Route.Body WRITE_BODY =
      new Route.Body(Set.of("application/x-protobuf"), true, Set.of("snappy"));
  private static final Route.Body FORM =
      new Route.Body(Set.of("application/x-www-form-urlencoded"), false);

  private final Authenticator auth;
  private final Tenants tenants;
  private final PromApi api;
  private final QueryApi queries;
  private final RemoteWriteRoute write;
  private final long maxRequestBytes;
  private final long maxIngestBytes;
  private final ServiceLimits limits;

  /**
   * @param services the services, whose tokens authenticate
   * @param catalog the tables
   * @param mapper writes JSON
   * @param meters the remote write counters
   * @param maxRequestBytes the body limit of the API routes
   * @param maxIngestBytes the body limit of remote write (compressed and decompressed)
   * @param limits the per-service limits: remote writes are ingestion requests, the API's reads
   *     (all but build information) queries
   */
  public PrometheusRoutes(
      Services services,
      Catalog catalog,
      ObjectMapper mapper,
      PromMeters meters,
      long maxRequestBytes,
      long maxIngestBytes,
      ServiceLimits limits) {
    this.auth = ChartRoutes.serviceToken(services);
    this.tenants = new Tenants(catalog, mapper, MAX_SAMPLES);
    this.api = new PromApi(tenants, mapper);
    this.queries = new QueryApi(tenants, meters);
    this.write = new RemoteWriteRoute(tenants, System::currentTimeMillis, meters);
    this.maxRequestBytes = maxRequestBytes;
    this.maxIngestBytes = maxIngestBytes;
    this.limits = limits;
  }

  /**
   * Adds the routes.
   *
   * @param router where
   */
  public void register(Router router) {
    router.add(
        new Route(
                "POST",
                PathPattern.of("/api/v1/write"),
                auth,
                maxIngestBytes,
                WRITE_BODY,
                write::write)
            .withAdmission(limits::ingest));
    both(router, "/api/v1/query", queries::instant, true);
    both(router, "/api/v1/query_range", queries::range, true);
    both(router, "/api/v1/labels", api::labels, true);
    both(router, "/api/v1/label/{name}/values", api::labelValues, true);
    both(router, "/api/v1/series", api::series, true);
    both(router, "/api/v1/metadata", api::metadata, true);
    both(router, "/api/v1/status/buildinfo", api::buildinfo, false);
  }

  /** A read of the API by GET and by POST; a query holds one of the service's query permits. */
  private void both(Router router, String path, Handler handler, boolean query) {
    for (String method : new String[] {"GET", "POST"}) {
      Route route =
          new Route(
                  method,
                  PathPattern.of(path),
                  auth,
                  maxRequestBytes,
                  method.equals("GET") ? Route.Body.NONE : FORM,
                  req -> {
                    try {
                      return handler.handle(req);
                    } catch (MetricStore.TooManySamples e) {
                      throw new ApiException(ErrorCode.UNPROCESSABLE_ENTITY, e.getMessage());
                    }
                  })
              .withErrorBody((e, id, type) -> api.error(e));
      router.add(query ? route.withAdmission(limits::query) : route);
    }
  }
}
