package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.internal.exec.QueryEngine;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.tenancy.Tenancy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v2/facets}: for the events of a source matching a where in a time range, the
 * most frequent values of several fields with their counts, each field one grouped count over the
 * whole range (the chart query's group-by, from the same indexes); a field with more distinct
 * values than a query may group answers its own error, not the request's.
 */
final class FacetRoute {
  static final int MAX_FIELDS = 10;
  static final int MAX_LIMIT = 100;
  static final int DEFAULT_LIMIT = 10;

  private static final Set<String> FIELDS =
      Set.of("sourceId", "startTime", "endTime", "where", "whereLanguage", "fields", "limit");

  private FacetRoute() {}

  /** Answers {@code POST /facets}. */
  static Response facets(
      Request req, Catalog catalog, Engine engine, Json json, Clock clock, Tenancy tenancy)
      throws java.io.IOException {
    ServicePrincipal p = V2.caller(req, false);
    p.requireRunning();
    List<String> problems = new ArrayList<>();
    JsonNode body = Params.object(req, json, FIELDS, problems);
    EventQueryParams asked = EventQueryParams.read(body, 64, problems);
    int limit = Params.integer(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT, problems);
    List<String> named = fieldList(body.get("fields"), problems);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    EventQueryParams q = asked.resolved(clock);
    EventSource source = EventSource.resolve(catalog, engine, p.warehouseId(), q.sourceId());
    List<String> fields = named == null ? defaults(source) : named;
    return source.answer(
        tenancy,
        p,
        req,
        control ->
            answer(source, fields, limit, q.start(), q.end(), q.where(), q.language(), control));
  }

  /** Counts each field's values and shapes the answer. */
  private static Response answer(
      EventSource source,
      List<String> fields,
      int limit,
      Instant start,
      Instant end,
      String where,
      WhereLanguage lang,
      QueryControl control) {
    String sourceId = source.id();
    List<Map<String, Object>> out = new ArrayList<>();
    Long total = null;
    for (String field : fields) {
      Map<String, Object> facet = new LinkedHashMap<>();
      facet.put("field", field);
      if (!source.hasColumn().test(field)) {
        facet.put("error", "source " + sourceId + " has no column '" + field + "'");
        out.add(facet);
        continue;
      }
      Map<String, Long> counts;
      try {
        counts = counts(source, field, start, end, where, lang, control);
      } catch (ApiException e) {
        if (!e.getMessage().contains(QueryEngine.tooManyGroups().getMessage())) {
          throw e;
        }
        facet.put(
            "error", "more than 10,000 distinct values in this range: narrow it or the where");
        out.add(facet);
        continue;
      }
      long sum = counts.values().stream().mapToLong(Long::longValue).sum();
      total = sum;
      long missing = counts.getOrDefault("", 0L);
      List<Map<String, Object>> values = new ArrayList<>();
      counts.entrySet().stream()
          .filter(e -> !e.getKey().isEmpty())
          .sorted(
              Comparator.comparing(Map.Entry<String, Long>::getValue)
                  .reversed()
                  .thenComparing(Map.Entry::getKey))
          .limit(limit)
          .forEach(e -> values.add(Map.of("value", e.getKey(), "count", e.getValue())));
      long shown = values.stream().mapToLong(v -> (Long) v.get("count")).sum();
      facet.put("values", values);
      facet.put("distinct", counts.size() - (counts.containsKey("") ? 1 : 0));
      facet.put("otherCount", sum - missing - shown);
      facet.put("missingCount", missing);
      out.add(facet);
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("sourceId", sourceId);
    answer.put("total", total);
    answer.put("fields", out);
    return V2.data(answer);
  }

  /** The count of matching events per value of one field over the whole range. */
  private static Map<String, Long> counts(
      EventSource source,
      String field,
      Instant start,
      Instant end,
      String where,
      WhereLanguage lang,
      QueryControl control) {
    ChartQuery q =
        ChartQuery.over(start, end)
            .source(source.queryId())
            .every(Granularity.THIRTY_DAYS)
            .series(
                new Series(
                    source.queryId(),
                    AggFn.COUNT,
                    null,
                    null,
                    where,
                    Languages.engine(lang),
                    List.of(field)))
            .build();
    ChartResult r = source.chart(q, control);
    Map<String, Long> counts = new HashMap<>();
    for (ChartResult.Row row : r.rows()) {
      Number n = row.values().get(0);
      if (n != null) {
        counts.merge(row.group().get(0), n.longValue(), Long::sum);
      }
    }
    return counts;
  }

  /** The service, severity, host and status columns the source has, as its expressions name. */
  static List<String> defaults(EventSource source) {
    Set<String> out = new LinkedHashSet<>();
    source.column("serviceNameExpression").ifPresent(out::add);
    source.column("severityTextExpression").ifPresent(out::add);
    String resource = source.definition().path("resourceAttributesExpression").asText("");
    if (!resource.isBlank() && source.hasColumn().test(resource.strip() + ".host.name")) {
      out.add(resource.strip() + ".host.name");
    }
    source.column("statusCodeExpression").ifPresent(out::add);
    String attributes = source.definition().path("eventAttributesExpression").asText("").strip();
    for (String status : List.of("http.status_code", "http.response.status_code")) {
      if (!attributes.isEmpty() && source.hasColumn().test(attributes + "." + status)) {
        out.add(attributes + "." + status);
      }
    }
    return List.copyOf(out);
  }

  /** The asked fields ({@code Map['key']} read as {@code Map.key}), or null for the defaults. */
  private static List<String> fieldList(JsonNode v, List<String> problems) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isArray() || v.isEmpty() || v.size() > MAX_FIELDS) {
      problems.add("fields: must be an array of 1 to " + MAX_FIELDS + " column names");
      return null;
    }
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < v.size(); i++) {
      JsonNode f = v.get(i);
      if (!f.isTextual() || f.textValue().isBlank() || f.textValue().length() > 256) {
        problems.add("fields[" + i + "]: must be a column name of at most 256 characters");
        continue;
      }
      out.add(Params.columnName(f.textValue()));
    }
    return List.copyOf(out);
  }
}
