package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.query.AggFn;
import dev.chartwell.engine.query.ChartQuery;
import dev.chartwell.engine.query.ChartResult;
import dev.chartwell.engine.query.Granularity;
import dev.chartwell.engine.query.QueryAbortedException;
import dev.chartwell.engine.query.QueryControl;
import dev.chartwell.engine.query.QueryOptions;
import dev.chartwell.engine.query.QueryValidationException;
import dev.chartwell.engine.query.Series;
import dev.chartwell.engine.query.SeriesReturnType;
import dev.chartwell.engine.query.UnknownSourceException;
import dev.chartwell.engine.source.AppendResult;
import dev.chartwell.engine.source.Source;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import java.io.OutputStream;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The chart and data interface (HTTP Bearer, the token being a service password): ingestion into a
 * source of the service's warehouse, and the chart query. Handlers translate JSON to engine records
 * and back, nothing more.
 */
public final class ChartRoutes {
  private static final Set<String> QUERY_FIELDS =
      Set.of("startTime", "endTime", "granularity", "series", "seriesReturnType");
  private static final Set<String> SERIES_FIELDS =
      Set.of(
          "sourceId",
          "aggFn",
          "field",
          "level",
          "where",
          "whereLanguage",
          "groupBy",
          "metricName",
          "metricDataType");

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
   * @param catalog the sources
   * @param engine the engine
   * @param json the JSON codec
   * @param maxRequestBytes body limit of the query
   * @param maxIngestBytes body limit of ingestion
   */
  public static void register(
      Router router,
      Services services,
      Catalog catalog,
      Engine engine,
      Json json,
      long maxRequestBytes,
      long maxIngestBytes) {
    Authenticator bearer = bearer(services);
    ObjectMapper events = JsonMapper.builder().build(); // doubles as doubles, for ingestion speed
    router.add(
        "POST",
        "/api/v2/sources/{sourceId}/events",
        bearer,
        maxIngestBytes,
        EVENT_BODIES,
        req -> ingest(req, catalog, events));
    router.add(
        "POST",
        "/api/v2/charts/series",
        bearer,
        maxRequestBytes,
        req -> query(req, catalog, engine, json));
  }

  /**
   * @param services the services, whose passwords are the tokens
   * @return the Bearer authenticator of the chart and data interface
   */
  public static Authenticator bearer(Services services) {
    return new Authenticator.Bearer(
        token ->
            services
                .byToken(token)
                .map(ServicePrincipal::new)
                .orElseThrow(
                    () ->
                        new ApiException(
                            ErrorCode.UNAUTHORIZED,
                            "invalid token",
                            Map.of("WWW-Authenticate", "Bearer realm=\"chartwell\""))));
  }

  private static Response ingest(Request req, Catalog catalog, ObjectMapper mapper)
      throws java.io.IOException {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    p.requireWritable();
    String sourceId = req.pathParam("sourceId");
    // The events go to the table the source reads.
    Source source = ownSource(catalog, p, sourceId, "source " + sourceId + " not found");
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
        (batch, lines) -> {
          AppendResult r;
          try {
            r = source.appendBatch(batch);
          } catch (RuntimeException e) {
            throw WriteRefusals.answer(e, partly(reader, lines.get(0)));
          }
          List<Map.Entry<Integer, String>> out = new ArrayList<>();
          for (AppendResult.Rejection x : r.rejections()) {
            out.add(new AbstractMap.SimpleEntry<>(x.index(), x.reason()));
          }
          return out;
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
  static ApiException aborted(QueryAbortedException e) {
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

  private static Source ownSource(
      Catalog catalog, ServicePrincipal p, String sourceId, String message) {
    return catalog
        .engineSourceOf(p.warehouseId(), sourceId)
        .orElseThrow(() -> ApiException.notFound(message));
  }

  private static Response query(Request req, Catalog catalog, Engine engine, Json json)
      throws java.io.IOException {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    JsonNode sent = json.readTree(req.bodyBytes());
    ChartQuery asked = parse(sent);
    // Each series reads the table of its source (or, on a metric source, the table of its metric
    // data type): the engine knows tables, not sources.
    List<Series> series = new ArrayList<>();
    for (int i = 0; i < asked.series().size(); i++) {
      Series s = asked.series().get(i);
      String id = s.sourceId();
      if (id == null) { // reported by the query's validation
        series.add(s);
        continue;
      }
      String path = "series[" + i + "]";
      String table =
          ownSource(catalog, p, id, path + ".sourceId: source " + id + " not found").id();
      Series own =
          new Series(
              table, s.aggFn(), s.field(), s.level(), s.where(), s.whereLanguage(), s.groupBy());
      series.add(
          MetricSeries.resolve(own, sent.get("series").get(i), path, catalog, p.warehouseId()));
    }
    ChartQuery q =
        new ChartQuery(
            asked.startTime(), asked.endTime(), asked.granularity(), series, asked.returnType());
    ChartResult result;
    QueryControl control = new QueryControl();
    req.onClientDisconnect(() -> control.cancel("the client disconnected"));
    try {
      result = engine.query(q, QueryOptions.DEFAULT.withControl(control));
    } catch (QueryValidationException e) {
      throw ApiException.badRequest(e.getMessage());
    } catch (UnknownSourceException e) {
      throw ApiException.notFound(e.getMessage());
    } catch (QueryAbortedException e) {
      throw aborted(e);
    }
    ObjectNode body = json.mapper().createObjectNode();
    ArrayNode data = body.putArray("data");
    for (ChartResult.Row row : result.rows()) {
      ObjectNode r = data.addObject();
      r.put("ts_bucket", row.bucket());
      ArrayNode group = r.putArray("group");
      row.group().forEach(group::add);
      List<Number> values = row.values();
      for (int i = 0; i < values.size(); i++) {
        Number v = values.get(i);
        String key = "series_" + i + ".data";
        if (v instanceof Long l) {
          r.put(key, l);
        } else if (v != null) {
          r.put(key, v.doubleValue());
        } else if (q.returnType() == SeriesReturnType.RATIO) {
          r.putNull(key);
        }
      }
    }
    return Response.json(200, body);
  }

  /** The request as engine records; type and enum problems are 400s naming the field path. */
  static ChartQuery parse(JsonNode body) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    List<String> problems = new ArrayList<>();
    unknown(body, QUERY_FIELDS, "", problems);
    long start = epoch(body, "startTime", problems);
    long end = epoch(body, "endTime", problems);
    Granularity granularity = null;
    JsonNode g = body.get("granularity");
    if (g != null && !g.isNull()) {
      String name = g.isTextual() ? g.textValue() : null;
      if (name == null || (!name.equals("auto") && Granularity.named(name).isEmpty())) {
        problems.add(
            "granularity: must be one of "
                + Granularity.REQUESTABLE.stream()
                    .map(Granularity::name)
                    .collect(Collectors.joining(", "))
                + ", auto");
      } else if (!name.equals("auto")) {
        granularity = Granularity.named(name).orElseThrow();
      }
    }
    SeriesReturnType returnType = SeriesReturnType.COLUMN;
    JsonNode rt = body.get("seriesReturnType");
    if (rt != null && !rt.isNull()) {
      if (rt.isTextual() && rt.textValue().equals("ratio")) {
        returnType = SeriesReturnType.RATIO;
      } else if (!rt.isTextual() || !rt.textValue().equals("column")) {
        problems.add("seriesReturnType: must be one of column, ratio");
      }
    }
    List<Series> series = new ArrayList<>();
    JsonNode list = body.get("series");
    if (list == null || list.isNull()) {
      problems.add("series: is required");
    } else if (!list.isArray()) {
      problems.add("series: must be an array");
    } else {
      for (int i = 0; i < list.size(); i++) {
        Series s = series(list.get(i), "series[" + i + "]", problems);
        if (s != null) {
          series.add(s);
        }
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    return new ChartQuery(start, end, granularity, series, returnType);
  }

  private static Series series(JsonNode s, String path, List<String> problems) {
    if (!s.isObject()) {
      problems.add(path + ": must be an object");
      return null;
    }
    unknown(s, SERIES_FIELDS, path + ".", problems);
    int before = problems.size();
    MetricSeries.check(s, path, problems);
    String sourceId = text(s, "sourceId", path, problems);
    String fn = text(s, "aggFn", path, problems);
    AggFn aggFn = null;
    if (fn != null) {
      aggFn = AggFn.fromWireName(fn).orElse(null);
      if (aggFn == null) {
        problems.add(
            path
                + ".aggFn: must be one of "
                + Arrays.stream(AggFn.values())
                    .map(AggFn::wireName)
                    .collect(Collectors.joining(", ")));
      }
    }
    String field = text(s, "field", path, problems);
    Double level = null;
    JsonNode l = s.get("level");
    if (l != null && !l.isNull()) {
      if (!l.isNumber()) {
        problems.add(path + ".level: must be a number from 0 to 1");
      } else {
        level = l.doubleValue();
      }
    }
    String where = text(s, "where", path, problems);
    WhereLanguage language = WhereLanguage.LUCENE;
    String lang = text(s, "whereLanguage", path, problems);
    if (lang != null) {
      language = WhereLanguage.fromWireName(lang).orElse(null);
      if (language == null) {
        problems.add(path + ".whereLanguage: must be one of lucene, sql");
      }
    }
    List<String> groupBy = new ArrayList<>();
    JsonNode gb = s.get("groupBy");
    if (gb != null && !gb.isNull()) {
      if (!gb.isArray()) {
        problems.add(path + ".groupBy: must be an array of field names");
      } else {
        for (int i = 0; i < gb.size(); i++) {
          if (!gb.get(i).isTextual()) {
            problems.add(path + ".groupBy[" + i + "]: must be a string");
          } else {
            groupBy.add(gb.get(i).textValue());
          }
        }
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new Series(sourceId, aggFn, field, level, where, language, groupBy);
  }

  private static long epoch(JsonNode body, String field, List<String> problems) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      problems.add(field + ": is required");
      return 0;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      problems.add(field + ": must be an integer (epoch milliseconds)");
      return 0;
    }
    return v.longValue();
  }

  private static String text(JsonNode node, String field, String path, List<String> problems) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      problems.add(path + "." + field + ": must be a string");
      return null;
    }
    return v.textValue();
  }

  private static void unknown(
      JsonNode node, Set<String> known, String path, List<String> problems) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!known.contains(n)) {
        problems.add(path + n + ": unknown field");
      }
    }
  }
}
