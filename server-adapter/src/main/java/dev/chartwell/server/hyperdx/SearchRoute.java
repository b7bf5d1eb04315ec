package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.clickhouse.Field;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.query.Backend;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.ClickHouseErrors;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.tenancy.Tenancy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /api/v2/search}: the events of a source of the token's warehouse that match a {@code
 * where} in a time range (ISO times; by default the 15 minutes before now), newest first (or oldest
 * first with {@code orderBy: "<timestamp> ASC"}), with the columns of {@code select} (by default
 * the source's {@code defaultTableSelectExpression}), at most {@code maxResults} (1 to {@value
 * #MAX_RESULTS}, default 100) after skipping {@code offset} (0 to {@value #MAX_OFFSET}). Answered
 * by the engine's event search, from the same indexes as charts.
 */
final class SearchRoute {
  static final int MAX_RESULTS = 2000;
  static final int MAX_OFFSET = 10_000;
  static final int DEFAULT_RESULTS = 100;

  private static final Set<String> FIELDS =
      Set.of(
          "sourceId",
          "startTime",
          "endTime",
          "where",
          "whereLanguage",
          "select",
          "orderBy",
          "maxResults",
          "offset");

  private SearchRoute() {}

  /** Answers {@code POST /search}. */
  static Response search(
      Request req, Catalog catalog, Engine engine, Json json, Clock clock, Tenancy tenancy)
      throws java.io.IOException {
    ServicePrincipal p = V2.caller(req, false);
    p.requireRunning();
    List<String> problems = new ArrayList<>();
    JsonNode body = Params.object(req, json, FIELDS, problems);
    EventQueryParams params = EventQueryParams.read(body, Integer.MAX_VALUE, problems);
    String select = Params.text(body, "select", 4096, problems);
    String orderBy = Params.text(body, "orderBy", 1024, problems);
    int maxResults = Params.integer(body, "maxResults", DEFAULT_RESULTS, 1, MAX_RESULTS, problems);
    int offset = Params.integer(body, "offset", 0, 0, MAX_OFFSET, problems);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    EventQueryParams range = params.resolved(clock);
    String sourceId = range.sourceId();
    Instant start = range.start();
    Instant end = range.end();
    String where = range.where();
    WhereLanguage lang = range.language();
    ObjectNode source = catalog.source(p.warehouseId(), sourceId, SourceApi.HYPERDX);
    if (source.path("kind").asText().equals("metric")) {
      throw ApiException.badRequest(
          "sourceId: "
              + sourceId
              + " is a metric source: search reads the events of log and trace sources; chart a"
              + " metric with POST /api/v2/charts/series");
    }
    Optional<ClickHouseBackend.Bound> external =
        catalog.clickHouseSourceOf(p.warehouseId(), sourceId);
    Source table =
        external.isPresent()
            ? null
            : catalog
                .engineSourceOf(p.warehouseId(), sourceId)
                .orElseThrow(() -> ApiException.notFound("source " + sourceId + " does not exist"));
    String timestamp =
        external.isPresent()
            ? external.get().table().timestampColumn()
            : table.spec().timestampColumn();
    boolean given = select != null && !select.isBlank();
    String columnsText = given ? select : source.path("defaultTableSelectExpression").asText("");
    List<SelectList.Item> items = SelectList.parse(columnsText, "select", problems);
    if (given) {
      for (SelectList.Item i : items) {
        boolean known =
            external.isPresent()
                ? Field.resolve(external.get().table(), i.column()).isPresent()
                : table.columns().stream().anyMatch(c -> c.name().equals(i.column()));
        if (!i.column().equals(timestamp) && !known) {
          problems.add("select: source " + sourceId + " has no column '" + i.column() + "'");
        }
      }
    }
    SearchOrder order = order(orderBy, timestamp, problems);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    SearchQuery q =
        new SearchQuery(
            external.isPresent() ? sourceId : table.id(),
            start.toEpochMilli(),
            end.toEpochMilli(),
            where,
            Languages.engine(lang),
            items.isEmpty()
                ? null
                : items.stream().map(SelectList.Item::column).distinct().toList(),
            order,
            maxResults,
            offset);
    QueryControl control = new QueryControl();
    req.onClientDisconnect(() -> control.cancel("the client disconnected"));
    Backend backend =
        external.isPresent() ? new ClickHouseBackend(id -> external) : Backend.of(engine);
    return tenancy.query(
        p.id(),
        external.isPresent(),
        control,
        () -> answer(backend, q, control, sourceId, items, timestamp));
  }

  /** Runs the search and shapes its answer. */
  private static Response answer(
      Backend backend,
      SearchQuery q,
      QueryControl control,
      String sourceId,
      List<SelectList.Item> items,
      String timestamp) {
    SearchResult result;
    try {
      result = backend.search(q, QueryOptions.DEFAULT.withControl(control));
    } catch (InvalidQueryException e) {
      throw ApiException.badRequest(e.getMessage());
    } catch (UnknownSourceException e) {
      throw ApiException.notFound("source " + sourceId + " does not exist");
    } catch (QueryAbortedException e) {
      throw ChartRoutes.aborted(e);
    } catch (ClickHouseException e) {
      throw ClickHouseErrors.answer(e);
    }
    List<Map<String, Object>> rows = new ArrayList<>(result.rows().size());
    for (Map<String, Object> r : result.rows()) {
      Map<String, Object> row = new LinkedHashMap<>();
      if (items.isEmpty()) {
        r.forEach((k, v) -> row.put(k, value(k, v, timestamp)));
      } else {
        for (SelectList.Item i : items) {
          row.put(i.key(), value(i.column(), r.get(i.column()), timestamp));
        }
      }
      rows.add(row);
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("data", rows);
    answer.put("rows", rows.size());
    return Response.json(200, answer);
  }

  /** The timestamp column as an ISO-8601 UTC time, every other value as stored. */
  private static Object value(String column, Object v, String timestamp) {
    return column.equals(timestamp) && v instanceof Long ms
        ? Instant.ofEpochMilli(ms).toString()
        : v;
  }

  /** {@code <timestamp> [ASC|DESC]}; the default is newest first. */
  private static SearchOrder order(String orderBy, String timestamp, List<String> problems) {
    if (orderBy == null || orderBy.isBlank()) {
      return SearchOrder.NEWEST_FIRST;
    }
    String[] words = orderBy.strip().split("\\s+");
    String column = words[0].replace("`", "");
    String direction = words.length > 1 ? words[1].toUpperCase(Locale.ROOT) : "ASC";
    if (column.equals(timestamp) && words.length <= 2 && direction.matches("ASC|DESC")) {
      return direction.equals("ASC") ? SearchOrder.OLDEST_FIRST : SearchOrder.NEWEST_FIRST;
    }
    problems.add(
        "orderBy: search results are ordered by the source's timestamp column: '"
            + timestamp
            + " DESC' (the default) or '"
            + timestamp
            + " ASC'");
    return SearchOrder.NEWEST_FIRST;
  }
}
