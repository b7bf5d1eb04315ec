package dev.chartwell.server.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.clickhouse.RowInserter;
import dev.chartwell.engine.Source;
import dev.chartwell.otlp.Checked;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.OtlpFormatException;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.tenancy.ServiceLimits;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /v1/logs}, {@code /v1/traces} and {@code /v1/metrics}: OTLP/HTTP export requests,
 * authenticated by a service's Bearer token, written to the {@code otel_*} tables of the service's
 * warehouse. A request is held whole (within a {@link BodyBudget} shared by all of them), checked
 * whole, and only then stored, so that a body that does not decode stores nothing.
 */
public final class OtlpRoutes {
  /**
   * The most a request's rows may grow beyond its body: each record carries a copy of its
   * resource's and scope's attributes, so many tiny records under one large resource would write
   * far more than they sent.
   */
  static final int MAX_EXPANSION = 32;

  private static final Route.Body BODIES =
      new Route.Body(
          Set.of(OtlpEncoding.PROTOBUF.mediaType(), OtlpEncoding.JSON.mediaType()), true);

  private final Authenticator bearer;
  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final long maxBodyBytes;
  private final BodyBudget budget;
  private final ServiceLimits limits;

  /**
   * @param services the services, whose passwords are the tokens
   * @param catalog the tables and sources
   * @param mapper writes JSON answers and builds definitions
   * @param maxBodyBytes the body limit, received and decoded (413 beyond)
   * @param limits the ingestion requests each service may send at once
   */
  public OtlpRoutes(
      Services services,
      Catalog catalog,
      ObjectMapper mapper,
      long maxBodyBytes,
      ServiceLimits limits) {
    this.limits = limits;
    this.bearer = ChartRoutes.serviceToken(services);
    this.catalog = catalog;
    this.mapper = mapper;
    this.maxBodyBytes = maxBodyBytes;
    this.budget = BodyBudget.forHeap(maxBodyBytes);
  }

  /**
   * Adds the three routes; their errors are OTLP {@code Status} messages.
   *
   * @param router where
   */
  public void register(Router router) {
    for (Signal signal : Signal.values()) {
      router.add(
          new Route(
                  "POST",
                  PathPattern.of(signal.path()),
                  bearer,
                  maxBodyBytes,
                  BODIES,
                  req -> export(req, signal))
              .withAdmission(limits::ingest)
              .withErrorBody(
                  (e, requestId, contentType) ->
                      OtlpEncoding.of(contentType).error(e, requestId, mapper)));
    }
  }

  private Response export(Request req, Signal signal) throws IOException {
    ServicePrincipal principal = accepting(req);
    OtlpEncoding encoding = OtlpEncoding.of(req.header("Content-Type").orElse(null));
    Instant now = Instant.now();
    long receivedNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    try (BodyBudget.Held held = budget.hold()) {
      byte[] body = BodyBudget.read(req.bodyStream(), held);
      if (encoding == OtlpEncoding.JSON) {
        byte[] json = body;
        body = OtlpJson.toProtobuf(json, signal.requestDescriptor(), maxBodyBytes);
        held.grow(body.length);
        held.shrink(json.length);
      }
      Checked checked;
      try {
        checked = signal.check(body);
      } catch (OtlpFormatException e) {
        throw ApiException.badRequest(
            "the body is not a valid "
                + signal.requestDescriptor().getName()
                + ": "
                + e.getMessage());
      }
      long allowed = MAX_EXPANSION * Math.max(body.length, 1L << 20);
      if (checked.expandedBytes() > allowed) {
        throw new ApiException(
            ErrorCode.PAYLOAD_TOO_LARGE,
            String.format(
                Locale.ROOT,
                "the %,d %s of this request would store about %,d bytes (each carries its resource"
                    + " and scope), more than %d times the request; send fewer per request",
                checked.records(),
                signal.records(),
                checked.expandedBytes(),
                MAX_EXPANSION));
      }
      if (checked.records() == 0) {
        return encoding.exported(signal, 0, null);
      }
      Optional<String> external =
          signal == Signal.METRICS
              ? Optional.empty()
              : catalog.connections().otlpDestination(principal.warehouseId());
      TableWriter writer;
      if (external.isPresent()) {
        // The service's OTLP goes to an external ClickHouse: one INSERT per batch of rows.
        Map<OtelTable, TableWriter.Destination> destinations = new EnumMap<>(OtelTable.class);
        OtelSources.external(catalog, mapper, principal.warehouseId(), signal, external.get())
            .forEach((t, b) -> destinations.put(t, new RowInserter(b.client(), b.table())::insert));
        writer = new TableWriter(signal, destinations, true);
      } else {
        Map<OtelTable, Source> tables =
            OtelSources.tables(catalog, mapper, principal.warehouseId(), signal);
        writer = new TableWriter(signal, tables);
      }
      try {
        signal.decode(body, receivedNanos, writer);
      } catch (OtlpFormatException e) {
        throw new IllegalStateException("a request that was checked failed to decode", e);
      }
      writer.finish();
      return encoding.exported(signal, writer.rejected(), writer.message());
    }
  }

  /**
   * The service must run and may not be read-only. A service that is being provisioned or started
   * will run in a moment: 503 with {@code Retry-After}, so that exporters keep their data.
   *
   * @param req a write request authenticated by a service's token
   * @return the service
   */
  public static ServicePrincipal accepting(Request req) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    String state = p.state();
    if (state.equals("provisioning") || state.equals("starting")) {
      throw new ApiException(
          ErrorCode.SERVICE_UNAVAILABLE,
          "service " + p.id() + " is " + state + "; send again once it runs",
          Map.of("Retry-After", "1"));
    }
    p.requireRunning();
    p.requireWritable();
    return p;
  }
}
