package dev.chartwell.server.prometheus;

import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.Labels;
import java.util.HashMap;
import java.util.Map;

/**
 * Which columns of a metric table tell its series apart, and the Prometheus labels of a series from
 * their values. Rows written by remote write ({@link MetricStore#REMOTE_WRITE_SCOPE}) keep their
 * names and labels; OTLP rows are translated ({@link PromNames}): attributes become labels, the
 * resource's {@code service.namespace}/{@code service.name} becomes {@code job} and {@code
 * service.instance.id} {@code instance}; delta sums have no labels (they are left out, as
 * Prometheus' OTLP receiver drops them).
 */
final class SeriesLabels {
  static final String ATTRIBUTES = "Attributes.";
  static final String RESOURCE = "ResourceAttributes.";

  /** The {@code AggregationTemporality} of a delta sum. */
  static final int DELTA = 1;

  private SeriesLabels() {}

  /**
   * @param column a column of a metric table
   * @return whether it is part of a series' identity (besides {@code IsMonotonic} and {@code
   *     AggregationTemporality}, which are not strings)
   */
  static boolean identity(String column) {
    return PromNames.otlpIdentity(column);
  }

  /**
   * @param text the series' identity columns that have a value, by column name
   * @return whether remote write stored the series
   */
  static boolean remote(Map<String, String> text) {
    return MetricStore.REMOTE_WRITE_SCOPE.equals(text.get("ScopeName"));
  }

  /**
   * A series' labels; null for a series Prometheus would not show.
   *
   * @param table its table
   * @param text its identity columns that have a value, by column name
   * @param monotonic its {@code IsMonotonic}: 1 true, 0 false, -1 absent
   * @param temporality its {@code AggregationTemporality}, or -1 when absent
   * @return the labels, or {@code null}
   */
  static Labels of(OtelTable table, Map<String, String> text, int monotonic, long temporality) {
    String metric = text.getOrDefault("MetricName", "");
    if (metric.isEmpty()) {
      return null;
    }
    boolean remote = remote(text);
    if (!remote && temporality == DELTA) {
      return null;
    }
    if (remote) {
      Map<String, String> labels = new HashMap<>();
      text.forEach(
          (column, value) -> {
            if (column.startsWith(ATTRIBUTES)) {
              labels.put(column.substring(ATTRIBUTES.length()), value);
            }
          });
      labels.put(Labels.NAME, metric);
      return Labels.of(labels);
    }
    Map<String, String> labels = PromNames.otlpLabels(text);
    boolean counter = table == OtelTable.SUM && monotonic == 1;
    labels.put(
        Labels.NAME,
        PromNames.metric(
            metric, text.getOrDefault("MetricUnit", ""), table == OtelTable.GAUGE, counter));
    return Labels.of(labels);
  }
}
