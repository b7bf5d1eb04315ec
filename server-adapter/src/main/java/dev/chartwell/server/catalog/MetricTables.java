package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables a metric source reads: one per metric data type ({@code metricTables}), all in the
 * database of its {@code from}. Creating a metric source creates those of its tables that do not
 * exist yet; a table a metric source names is read by it (it cannot be deleted while it is).
 */
public final class MetricTables {
  /**
   * The metric data types of {@code metricTables}, in the order a source's main table is chosen.
   */
  public static final List<String> TYPES =
      List.of("gauge", "sum", "histogram", "summary", "exponential histogram");

  private MetricTables() {}

  /**
   * @param source a source
   * @return the table it names for each metric data type, in {@link #TYPES} order (empty for a
   *     source of another kind)
   */
  public static Map<String, String> named(JsonNode source) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!source.path("kind").asText().equals("metric")) {
      return out;
    }
    for (String type : TYPES) {
      JsonNode t = source.path("metricTables").path(type);
      if (t.isTextual() && !t.textValue().isEmpty()) {
        out.put(type, t.textValue());
      }
    }
    return out;
  }

  /**
   * @param source a source
   * @param table a table
   * @return whether the source is a metric source naming that table
   */
  static boolean reads(JsonNode source, JsonNode table) {
    return source
            .path("from")
            .path("databaseName")
            .asText()
            .equals(table.path("databaseName").asText())
        && named(source).containsValue(table.path("tableName").asText());
  }
}
