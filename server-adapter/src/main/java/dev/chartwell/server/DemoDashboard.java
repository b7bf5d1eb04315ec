package dev.chartwell.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Kind;
import dev.chartwell.server.clickstack.Resources;
import java.io.UncheckedIOException;

/**
 * The demo's dashboard, {@value #NAME}: five tiles over the demo log source, one of each kind a
 * reader meets first (a line chart by service, stacked bars by severity, a number, a pie and a
 * table), laid out on the 24-column grid. Created once; a later start finds it by name.
 */
final class DemoDashboard {
  static final String NAME = "Demo overview";

  private DemoDashboard() {}

  /**
   * @return the id of the demo dashboard, created when the service has none of that name
   */
  static String ensure(
      Resources resources,
      ObjectMapper mapper,
      String serviceId,
      String warehouse,
      Catalog catalog,
      String sourceId) {
    for (ObjectNode d : resources.list(Kind.DASHBOARD, serviceId)) {
      if (d.path("name").asText().equals(NAME)) {
        return d.get("id").asText();
      }
    }
    String s = sourceId;
    String json =
        """
        {"name": "%s", "tags": ["demo"], "tiles": [
          {"name": "Events per service", "x": 0, "y": 0, "w": 16, "h": 8,
           "config": {"displayType": "line", "sourceId": "%s", "groupBy": "ServiceName",
                      "select": [{"aggFn": "count", "where": "", "whereLanguage": "lucene"}]}},
          {"name": "p95 duration", "x": 16, "y": 0, "w": 8, "h": 8,
           "config": {"displayType": "number", "sourceId": "%s",
                      "numberFormat": {"output": "duration", "factor": 0.001, "mantissa": 1},
                      "select": [{"aggFn": "quantile", "level": 0.95, "valueExpression": "Duration",
                                  "where": "", "whereLanguage": "lucene"}]}},
          {"name": "Events by severity", "x": 0, "y": 8, "w": 12, "h": 8,
           "config": {"displayType": "stacked_bar", "sourceId": "%s", "groupBy": "SeverityText",
                      "select": [{"aggFn": "count", "where": "", "whereLanguage": "lucene"}]}},
          {"name": "Errors by service", "x": 12, "y": 8, "w": 12, "h": 8,
           "config": {"displayType": "pie", "sourceId": "%s", "groupBy": "ServiceName",
                      "select": [{"aggFn": "count", "where": "SeverityText:error",
                                  "whereLanguage": "lucene"}]}},
          {"name": "Latency by route", "x": 0, "y": 16, "w": 24, "h": 5,
           "config": {"displayType": "table", "sourceId": "%s", "groupBy": "LogAttributes.http.route",
                      "select": [
                        {"aggFn": "count", "alias": "requests", "where": "", "whereLanguage": "lucene"},
                        {"aggFn": "avg", "alias": "avg ms", "valueExpression": "Duration",
                         "where": "", "whereLanguage": "lucene"},
                        {"aggFn": "quantile", "level": 0.99, "alias": "p99 ms",
                         "valueExpression": "Duration", "where": "", "whereLanguage": "lucene"}]}}
        ]}
        """
            .formatted(NAME, s, s, s, s, s);
    try {
      ObjectNode body = (ObjectNode) mapper.readTree(json);
      return resources
          .put(
              Kind.DASHBOARD,
              serviceId,
              null,
              body,
              src -> catalog.warehouseOf(src).filter(warehouse::equals).isPresent())
          .get("id")
          .asText();
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("the demo dashboard's own definition does not parse", e);
    }
  }
}
