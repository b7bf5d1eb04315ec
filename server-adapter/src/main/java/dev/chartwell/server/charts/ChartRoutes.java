package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.clickhouse.RowInserter;
import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.Source;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.MetricTables;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.tenancy.Tenancy;
import java.io.OutputStream;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The chart and data interface (HTTP Bearer, the token being a service password): ingestion into a
 * source of the service's warehouse, and the chart query (which also takes an organization's API
 * key, see {@link ServiceScope}). Handlers translate JSON to engine records and back, nothing more.
 */
public final class ChartRoutes {

  /**
   * What ingestion reads ({@link EventReader}): NDJSON (one object per line; {@code
   * application/jsonl} is its other common name) or a JSON array of objects.
   */
  static final Route.Body EVENT_BODIES =
      new Route.Body(Set.of("application/x-ndjson", "application/jsonl", "application/json"), true);

  private ChartRoutes() {}

  /**
   * @param router where to add the routes
   * @param services the services (tokens)
   * @param accounts the API keys (the chart query also takes an organization's key)
   * @param catalog the sources
   * @param engine the engine
   * @param json the JSON codec
   * @param maxRequestBytes body limit of the query
   * @param maxIngestBytes body limit of ingestion
   * @param tenancy the per-service limits and the external query runner
   */
  public static void register(
      Router router,
      Services services,
      Accounts accounts,
      Catalog catalog,
      Engine engine,
      Json json,
      long maxRequestBytes,
      long maxIngestBytes,
      Tenancy tenancy) {
    Authenticator bearer = serviceToken(services);
    ObjectMapper events = JsonMapper.builder().build(); // doubles as doubles, for ingestion speed
    router.add(
        new Route(
                "POST",
                PathPattern.of("/api/v2/sources/{sourceId}/events"),
                bearer,
                maxIngestBytes,
                EVENT_BODIES,
                req -> ingest(req, catalog, events))
            .withAdmission(tenancy.limits()::ingest));
    ServiceScope scope = new ServiceScope(services, accounts);
    router.add(
        "POST",
        "/api/v2/charts/series",
        scope.authenticator(),
        maxRequestBytes,
        scope.wrap(req -> ChartQueries.query(req, catalog, engine, json, tenancy)));
  }

  /**
   * @param services the services, whose passwords are the tokens
   * @return the authenticator of the chart and data interface and of OTLP: a service's token as
   *     Bearer, as Basic {@code serviceId:token} or as {@code ApiKey base64(serviceId:token)}
   */
  public static Authenticator.ServiceToken serviceToken(Services services) {
    return serviceToken(services, null);
  }

  /**
   * @param services the services, whose passwords are the tokens
   * @param apiKeys the API key authenticator, for a Basic user name that is not a service id of
   *     this server; {@code null} where API keys are not accepted
   * @return the authenticator of a service's token, in its three forms, and of API keys if given
   */
  static Authenticator.ServiceToken serviceToken(Services services, Authenticator.Basic apiKeys) {
    Authenticator.Bearer bearer =
        new Authenticator.Bearer(
            (token, client) ->
                services
                    .byToken(token)
                    .map(service -> ServicePrincipal.admitted(service, client))
                    .orElseThrow(() -> invalid("invalid token")));
    return new Authenticator.ServiceToken(
        bearer,
        (serviceId, token, client) ->
            services
                .byToken(token)
                // The token's service must be the one named: another service's token is refused
                // as a wrong one is, without saying which service it belongs to.
                .filter(service -> service.get("id").asText().equals(serviceId))
                .map(service -> ServicePrincipal.admitted(service, client))
                .orElseThrow(() -> invalid("invalid service id or token")),
        serviceId -> services.byId(serviceId).isPresent(),
        apiKeys);
  }

  private static ApiException invalid(String text) {
    return new ApiException(
        ErrorCode.UNAUTHORIZED,
        text,
        Map.of("WWW-Authenticate", Authenticator.ServiceToken.CHALLENGE));
  }

  private static Response ingest(Request req, Catalog catalog, ObjectMapper mapper)
      throws java.io.IOException {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    p.requireWritable();
    String sourceId = req.pathParam("sourceId");
    if (req.queryParam("metricDataType").isEmpty()) {
      requireNotMetric(catalog, p, sourceId);
    }
    Optional<ClickHouseBackend.Bound> external =
        req.queryParam("metricDataType").isPresent()
            ? Optional.empty()
            : catalog.clickHouseSourceOf(p.warehouseId(), sourceId);
    if (external.isPresent()) {
      return ingestExternal(req, external.get(), mapper);
    }
    // The events go to the table the source reads (a metric source: the table of the type given).
    Source source =
        req.queryParam("metricDataType").isPresent()
            ? metricTable(catalog, p, sourceId, req.queryParam("metricDataType").get())
            : ownSource(catalog, p, sourceId, "source " + sourceId + " not found");
    EventReader reader = new EventReader(mapper, source.spec().timestampColumn());
    try {
      readEvents(req, source, reader);
    } catch (ApiException refused) {
      if (refused.code() == ErrorCode.SERVICE_UNAVAILABLE) {
        // Refused part way (memory): read the rest of the body (within the route's limit, not
        // stored) so that the client, still sending, receives the answer instead of a reset.
        req.bodyStream().transferTo(OutputStream.nullOutputStream());
      }
      throw refused;
    }
    return report(reader);
  }

  /**
   * Ingestion into a source on an external ClickHouse: each batch of parsed events is one {@code
   * INSERT}; the same accept/reject report as local ingestion.
   */
  private static Response ingestExternal(
      Request req, ClickHouseBackend.Bound target, ObjectMapper mapper) throws java.io.IOException {
    EventReader reader = new EventReader(mapper, target.table().timestampColumn());
    RowInserter inserter = new RowInserter(target.client(), target.table());
    try {
      reader.read(
          req.bodyStream(),
          (batch, lines) -> {
            List<Event> events = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
              events.add(batch.event(i));
            }
            return inserter.insert(events);
          });
    } catch (ClickHouseException e) {
      ApiException answer = ClickHouseErrors.answer(e);
      throw new ApiException(
          answer.code(),
          e.getMessage() + "; " + reader.accepted() + " events of this request were stored before");
    }
    return report(reader);
  }

  private static Response report(EventReader reader) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("accepted", reader.accepted());
    body.put("rejected", reader.rejected());
    List<Map<String, Object>> errors = new ArrayList<>();
    for (EventReader.LineError e : reader.errors()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("line", e.line());
      m.put("error", e.error());
      errors.add(m);
    }
    body.put("errors", errors);
    return Response.json(200, body);
  }

  private static void readEvents(Request req, Source source, EventReader reader)
      throws java.io.IOException {
    reader.read(
        req.bodyStream(),
        new EventReader.Sink() {
          private Source.Pending pending;
          private long pendingLine;

          @Override
          public List<Map.Entry<Integer, String>> accept(EventBatch batch, long[] lines) {
            AppendResult r;
            try {
              pending = source.appendPending(batch);
              pendingLine = lines[0];
              r = pending.result();
            } catch (RuntimeException e) {
              throw WriteRefusals.answer(e, partly(reader, lines[0]));
            }
            List<Map.Entry<Integer, String>> out = new ArrayList<>();
            for (AppendResult.Rejection x : r.rejections()) {
              out.add(new AbstractMap.SimpleEntry<>(x.index(), x.reason()));
            }
            return out;
          }

          @Override
          public void awaitDurable() {
            if (pending == null) {
              return;
            }
            try {
              pending.awaitDurable();
            } catch (RuntimeException e) {
              throw WriteRefusals.answer(e, partly(reader, pendingLine));
            } finally {
              pending = null;
            }
          }
        });
  }

  private static String partly(EventReader reader, long line) {
    return String.format(
        Locale.ROOT,
        "%d events of this request before line %d were stored, nothing from that line on",
        reader.accepted(),
        line);
  }

  /** The answer to a query the engine stopped or refused, naming the limit. */
  public static ApiException aborted(QueryAbortedException e) {
    return switch (e.reason()) {
      case BUSY ->
          new ApiException(
              ErrorCode.TOO_MANY_REQUESTS,
              e.getMessage(),
              Map.of("Retry-After", String.valueOf(1)));
      case MEMORY -> ApiException.badRequest(e.getMessage());
      case TIMEOUT, CANCELLED, SHUTDOWN ->
          new ApiException(ErrorCode.SERVICE_UNAVAILABLE, e.getMessage());
    };
  }

  /**
   * A metric source's points go to one table per type: without {@code metricDataType} they would
   * land in a table no metric series reads, so they are refused, saying how to name it.
   */
  private static void requireNotMetric(Catalog catalog, ServicePrincipal p, String sourceId) {
    ObjectNode source = catalog.source(p.warehouseId(), sourceId, SourceApi.CLOUD);
    if (source.path("kind").asText().equals("metric")) {
      throw ApiException.badRequest(
          "metricDataType: source "
              + sourceId
              + " is a metric source, whose points go to one table per type: add"
              + " ?metricDataType="
              + String.join("|", MetricTables.named(source).keySet())
              + " to name the table of this request's points");
    }
  }

  private static Source metricTable(
      Catalog catalog, ServicePrincipal p, String sourceId, String type) {
    ObjectNode source = catalog.source(p.warehouseId(), sourceId, SourceApi.CLOUD);
    if (!source.path("kind").asText().equals("metric")) {
      throw ApiException.badRequest(
          "metricDataType: only for metric sources; source "
              + sourceId
              + " is a "
              + source.path("kind").asText()
              + " source");
    }
    if (!MetricTables.named(source).containsKey(type)) {
      throw ApiException.badRequest(
          "metricDataType: metric source "
              + sourceId
              + " names no '"
              + type
              + "' table; it names "
              + String.join(", ", MetricTables.named(source).keySet()));
    }
    return catalog
        .engineMetricTableOf(p.warehouseId(), sourceId, type)
        .orElseThrow(
            () ->
                ApiException.notFound(
                    "the " + type + " table of metric source " + sourceId + " does not exist"));
  }

  private static Source ownSource(
      Catalog catalog, ServicePrincipal p, String sourceId, String message) {
    return catalog
        .engineSourceOf(p.warehouseId(), sourceId)
        .orElseThrow(() -> ApiException.notFound(message));
  }
}
