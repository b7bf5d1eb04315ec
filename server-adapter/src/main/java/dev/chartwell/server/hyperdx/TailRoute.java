package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.charts.ServiceScope;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /api/v2/tail}: a live tail, the events of an engine source matching a where as they
 * are ingested, streamed as NDJSON lines ({@code start}, {@code event}, {@code skipped}, {@code
 * heartbeat}, {@code end}) until the client goes away, {@code limit} events were sent or the server
 * stops. Errors in the request are answered before the stream starts, as any route's.
 */
final class TailRoute {
  static final int MAX_PER_SECOND = 1000;
  static final int DEFAULT_PER_SECOND = 100;
  static final int MAX_LATENESS_SECONDS = 60;
  static final int DEFAULT_LATENESS_SECONDS = 10;

  private static final Set<String> FIELDS =
      Set.of("sourceId", "where", "whereLanguage", "select", "maxPerSecond", "limit", "lateness");

  private TailRoute() {}

  static void register(
      Router router,
      ServiceScope scope,
      Catalog catalog,
      Engine engine,
      Json json,
      TailHub hub,
      long maxBody) {
    router.add(
        "POST",
        V2.BASE + "/tail",
        scope.authenticator(),
        maxBody,
        scope.wrap(req -> tail(req, catalog, engine, json, hub)));
  }

  /**
   * @param clock the server's clock
   * @param json the JSON codec
   * @return the hub of a server's tails, with the default limits
   */
  static TailHub hub(Clock clock, Json json) {
    return new TailHub(TailHub.MAX_PER_SERVICE, TailHub.HEARTBEAT, clock, json.mapper());
  }

  private static Response tail(Request req, Catalog catalog, Engine engine, Json json, TailHub hub)
      throws java.io.IOException {
    ServicePrincipal p = V2.caller(req, false);
    p.requireRunning();
    JsonNode body = json.readTree(req.bodyBytes());
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    List<String> problems = new ArrayList<>();
    body.fieldNames()
        .forEachRemaining(
            f -> {
              if (!FIELDS.contains(f)) {
                problems.add(f + ": unknown field");
              }
            });
    String sourceId = Params.text(body, "sourceId", 64, problems);
    if (sourceId == null && !body.hasNonNull("sourceId")) {
      problems.add("sourceId: is required");
    }
    String where = Params.text(body, "where", 8192, problems);
    String language = Params.text(body, "whereLanguage", 16, problems);
    WhereLanguage lang =
        language == null ? WhereLanguage.LUCENE : WhereLanguage.fromWireName(language).orElse(null);
    if (lang == null) {
      problems.add("whereLanguage: must be one of lucene, sql");
    }
    String select = Params.text(body, "select", 4096, problems);
    int perSecond =
        Params.integer(body, "maxPerSecond", DEFAULT_PER_SECOND, 1, MAX_PER_SECOND, problems);
    int limit = Params.integer(body, "limit", 0, 1, 1_000_000, problems);
    int lateness =
        Params.integer(
            body, "lateness", DEFAULT_LATENESS_SECONDS, 0, MAX_LATENESS_SECONDS, problems);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    EventSource source = EventSource.resolve(catalog, engine, p.warehouseId(), sourceId);
    if (source.engineSource() == null) {
      throw ApiException.badRequest(
          "sourceId: "
              + sourceId
              + " reads a ClickHouse connection: live tail follows the ingestion of engine sources"
              + " only; search the connection's recent events with POST /api/v2/search instead");
    }
    List<SelectList.Item> items = null;
    if (select != null && !select.isBlank()) {
      items = SelectList.parse(select, "select", problems);
      for (SelectList.Item i : items) {
        if (!source.hasColumn().test(i.column())) {
          problems.add("select: source " + sourceId + " has no column '" + i.column() + "'");
        }
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    // A where the engine refuses is answered 400 now, before the stream starts.
    source.search(
        new SearchQuery(
            source.queryId(),
            0,
            0,
            where,
            Languages.engine(lang),
            null,
            SearchOrder.NEWEST_FIRST,
            1,
            0),
        new QueryControl());
    TailStream.Spec spec =
        new TailStream.Spec(
            source,
            where,
            Languages.engine(lang),
            items,
            perSecond,
            limit == 0 ? Long.MAX_VALUE : limit,
            lateness * 1000L);
    return Response.stream("application/x-ndjson", hub.open(p.id(), spec));
  }
}
