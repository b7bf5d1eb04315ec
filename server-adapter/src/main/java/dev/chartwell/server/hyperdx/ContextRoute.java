package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.charts.ServiceScope;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.tenancy.Tenancy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v2/surrounding}: the events just before and just after a moment that share one
 * field's value with the event there (its service, its host, or any column), merged oldest first:
 * three searches (before it newest first, at its millisecond, after it oldest first), each from the
 * indexes in time order.
 */
final class ContextRoute {
  static final int MAX_SIDE = 200;
  static final int DEFAULT_SIDE = 10;
  static final int MAX_SAME_MILLI = 100;
  static final Duration WINDOW = Duration.ofDays(1);

  private static final Set<String> FIELDS =
      Set.of("sourceId", "time", "by", "field", "value", "before", "after");

  private ContextRoute() {}

  static void register(
      Router router,
      ServiceScope scope,
      Catalog catalog,
      Engine engine,
      Json json,
      long maxBody,
      Tenancy tenancy) {
    router.add(
        "POST",
        V2.BASE + "/surrounding",
        scope.authenticator(),
        maxBody,
        scope.wrap(req -> surrounding(req, catalog, engine, json, tenancy)));
  }

  private static Response surrounding(
      Request req, Catalog catalog, Engine engine, Json json, Tenancy tenancy)
      throws java.io.IOException {
    ServicePrincipal p = V2.caller(req, false);
    p.requireRunning();
    List<String> problems = new ArrayList<>();
    JsonNode body = Params.object(req, json, FIELDS, problems);
    String sourceId = Params.sourceId(body, 64, problems);
    Instant time = Params.time(body, "time", problems);
    if (time == null && !body.hasNonNull("time")) {
      problems.add("time: is required (the event's timestamp)");
    }
    String by = Params.text(body, "by", 16, problems);
    if (by != null && !by.equals("service") && !by.equals("host")) {
      problems.add("by: must be service or host (or give field)");
    }
    String field = Params.text(body, "field", 256, problems);
    if (by != null && field != null) {
      problems.add("field: give either by or field, not both");
    }
    String value = Params.text(body, "value", 4096, problems);
    if (value == null && !body.hasNonNull("value")) {
      problems.add("value: is required (the event's value of the field)");
    }
    int before = Params.integer(body, "before", DEFAULT_SIDE, 0, MAX_SIDE, problems);
    int after = Params.integer(body, "after", DEFAULT_SIDE, 0, MAX_SIDE, problems);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    EventSource source = EventSource.resolve(catalog, engine, p.warehouseId(), sourceId);
    String column = field != null ? field : column(source, by == null ? "service" : by);
    if (!source.hasColumn().test(column)) {
      throw ApiException.badRequest(
          "field: source " + sourceId + " has no column '" + column + "'");
    }
    String where = "`" + column.replace("`", "") + "` = '" + sqlString(value) + "'";
    return source.answer(
        tenancy,
        p,
        req,
        control -> answer(source, time, column, value, where, before, after, control));
  }

  /** Runs the three searches and merges their events. */
  private static Response answer(
      EventSource source,
      Instant time,
      String column,
      String value,
      String where,
      int before,
      int after,
      QueryControl control) {
    String sourceId = source.id();
    long t = time.toEpochMilli();
    List<Map<String, Object>> rows = new ArrayList<>();
    if (before > 0) {
      SearchResult r =
          search(
              source,
              t - WINDOW.toMillis(),
              t - 1,
              where,
              SearchOrder.NEWEST_FIRST,
              before,
              control);
      for (int i = r.rows().size() - 1; i >= 0; i--) {
        rows.add(row(r.rows().get(i), r.timestampColumn(), "before"));
      }
    }
    SearchResult at =
        search(source, t, t, where, SearchOrder.OLDEST_FIRST, MAX_SAME_MILLI, control);
    for (Map<String, Object> row : at.rows()) {
      rows.add(row(row, at.timestampColumn(), "at"));
    }
    if (after > 0) {
      SearchResult r =
          search(
              source,
              t + 1,
              t + WINDOW.toMillis(),
              where,
              SearchOrder.OLDEST_FIRST,
              after,
              control);
      for (Map<String, Object> row : r.rows()) {
        rows.add(row(row, r.timestampColumn(), "after"));
      }
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("sourceId", sourceId);
    answer.put("field", column);
    answer.put("value", value);
    answer.put("time", time.toString());
    answer.put("events", rows);
    return V2.data(answer);
  }

  /** The column of the service ({@code serviceNameExpression}) or host ({@code host.name}). */
  private static String column(EventSource source, String by) {
    if (by.equals("service")) {
      return source
          .column("serviceNameExpression")
          .orElseThrow(
              () ->
                  ApiException.badRequest(
                      "by: source "
                          + source.id()
                          + " has no serviceNameExpression naming a column"));
    }
    String resource = source.definition().path("resourceAttributesExpression").asText("").strip();
    String host = resource.isEmpty() ? "host.name" : resource + ".host.name";
    if (!source.hasColumn().test(host)) {
      throw ApiException.badRequest("by: source " + source.id() + " has no column '" + host + "'");
    }
    return host;
  }

  private static SearchResult search(
      EventSource source,
      long from,
      long to,
      String where,
      SearchOrder order,
      int limit,
      QueryControl control) {
    return source.search(
        new SearchQuery(
            source.queryId(), from, to, where, WhereLanguage.SQL, null, order, limit, 0),
        control);
  }

  private static Map<String, Object> row(Map<String, Object> r, String timestamp, String position) {
    Map<String, Object> out = new LinkedHashMap<>();
    r.forEach(
        (k, v) ->
            out.put(
                k,
                k.equals(timestamp) && v instanceof Long ms
                    ? Instant.ofEpochMilli(ms).toString()
                    : v));
    out.put("_position", position);
    return out;
  }

  /** A SQL string's content: backslashes and quotes escaped. */
  static String sqlString(String s) {
    return s.replace("\\", "\\\\").replace("'", "\\'");
  }
}
