package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.bool;
import static dev.chartwell.server.validation.FieldType.expression;
import static dev.chartwell.server.validation.FieldType.integer;
import static dev.chartwell.server.validation.FieldType.number;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.FieldType.tagged;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WhereSyntaxException;
import dev.chartwell.server.validation.FieldType;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The rules of a dashboard tile's {@code config}, one branch per display type of the ClickHouse
 * Cloud document ({@code line}, {@code stacked_bar}, {@code table}, {@code number}, {@code pie},
 * {@code bar}, {@code heatmap}, {@code search}, {@code event_patterns}, {@code markdown}), each
 * checked by its own fields: a markdown tile needs no source, a heatmap select needs only {@code
 * valueExpression}, a number, pie or bar tile has exactly one select item. Raw-SQL configs ({@code
 * configType: "sql"}) are refused: Chartwell runs no SQL.
 */
final class TileRules {
  static final List<String> DISPLAY_TYPES =
      List.of(
          "line",
          "stacked_bar",
          "table",
          "number",
          "pie",
          "bar",
          "heatmap",
          "search",
          "event_patterns",
          "markdown");
  static final List<String> AGG_FNS =
      List.of(
          "avg",
          "count",
          "count_distinct",
          "last_value",
          "max",
          "min",
          "quantile",
          "sum",
          "any",
          "none");
  static final List<String> METRIC_TYPES =
      List.of("sum", "gauge", "histogram", "summary", "exponential histogram");
  static final List<String> LANGUAGES = List.of("sql", "lucene");
  static final List<Double> LEVELS = List.of(0.5, 0.9, 0.95, 0.99);
  static final int MAX_SELECT = 20;

  /** The most formulas of one tile (a number tile: one). */
  static final int MAX_FORMULAS = 10;

  private static final FieldType COLOR =
      oneOf(
          "chart-blue",
          "chart-orange",
          "chart-red",
          "chart-cyan",
          "chart-green",
          "chart-pink",
          "chart-purple",
          "chart-light-blue",
          "chart-brown",
          "chart-gray",
          "chart-success",
          "chart-warning",
          "chart-error");
  private static final ObjectShape NUMBER_FORMAT =
      ObjectShape.of(
          optional(
              "output",
              oneOf(
                  "currency",
                  "percent",
                  "byte",
                  "time",
                  "number",
                  "data_rate",
                  "throughput",
                  "duration")),
          optional("mantissa", integer(0, 20)),
          optional("thousandSeparated", bool()),
          optional("average", bool()),
          optional("decimalBytes", bool()),
          optional("factor", number()),
          optional("currencySymbol", string()),
          optional("numericUnit", oneOf(NumericUnits.ALL)),
          optional("unit", string()));
  private static final ObjectShape.Field FORMAT = optional("numberFormat", object(NUMBER_FORMAT));
  private static final FieldType LEVEL =
      (v, path, p) -> {
        double d = v.isNumber() ? v.doubleValue() : v.isTextual() ? parse(v.textValue()) : -1;
        if (!LEVELS.contains(d)) {
          p.add(path, "must be one of 0.5, 0.9, 0.95, 0.99");
        }
      };
  private static final ObjectShape SELECT_ITEM =
      ObjectShape.of(
          required("aggFn", oneOf(AGG_FNS)),
          optional("valueExpression", expression()),
          optional("alias", string()),
          optional("level", LEVEL),
          optional("where", string()),
          optional("whereLanguage", oneOf(LANGUAGES)),
          optional("metricName", string()),
          optional("metricType", oneOf(METRIC_TYPES)),
          optional("periodAggFn", oneOf("delta")),
          FORMAT);
  private static final ObjectShape HEATMAP_SELECT =
      ObjectShape.of(
          required("valueExpression", expression()),
          optional("countExpression", expression()),
          optional("heatmapScaleType", oneOf("log", "linear")));
  private static final ObjectShape TARGET_ID =
      ObjectShape.of(required("mode", oneOf("id")), required("id", string()));
  private static final ObjectShape TARGET_TEMPLATE =
      ObjectShape.of(required("mode", oneOf("template")), required("template", string()));
  private static final FieldType TARGET =
      tagged("mode", ordered("id", TARGET_ID, "template", TARGET_TEMPLATE));
  private static final ObjectShape FILTER_TEMPLATE =
      ObjectShape.of(
          required("kind", oneOf("expressionTemplate")),
          required("expression", expression()),
          required("template", string()));
  private static final ObjectShape LINK =
      ObjectShape.of(
          required("type", string()),
          required("target", TARGET),
          optional("whereTemplate", string()),
          optional("whereLanguage", oneOf(LANGUAGES)),
          optional("filters", arrayOf(object(FILTER_TEMPLATE))));
  private static final FieldType ON_CLICK =
      tagged(
          "type",
          ordered(
              "search",
              LINK,
              "dashboard",
              LINK,
              "external",
              ObjectShape.of(required("type", string()), required("urlTemplate", string()))));
  private static final FieldType COLOR_RULE;

  static {
    ObjectShape numeric =
        ObjectShape.of(
            required("operator", string()),
            required("value", number()),
            required("color", COLOR),
            optional("label", string()));
    ObjectShape between =
        numeric.with(
            required(
                "value",
                (v, path, p) -> {
                  if (!v.isArray()
                      || v.size() != 2
                      || !v.get(0).isNumber()
                      || !v.get(1).isNumber()) {
                    p.add(path, "must be [min, max], two numbers");
                  }
                }));
    ObjectShape equality =
        numeric.with(
            required(
                "value",
                (v, path, p) -> {
                  if (!v.isNumber() && !(v.isTextual() && v.textValue().length() <= 200)) {
                    p.add(path, "must be a number or a string of at most 200 characters");
                  }
                }));
    Map<String, ObjectShape> rules = new LinkedHashMap<>();
    for (String op : List.of("gt", "gte", "lt", "lte")) {
      rules.put(op, numeric);
    }
    rules.put("between", between);
    rules.put("eq", equality);
    rules.put("neq", equality);
    COLOR_RULE = tagged("operator", rules);
  }

  private static final ObjectShape FORMULA =
      ObjectShape.of(required("expression", string()), optional("alias", string()), FORMAT);
  private static final ObjectShape.Field FORMULAS =
      optional("formulas", arrayOf(object(FORMULA), MAX_FORMULAS));
  private static final ObjectShape.Field SHOW_OPERANDS = optional("showOperandSeries", bool());

  private static final ObjectShape BASE =
      ObjectShape.of(required("displayType", string()), required("sourceId", string()), FORMAT);
  private static final ObjectShape BUILDER =
      BASE.with(required("select", arrayOf(object(SELECT_ITEM))));
  private static final ObjectShape TIME_SERIES =
      BUILDER.with(
          optional("groupBy", expression()),
          optional("asRatio", bool()),
          optional("alignDateRangeToGranularity", bool()),
          optional("fillNulls", bool()),
          FORMULAS,
          SHOW_OPERANDS,
          optional("seriesLimit", integer(0, Integer.MAX_VALUE)));
  private static final ObjectShape LINE =
      TIME_SERIES.with(
          optional("fitYAxisToData", bool()), optional("compareToPreviousPeriod", bool()));
  private static final ObjectShape TABLE =
      BUILDER.with(
          optional("groupBy", expression()),
          optional("having", string()),
          optional("orderBy", string()),
          optional("asRatio", bool()),
          optional("groupByColumnsOnLeft", bool()),
          optional("onClick", ON_CLICK),
          FORMULAS,
          SHOW_OPERANDS);
  private static final ObjectShape NUMBER =
      BUILDER.with(
          optional("formulas", arrayOf(object(FORMULA), 1)),
          optional("color", COLOR),
          optional("colorRules", arrayOf(COLOR_RULE)),
          optional(
              "backgroundChart",
              object(
                  ObjectShape.of(
                      required("type", oneOf("line", "area")), optional("color", COLOR)))));
  private static final ObjectShape CATEGORICAL =
      BUILDER.with(
          optional("groupBy", expression()),
          optional("orderBy", string()),
          optional("limit", integer(1, Integer.MAX_VALUE)));
  private static final ObjectShape HEATMAP =
      BASE.with(
          required("select", arrayOf(object(HEATMAP_SELECT))),
          optional("where", string()),
          optional("whereLanguage", oneOf(LANGUAGES)));
  private static final ObjectShape SEARCH =
      BASE.with(
          required("select", string()),
          optional("where", string()),
          required("whereLanguage", oneOf(LANGUAGES)));
  private static final ObjectShape EVENT_PATTERNS =
      BASE.with(
          optional("select", string()),
          optional("where", string()),
          optional("whereLanguage", oneOf(LANGUAGES)));
  private static final ObjectShape MARKDOWN =
      ObjectShape.of(required("displayType", string()), optional("markdown", string()));
  private static final FieldType CONFIG =
      tagged(
          "displayType",
          ordered(
              "line", LINE,
              "stacked_bar", TIME_SERIES,
              "table", TABLE,
              "number", NUMBER,
              "pie", CATEGORICAL,
              "bar", CATEGORICAL,
              "heatmap", HEATMAP,
              "search", SEARCH,
              "event_patterns", EVENT_PATTERNS,
              "markdown", MARKDOWN));

  /** How many select items each display type takes. */
  private static final Map<String, Integer> SINGLE_SELECT =
      Map.of("number", 1, "pie", 1, "bar", 1, "heatmap", 1);

  private TileRules() {}

  /**
   * Checks a tile's config by its display type's branch, then what spans fields: the source, the
   * number of select items, each item's aggregation and filter.
   *
   * @param config the config
   * @param path its path
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @param p where problems go
   */
  static void config(JsonNode config, String path, Predicate<String> sourceExists, Problems p) {
    if (config.path("configType").asText().equals("sql")) {
      p.add(
          path + ".configType",
          "raw SQL tiles are not supported: Chartwell runs no SQL; describe the tile with"
              + " sourceId and select");
      return;
    }
    int before = p.size();
    CONFIG.check(config, path, p);
    if (p.size() > before) {
      return;
    }
    String display = config.get("displayType").textValue();
    if (config.has("sourceId")) {
      sourceId(config.get("sourceId").textValue(), path + ".sourceId", sourceExists, p);
    }
    JsonNode select = config.get("select");
    if (select != null && select.isArray()) {
      int max = SINGLE_SELECT.getOrDefault(display, MAX_SELECT);
      int min = config.path("asRatio").asBoolean(false) ? 2 : 1;
      if (config.path("asRatio").asBoolean(false) && select.size() != 2) {
        p.add(path + ".select", "asRatio needs exactly 2 items, got " + select.size());
      } else if (select.size() < min || select.size() > max) {
        p.add(
            path + ".select",
            max == 1
                ? "a " + display + " tile has exactly 1 item, got " + select.size()
                : "must hold 1 to " + max + " items, got " + select.size());
      }
      if (!display.equals("heatmap")) {
        for (int j = 0; j < select.size(); j++) {
          selectItem(select.get(j), path + ".select[" + j + "]", p);
        }
      }
    }
    if (config.path("where").isTextual()) {
      where(config, path, p);
    }
    JsonNode formulas = config.path("formulas");
    for (int j = 0; formulas.isArray() && j < formulas.size(); j++) {
      Formulas.check(
          formulas.get(j).get("expression").textValue(),
          select == null ? 0 : select.size(),
          path + ".formulas[" + j + "].expression",
          p);
    }
  }

  /** The rules between an item's fields: what each aggregation needs, and a filter that parses. */
  private static void selectItem(JsonNode item, String path, Problems p) {
    String fn = item.get("aggFn").textValue();
    boolean hasValue = !item.path("valueExpression").asText("").isEmpty();
    if (fn.equals("count") && hasValue) {
      p.add(path + ".valueExpression", "must be left out for count");
    } else if (!fn.equals("count") && !hasValue) {
      p.add(path + ".valueExpression", "is required for " + fn);
    }
    if (fn.equals("quantile") && !item.has("level")) {
      p.add(path + ".level", "is required for quantile");
    } else if (!fn.equals("quantile") && item.has("level")) {
      p.add(path + ".level", "only for quantile");
    }
    if (item.has("level") && item.get("level").isTextual()) {
      // The document types the level as a number; a client may send "0.95".
      ((ObjectNode) item).put("level", parse(item.get("level").textValue()));
    }
    if (item.path("where").isTextual()) {
      where(item, path, p);
    }
  }

  /**
   * Checks that a node's {@code where} parses in its {@code whereLanguage} (default Lucene).
   *
   * @param n a node with {@code where} and maybe {@code whereLanguage}
   * @param path its path
   * @param p where the problem goes
   */
  static void where(JsonNode n, String path, Problems p) {
    where(n.path("where").asText(""), n.path("whereLanguage").asText("lucene"), path + ".where", p);
  }

  /**
   * @param where a filter
   * @param language {@code lucene} or {@code sql}
   * @param path the filter's path
   * @param p where the problem goes
   */
  static void where(String where, String language, String path, Problems p) {
    try {
      WhereParser.parse(where, WhereLanguage.fromWireName(language).orElse(WhereLanguage.LUCENE));
    } catch (WhereSyntaxException e) {
      p.add(path, e.getMessage());
    }
  }

  /**
   * @param id a source id
   * @param path its path
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @param p where the problem goes
   */
  static void sourceId(String id, String path, Predicate<String> sourceExists, Problems p) {
    if (!sourceExists.test(id)) {
      p.add(path, "source " + id + " does not exist in this service");
    }
  }

  private static double parse(String level) {
    try {
      return Double.parseDouble(level);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static Map<String, ObjectShape> ordered(Object... tagsAndShapes) {
    Map<String, ObjectShape> m = new LinkedHashMap<>();
    for (int i = 0; i < tagsAndShapes.length; i += 2) {
      m.put((String) tagsAndShapes[i], (ObjectShape) tagsAndShapes[i + 1]);
    }
    return m;
  }
}
