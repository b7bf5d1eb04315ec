package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.query.Series;
import dev.chartwell.engine.source.Source;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WherePrinter;
import dev.chartwell.parser.WhereSyntaxException;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.ApiException;
import java.util.List;

/**
 * The metric fields of a chart series, as HyperDX reads them on a metric source: {@code
 * metricDataType} picks the table of that kind from the source's {@code metricTables} (without it,
 * the source's own table, its first metric table), and {@code metricName} keeps the rows of that
 * metric ({@code MetricName = name}, together with the series' {@code where}). On sources of other
 * kinds both are ignored.
 */
final class MetricSeries {
  /** The kinds of metric data, as keys of a metric source's {@code metricTables}. */
  static final List<String> DATA_TYPES =
      List.of("sum", "gauge", "histogram", "summary", "exponential histogram");

  private MetricSeries() {}

  /**
   * Checks the types of a series' metric fields.
   *
   * @param series the series as sent
   * @param path its path
   * @param problems where problems go
   */
  static void check(JsonNode series, String path, List<String> problems) {
    JsonNode type = series.get("metricDataType");
    if (type != null && !type.isNull() && !DATA_TYPES.contains(type.asText(""))) {
      problems.add(path + ".metricDataType: must be one of " + String.join(", ", DATA_TYPES));
    }
    JsonNode name = series.get("metricName");
    if (name != null && !name.isNull() && !name.isTextual()) {
      problems.add(path + ".metricName: must be a string");
    }
  }

  /**
   * @param s the series, reading its source's own table
   * @param sent the series as sent
   * @param path its path, for messages
   * @param catalog the sources and tables
   * @param warehouse the warehouse of the caller
   * @return the series reading the table and rows its metric fields name
   */
  static Series resolve(Series s, JsonNode sent, String path, Catalog catalog, String warehouse) {
    ObjectNode source = catalog.source(warehouse, sent.get("sourceId").asText());
    if (!source.path("kind").asText().equals("metric")) {
      return s;
    }
    String table = s.sourceId();
    String type = sent.path("metricDataType").textValue();
    if (type != null) {
      String name = source.path("metricTables").path(type).textValue();
      if (name == null) {
        throw ApiException.badRequest(
            path
                + ".metricDataType: source "
                + source.get("id").asText()
                + " has no "
                + type
                + " table");
      }
      String database = source.path("from").path("databaseName").asText(Catalog.DEFAULT_DATABASE);
      table =
          catalog
              .engineTable(warehouse, database, name)
              .map(Source::id)
              .orElseThrow(
                  () ->
                      ApiException.notFound(
                          path
                              + ".metricDataType: the "
                              + type
                              + " table "
                              + database
                              + "."
                              + name
                              + " does not exist"));
    }
    String where = s.where();
    WhereLanguage language = s.whereLanguage() == null ? WhereLanguage.LUCENE : s.whereLanguage();
    String metric = sent.path("metricName").textValue();
    if (metric != null && !metric.isEmpty()) {
      Expr asked;
      try {
        asked = WhereParser.parse(where, language);
      } catch (WhereSyntaxException e) {
        throw ApiException.badRequest(path + ".where: " + e.getMessage());
      }
      Expr named = new Expr.Compare(Expr.Operand.of("MetricName"), Expr.CompareOp.EQ, metric);
      Expr both = asked instanceof Expr.MatchAll ? named : new Expr.And(List.of(named, asked));
      if (!WherePrinter.canPrint(both, language)) {
        language = language == WhereLanguage.SQL ? WhereLanguage.LUCENE : WhereLanguage.SQL;
      }
      where = WherePrinter.print(both, language);
    }
    return new Series(table, s.aggFn(), s.field(), s.level(), where, language, s.groupBy());
  }
}
