package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.Granularity;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.http.ApiException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The body of {@code POST /api/v2/charts/series} as HyperDX's external API takes it: every field of
 * the document's {@code SeriesQueryRequest} and {@code ChartSeries}, and what HyperDX's validator
 * accepts besides ({@code dataSource}, {@code sortOrder}, {@code alias}, {@code level}, the
 * aggregations {@code any}, {@code none} and {@code increase}). Types and words are checked here,
 * each problem naming its path; what depends on the sources is checked when the series are
 * resolved.
 *
 * @param startTime range start, epoch ms
 * @param endTime range end, epoch ms
 * @param granularity bucket length, {@code null} for auto
 * @param returnType {@code column}, {@code ratio}, or {@code null} when not given
 * @param series the series as asked
 */
record ChartRequest(
    long startTime, long endTime, Granularity granularity, String returnType, List<Asked> series) {

  private static final Set<String> QUERY_FIELDS =
      Set.of("startTime", "endTime", "granularity", "series", "seriesReturnType");
  private static final Set<String> SERIES_FIELDS =
      Set.of(
          "sourceId",
          "dataSource",
          "aggFn",
          "field",
          "level",
          "where",
          "whereLanguage",
          "groupBy",
          "metricName",
          "metricDataType",
          "sortOrder",
          "alias");

  /** HyperDX's aggregations that are not chart aggregations of the engine. */
  static final String INCREASE = "increase";

  static final String NONE = "none";

  /** Metric data types the document names that Chartwell does not chart. */
  private static final Set<String> UNSUPPORTED_METRIC_TYPES =
      Set.of("summary", "exponential histogram");

  /**
   * One series as asked.
   *
   * @param sourceId the source
   * @param dataSource {@code events}, {@code metrics} or {@code null}
   * @param aggFn the aggregation's wire name (an engine aggregation, {@code increase} or {@code
   *     none})
   * @param field the field or {@code null}
   * @param level the quantile level or {@code null}
   * @param where the filter or {@code null}
   * @param whereLanguage its language
   * @param groupBy group-by fields
   * @param metricName the metric or {@code null}
   * @param metricDataType {@code gauge}, {@code sum}, {@code histogram} or {@code null}
   */
  record Asked(
      String sourceId,
      String dataSource,
      String aggFn,
      String field,
      Double level,
      String where,
      WhereLanguage whereLanguage,
      List<String> groupBy,
      String metricName,
      String metricDataType) {}

  /**
   * @param body the request body
   * @return the request
   * @throws ApiException 400 naming every problem found
   */
  static ChartRequest parse(JsonNode body) {
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
    String returnType = text(body, "seriesReturnType", "", problems);
    if (returnType != null && !returnType.equals("column") && !returnType.equals("ratio")) {
      problems.add("seriesReturnType: must be one of column, ratio");
    }
    List<Asked> series = new ArrayList<>();
    JsonNode list = body.get("series");
    if (list == null || list.isNull()) {
      problems.add("series: is required");
    } else if (!list.isArray()) {
      problems.add("series: must be an array");
    } else {
      for (int i = 0; i < list.size(); i++) {
        Asked s = series(list.get(i), "series[" + i + "]", problems);
        if (s != null) {
          series.add(s);
        }
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    return new ChartRequest(start, end, granularity, returnType, series);
  }

  private static Asked series(JsonNode s, String path, List<String> problems) {
    if (!s.isObject()) {
      problems.add(path + ": must be an object");
      return null;
    }
    unknown(s, SERIES_FIELDS, path + ".", problems);
    int before = problems.size();
    String sourceId = text(s, "sourceId", path, problems);
    String dataSource = text(s, "dataSource", path, problems);
    if (dataSource != null && !dataSource.equals("events") && !dataSource.equals("metrics")) {
      problems.add(path + ".dataSource: must be one of events, metrics");
    }
    String fn = text(s, "aggFn", path, problems);
    if (fn != null
        && AggFn.fromWireName(fn).isEmpty()
        && !fn.equals(INCREASE)
        && !fn.equals(NONE)) {
      problems.add(
          path
              + ".aggFn: must be one of "
              + Stream.concat(
                      Arrays.stream(AggFn.values()).map(AggFn::wireName), Stream.of(INCREASE, NONE))
                  .collect(Collectors.joining(", ")));
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
    if ("promql".equals(lang)) {
      problems.add(
          path
              + ".whereLanguage: promql is not supported: Chartwell has no Prometheus sources; use"
              + " lucene or sql");
    } else if (lang != null) {
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
    String metricName = text(s, "metricName", path, problems);
    String metricType = text(s, "metricDataType", path, problems);
    if (metricType != null && UNSUPPORTED_METRIC_TYPES.contains(metricType)) {
      problems.add(
          path
              + ".metricDataType: "
              + metricType
              + " metrics are not supported; use gauge, sum or histogram");
    } else if (metricType != null && !List.of("gauge", "sum", "histogram").contains(metricType)) {
      problems.add(path + ".metricDataType: must be one of gauge, sum, histogram");
    }
    String sortOrder = text(s, "sortOrder", path, problems);
    if (sortOrder != null && !sortOrder.equals("asc") && !sortOrder.equals("desc")) {
      problems.add(path + ".sortOrder: must be one of asc, desc");
    }
    text(s, "alias", path, problems); // accepted: answers name series by position
    if (problems.size() > before) {
      return null;
    }
    return new Asked(
        sourceId, dataSource, fn, field, level, where, language, groupBy, metricName, metricType);
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
      problems.add((path.isEmpty() ? "" : path + ".") + field + ": must be a string");
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
