package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.charts.ServiceScope;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.tenancy.Tenancy;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v2/traces/{traceId}}: every span of one trace of a trace source, oldest first,
 * with its parent link, service, name, kind, status, start (as an offset from the trace's start, in
 * nanoseconds) and duration, attributes, resource attributes and events, read through the same
 * search as {@code POST /api/v2/search} (the engine or a ClickHouse connection alike). At most
 * {@value #MAX_SPANS} spans: a larger trace answers its oldest ones and says {@code truncated}.
 */
final class TraceRoute {
  /** The most spans one answer holds. */
  static final int MAX_SPANS = SearchQuery.MAX_LIMIT;

  private static final Pattern TRACE_ID = Pattern.compile("[0-9A-Za-z_-]{1,128}");

  private TraceRoute() {}

  static void register(
      Router router,
      ServiceScope scope,
      Catalog catalog,
      Engine engine,
      Json json,
      Clock clock,
      long maxBodyBytes,
      Tenancy tenancy) {
    router.add(
        "GET",
        V2.BASE + "/traces/{traceId}",
        scope.authenticator(),
        maxBodyBytes,
        scope.wrap(req -> trace(req, catalog, engine, json, clock, tenancy)));
  }

  private static Response trace(
      Request req, Catalog catalog, Engine engine, Json json, Clock clock, Tenancy tenancy)
      throws IOException {
    ServicePrincipal p = V2.caller(req, false);
    p.requireRunning();
    String traceId = req.pathParam("traceId");
    if (!TRACE_ID.matcher(traceId).matches()) {
      throw ApiException.badRequest(
          "traceId: must be 1 to 128 letters, digits, '-' or '_' (a hex trace id), got '"
              + abbreviate(traceId)
              + "'");
    }
    String sourceId = req.queryParam("sourceId").orElseGet(() -> onlyTraceSource(catalog, p));
    EventSource source = EventSource.resolve(catalog, engine, p.warehouseId(), sourceId);
    if (!source.definition().path("kind").asText().equals("trace")) {
      throw ApiException.badRequest(
          "sourceId: " + sourceId + " is a log source: traces are read from a trace source");
    }
    String traceColumn = required(source, "traceIdExpression");
    String spanColumn = required(source, "spanIdExpression");
    Instant end =
        Params.time(req, "endTime").orElseGet(() -> Instant.now(clock).plus(Duration.ofDays(1)));
    Instant start =
        Params.time(req, "startTime").orElse(Instant.ofEpochMilli(Source.MIN_TIMESTAMP));
    if (!start.isBefore(end)) {
      throw ApiException.badRequest("endTime: must be after startTime");
    }
    SearchQuery q =
        new SearchQuery(
            source.queryId(),
            start.toEpochMilli(),
            end.toEpochMilli(),
            "`" + traceColumn + "` = '" + traceId + "'",
            WhereLanguage.SQL,
            null,
            SearchOrder.OLDEST_FIRST,
            MAX_SPANS,
            0);
    Instant from = start;
    Instant to = end;
    return source.answer(
        tenancy,
        p,
        req,
        control -> answer(source, traceId, spanColumn, q, from, to, json, control));
  }

  /** Reads the trace's spans and shapes them. */
  private static Response answer(
      EventSource source,
      String traceId,
      String spanColumn,
      SearchQuery q,
      Instant start,
      Instant end,
      Json json,
      QueryControl control) {
    String sourceId = source.id();
    SearchResult found = source.search(q, control);
    if (found.rows().isEmpty()) {
      throw ApiException.notFound(
          "trace "
              + traceId
              + " has no spans in source "
              + sourceId
              + " from "
              + start
              + " to "
              + end);
    }
    boolean truncated =
        found.rows().size() == MAX_SPANS
            && !source.search(q.offset(MAX_SPANS).limit(1), control).rows().isEmpty();
    Spans spans = new Spans(source, spanColumn, found.timestampColumn(), json);
    List<Map<String, Object>> out = spans.of(found.rows());
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("traceId", traceId);
    answer.put("sourceId", sourceId);
    answer.put("logSourceId", text(source.definition(), "logSourceId"));
    answer.put("startTime", Instant.ofEpochMilli(spans.originNanos / 1_000_000).toString());
    answer.put("durationNs", spans.endNanos - spans.originNanos);
    answer.put("spanCount", out.size());
    answer.put("truncated", truncated);
    answer.put("spans", out);
    return V2.data(answer);
  }

  /** The service's one trace source, or a 400 (several) or 404 (none). */
  private static String onlyTraceSource(Catalog catalog, ServicePrincipal p) {
    List<String> ids =
        catalog.sources(p.warehouseId(), SourceApi.HYPERDX).stream()
            .filter(s -> s.path("kind").asText().equals("trace"))
            .map(s -> s.path("id").asText())
            .toList();
    if (ids.isEmpty()) {
      throw ApiException.notFound("the service has no trace source");
    }
    if (ids.size() > 1) {
      throw ApiException.badRequest(
          "sourceId: is required: the service has " + ids.size() + " trace sources " + ids);
    }
    return ids.get(0);
  }

  private static String required(EventSource source, String expression) {
    return source
        .column(expression)
        .orElseThrow(
            () ->
                ApiException.badRequest(
                    "sourceId: source "
                        + source.id()
                        + " has no "
                        + expression
                        + " naming a column of its table ('"
                        + source.definition().path(expression).asText("")
                        + "')"));
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() || v.asText().isEmpty() ? null : v.asText();
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "…" : s;
  }

  /** Turns the rows of a trace's search into spans by the source's expressions. */
  private static final class Spans {
    private final String spanColumn;
    private final String timestamp;
    private final String parentColumn;
    private final String nameColumn;
    private final String serviceColumn;
    private final String kindColumn;
    private final String statusColumn;
    private final String statusMessageColumn;
    private final String durationColumn;
    private final String nanosColumn;
    private final String attributesPrefix;
    private final String resourcePrefix;
    private final String eventsColumn;
    private final long durationToNanos;
    private final Json json;
    long originNanos = Long.MAX_VALUE;
    long endNanos = Long.MIN_VALUE;

    Spans(EventSource source, String spanColumn, String timestamp, Json json) {
      this.spanColumn = spanColumn;
      this.timestamp = timestamp;
      this.json = json;
      parentColumn = source.column("parentSpanIdExpression").orElse(null);
      nameColumn = source.column("spanNameExpression").orElse(null);
      serviceColumn = source.column("serviceNameExpression").orElse(null);
      kindColumn = source.column("spanKindExpression").orElse(null);
      statusColumn = source.column("statusCodeExpression").orElse(null);
      statusMessageColumn = source.column("statusMessageExpression").orElse(null);
      durationColumn = source.column("durationExpression").orElse(null);
      nanosColumn = source.hasColumn().test(timestamp + "Nanos") ? timestamp + "Nanos" : null;
      attributesPrefix = prefix(source, "eventAttributesExpression");
      resourcePrefix = prefix(source, "resourceAttributesExpression");
      eventsColumn = source.definition().path("spanEventsValueExpression").asText("").strip();
      int precision = source.definition().path("durationPrecision").asInt(3);
      durationToNanos = (long) Math.pow(10, Math.max(0, Math.min(9, 9 - precision)));
    }

    private static String prefix(EventSource source, String expression) {
      String e = source.definition().path(expression).asText("").strip().replace("`", "");
      return e.isEmpty() ? null : e + ".";
    }

    List<Map<String, Object>> of(List<Map<String, Object>> rows) {
      List<long[]> times = new ArrayList<>(rows.size());
      for (Map<String, Object> r : rows) {
        long startNanos =
            nanosColumn != null && r.get(nanosColumn) instanceof Long n
                ? n
                : ((Long) r.get(timestamp)) * 1_000_000L;
        long duration =
            durationColumn != null && r.get(durationColumn) instanceof Number d
                ? Math.max(0, d.longValue() * durationToNanos)
                : 0;
        times.add(new long[] {startNanos, duration});
        originNanos = Math.min(originNanos, startNanos);
        endNanos = Math.max(endNanos, startNanos + duration);
      }
      List<Map<String, Object>> out = new ArrayList<>(rows.size());
      for (int i = 0; i < rows.size(); i++) {
        Map<String, Object> r = rows.get(i);
        long[] t = times.get(i);
        Map<String, Object> span = new LinkedHashMap<>();
        span.put("spanId", r.get(spanColumn));
        span.put("parentSpanId", blankToNull(value(r, parentColumn)));
        span.put("name", value(r, nameColumn));
        span.put("service", value(r, serviceColumn));
        span.put("kind", value(r, kindColumn));
        span.put("statusCode", value(r, statusColumn));
        span.put("statusMessage", blankToNull(value(r, statusMessageColumn)));
        span.put("startTime", Instant.ofEpochMilli(t[0] / 1_000_000).toString());
        span.put("startOffsetNs", t[0] - originNanos);
        span.put("durationNs", t[1]);
        span.put("attributes", withPrefix(r, attributesPrefix));
        span.put("resource", withPrefix(r, resourcePrefix));
        span.put("events", events(r, t[0]));
        out.add(span);
      }
      return out;
    }

    private static Object value(Map<String, Object> r, String column) {
      return column == null ? null : r.get(column);
    }

    private static Object blankToNull(Object v) {
      return v instanceof String s && s.isEmpty() ? null : v;
    }

    private static Map<String, Object> withPrefix(Map<String, Object> r, String prefix) {
      Map<String, Object> m = new TreeMap<>();
      if (prefix != null) {
        r.forEach(
            (k, v) -> {
              if (v != null && k.startsWith(prefix)) {
                m.put(k.substring(prefix.length()), v);
              }
            });
      }
      return m;
    }

    /**
     * The span's events from the JSON arrays {@code Events.Timestamp}, {@code Events.Name} and
     * {@code Events.Attributes} (one entry per event), as the OTLP tables store them.
     */
    private List<Map<String, Object>> events(Map<String, Object> r, long spanStartNanos) {
      if (eventsColumn.isEmpty()) {
        return List.of();
      }
      JsonNode times = array(r.get(eventsColumn + ".Timestamp"));
      JsonNode names = array(r.get(eventsColumn + ".Name"));
      JsonNode attributes = array(r.get(eventsColumn + ".Attributes"));
      List<Map<String, Object>> out = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("name", names.get(i).asText());
        JsonNode t = times.get(i);
        if (t != null && t.canConvertToLong()) {
          e.put("time", Instant.ofEpochMilli(t.longValue() / 1_000_000).toString());
          e.put("offsetNs", t.longValue() - spanStartNanos);
        }
        JsonNode a = attributes.get(i);
        e.put("attributes", a != null && a.isObject() ? a : Map.of());
        out.add(e);
      }
      return out;
    }

    private JsonNode array(Object v) {
      if (v instanceof String s && s.startsWith("[")) {
        try {
          JsonNode n = json.mapper().readTree(s);
          if (n.isArray()) {
            return n;
          }
        } catch (JsonProcessingException e) {
          // not the JSON array the OTLP tables store: no events to show
        }
      }
      return json.mapper().createArrayNode();
    }
  }
}
