package dev.chartwell.server.catalog;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.bool;
import static dev.chartwell.server.validation.FieldType.dateTime;
import static dev.chartwell.server.validation.FieldType.expression;
import static dev.chartwell.server.validation.FieldType.integer;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.FieldType.tagged;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.FieldType;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of a ClickStack source of each kind ({@code log}, {@code trace}, {@code metric}, {@code
 * session}), as the ClickHouse Cloud document declares it, the other sources a source may name, and
 * the defaults Chartwell fills in for the fields the document requires in answers but a client may
 * leave out (the OpenTelemetry column names ClickStack itself defaults to). Fields Chartwell does
 * not use to query (query settings, materialized views, highlighted attributes, filter settings)
 * are checked and kept as given.
 */
final class SourceRules {
  /** The source kinds Chartwell serves ({@code promql} needs a Prometheus connection). */
  static final List<String> KINDS = List.of("log", "trace", "metric", "session");

  private static final FieldType EXPR = nullable(expression());
  private static final FieldType SOURCE_ID = nullable(string());
  private static final ObjectShape FROM =
      ObjectShape.of(required("databaseName", name()), required("tableName", name()));
  private static final ObjectShape METRIC_FROM =
      ObjectShape.of(required("databaseName", name()), optional("tableName", nullable(name())));
  private static final ObjectShape QUERY_SETTING =
      ObjectShape.of(required("setting", string()), required("value", string()));
  private static final ObjectShape HIGHLIGHT =
      ObjectShape.of(
          required("sqlExpression", expression()),
          optional("luceneExpression", EXPR),
          optional("alias", nullable(string())));
  private static final ObjectShape FILTER_SETTINGS =
      ObjectShape.of(
          required("databaseName", name()),
          required("tableName", name()),
          required(
              "columns",
              arrayOf(
                  object(
                      ObjectShape.of(required("name", expression()), required("label", string()))),
                  10)));
  private static final ObjectShape MATERIALIZED_VIEW =
      ObjectShape.of(
          required("databaseName", name()),
          required("tableName", name()),
          required("dimensionColumns", string()),
          required("minGranularity", string()),
          optional("minDate", nullable(dateTime())),
          required("timestampColumn", expression()),
          required(
              "aggregatedColumns",
              arrayOf(
                  object(
                      ObjectShape.of(
                          optional("sourceColumn", EXPR),
                          required("aggFn", string()),
                          required("mvColumn", string()))))));
  private static final ObjectShape METADATA_VIEWS =
      ObjectShape.of(
          optional("keyRollupTable", string()),
          optional("kvRollupTable", string()),
          optional("granularity", string()));

  private static final ObjectShape COMMON =
      ObjectShape.of(
          optional("id", string()),
          required("name", name()),
          optional("section", string()),
          optional("disabled", nullable(bool())),
          required("kind", oneOf(KINDS)),
          optional("connection", string()),
          optional("from", object(FROM)),
          optional("querySettings", arrayOf(object(QUERY_SETTING))));

  /** What log and trace sources share. */
  private static final ObjectShape SEARCHABLE =
      COMMON.with(
          optional("filterSettings", nullable(object(FILTER_SETTINGS))),
          optional("defaultTableSelectExpression", string()),
          optional("timestampValueExpression", expression()),
          optional("serviceNameExpression", EXPR),
          optional("eventAttributesExpression", EXPR),
          optional("resourceAttributesExpression", EXPR),
          optional("metricSourceId", SOURCE_ID),
          optional("serviceVersionExpression", EXPR),
          optional("traceIdExpression", EXPR),
          optional("spanIdExpression", EXPR),
          optional("implicitColumnExpression", EXPR),
          optional("knownColumnsListExpression", EXPR),
          optional("useTextIndexForImplicitColumn", nullable(oneOf("auto", "enabled", "disabled"))),
          optional("highlightedTraceAttributeExpressions", arrayOf(object(HIGHLIGHT))),
          optional("highlightedRowAttributeExpressions", arrayOf(object(HIGHLIGHT))),
          optional("materializedViews", arrayOf(object(MATERIALIZED_VIEW))),
          optional("metadataMaterializedViews", nullable(object(METADATA_VIEWS))));

  private static final ObjectShape LOG =
      SEARCHABLE.with(
          optional("severityTextExpression", EXPR),
          optional("bodyExpression", EXPR),
          optional("displayedTimestampValueExpression", EXPR),
          optional("traceSourceId", SOURCE_ID));

  private static final ObjectShape TRACE =
      SEARCHABLE.with(
          optional("durationExpression", expression()),
          optional("durationPrecision", integer(0, 9)),
          optional("traceIdExpression", expression()),
          optional("spanIdExpression", expression()),
          optional("parentSpanIdExpression", expression()),
          optional("spanNameExpression", expression()),
          optional("spanKindExpression", expression()),
          optional("logSourceId", SOURCE_ID),
          optional("sessionSourceId", SOURCE_ID),
          optional("statusCodeExpression", EXPR),
          optional("statusMessageExpression", EXPR),
          optional("spanEventsValueExpression", EXPR));

  private static final ObjectShape METRIC =
      COMMON.with(
          optional("from", object(METRIC_FROM)),
          optional(
              "metricTables",
              object(
                  ObjectShape.of(
                      optional("gauge", name()),
                      optional("histogram", name()),
                      optional("sum", name()),
                      optional("summary", name()),
                      optional("exponential histogram", name())))),
          optional("timestampValueExpression", expression()),
          optional("resourceAttributesExpression", expression()),
          optional("logSourceId", SOURCE_ID));

  private static final ObjectShape SESSION =
      COMMON.with(optional("timestampValueExpression", EXPR), required("traceSourceId", string()));

  private static final Map<String, ObjectShape> KIND_SHAPES = new LinkedHashMap<>();
  private static final FieldType SOURCE;

  static {
    KIND_SHAPES.put("log", LOG);
    KIND_SHAPES.put("trace", TRACE);
    KIND_SHAPES.put("metric", METRIC);
    KIND_SHAPES.put("session", SESSION);
    SOURCE = tagged("kind", KIND_SHAPES);
  }

  /** The defaults of the fields a kind's answer requires, ClickStack's OpenTelemetry names. */
  private static final Map<String, Map<String, Object>> DEFAULTS =
      Map.of(
          "log",
          Map.of("timestampValueExpression", "Timestamp", "bodyExpression", "Body"),
          "trace",
          Map.of(
              "timestampValueExpression", "Timestamp",
              "durationExpression", "Duration",
              "durationPrecision", 9,
              "traceIdExpression", "TraceId",
              "spanIdExpression", "SpanId",
              "parentSpanIdExpression", "ParentSpanId",
              "spanNameExpression", "SpanName",
              "spanKindExpression", "SpanKind"),
          "metric",
          Map.of(
              "timestampValueExpression", "TimeUnix",
              "resourceAttributesExpression", "ResourceAttributes"),
          "session",
          Map.of("timestampValueExpression", "Timestamp"));

  /** The expressions whose empty value means their default. */
  private static final List<String> DEFAULTED =
      List.of("timestampValueExpression", "bodyExpression", "implicitColumnExpression");

  private SourceRules() {}

  /**
   * Checks a source body against its kind's shape and its connection. An {@code id} in the body is
   * ignored, as the document says.
   *
   * @param body the request body (changed in place)
   * @param problems where problems go
   */
  static void check(ObjectNode body, Problems problems) {
    body.remove("id");
    if (body.path("kind").asText().equals("promql")) {
      problems.add("kind", "promql sources need a Prometheus connection, and a service has none");
      return;
    }
    if (body.path("kind").asText().equals("metric")
        && body.path("from") instanceof ObjectNode from
        && from.path("tableName").asText("x").isEmpty()) {
      from.remove("tableName"); // a metric source reads its metricTables; "" names no table
    }
    SOURCE.check(body, "", problems);
    for (String f : DEFAULTED) {
      if (body.path(f).isTextual() && body.get(f).textValue().isEmpty()) {
        body.remove(f); // empty means "use the default"
      }
    }
    if (problems.isEmpty()) {
      body.put("connection", body.path("connection").asText(Connections.BUILT_IN));
    }
  }

  /**
   * Brings a source stored by an earlier version to its kind's shape: fields the kind does not have
   * (earlier versions wrote {@code bodyExpression: null} on every source) and {@code null}s where
   * the shape allows none are removed.
   *
   * @param source the stored source (changed in place)
   */
  static void dropForeignFields(ObjectNode source) {
    ObjectShape shape = KIND_SHAPES.getOrDefault(source.path("kind").asText(), LOG);
    source.retain(shape.fieldNames());
    shape.check(source, "", new Problems());
  }

  /**
   * Fills the fields the document requires in answers but a client may leave out. A log source that
   * creates its table searches its body when it names no implicit column.
   *
   * @param source a checked source, bound to its table (changed in place)
   * @param createsTable whether no table of that name exists yet
   */
  static void fillDefaults(ObjectNode source, boolean createsTable) {
    String kind = source.get("kind").textValue();
    DEFAULTS
        .get(kind)
        .forEach(
            (field, value) -> {
              if (!source.hasNonNull(field) && value instanceof Integer i) {
                source.put(field, i);
              } else if (!source.hasNonNull(field)) {
                source.put(field, (String) value);
              }
            });
    if (createsTable && kind.equals("log") && !source.hasNonNull("implicitColumnExpression")) {
      source.put("implicitColumnExpression", source.get("bodyExpression").textValue());
    }
    if (kind.equals("metric") && !source.has("metricTables")) {
      ObjectNode tables = source.putObject("metricTables");
      tables.put("gauge", "otel_metrics_gauge");
      tables.put("histogram", "otel_metrics_histogram");
      tables.put("sum", "otel_metrics_sum");
    }
    if ((kind.equals("log") || kind.equals("trace"))
        && !source.hasNonNull("defaultTableSelectExpression")) {
      source.put("defaultTableSelectExpression", defaultSelect(source));
    }
  }

  /**
   * @param kind a source kind
   * @return the fields of such a source that name another source, each with the kind that source
   *     must be
   */
  static Map<String, String> references(String kind) {
    return switch (kind) {
      case "log" -> Map.of("metricSourceId", "metric", "traceSourceId", "trace");
      case "trace" ->
          Map.of("logSourceId", "log", "sessionSourceId", "session", "metricSourceId", "metric");
      case "metric" -> Map.of("logSourceId", "log");
      default -> Map.of("traceSourceId", "trace");
    };
  }

  /**
   * @param source a checked source
   * @return the table it reads: {@code from.tableName}, or for a metric source without one its
   *     first metric table
   */
  static String tableName(ObjectNode source) {
    String name = source.path("from").path("tableName").asText(null);
    if (name != null) {
      return name;
    }
    for (String t : List.of("gauge", "sum", "histogram", "summary", "exponential histogram")) {
      if (source.path("metricTables").hasNonNull(t)) {
        return source.path("metricTables").get(t).asText();
      }
    }
    return null;
  }

  /**
   * The columns a source shows in search results when it does not say ({@code
   * defaultTableSelectExpression}, which the document requires of logs and traces): its time,
   * service, severity or span name, and message.
   *
   * @param source a checked source
   * @return the expression
   */
  private static String defaultSelect(ObjectNode source) {
    StringBuilder sb = new StringBuilder();
    for (String f :
        List.of(
            "timestampValueExpression",
            "serviceNameExpression",
            "severityTextExpression",
            "spanNameExpression",
            "bodyExpression")) {
      if (source.path(f).isTextual() && !source.get(f).textValue().isEmpty()) {
        sb.append(sb.length() == 0 ? "" : ", ").append(source.get(f).textValue());
      }
    }
    return sb.toString();
  }
}
