package dev.chartwell.server.prometheus;

import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The {@code target_info} series of OTLP metrics, as the OpenTelemetry-to-Prometheus translation
 * defines it: one series per resource that has attributes besides {@code service.name}, {@code
 * service.namespace} and {@code service.instance.id}, labelled with {@code job} and {@code
 * instance} (from those three) and each other resource attribute (under its Prometheus label name),
 * value 1 at each time the resource reported a metric point. It is what {@code * on (job, instance)
 * group_left (k8s_pod_name) target_info} joins against. Rows written by remote write have no
 * resource and give none.
 */
final class TargetInfo {
  static final String NAME = "target_info";
  private static final List<String> SERVICE =
      List.of(
          SeriesLabels.RESOURCE + "service.name",
          SeriesLabels.RESOURCE + "service.namespace",
          SeriesLabels.RESOURCE + "service.instance.id");

  private TargetInfo() {}

  /**
   * Reads the {@code target_info} series that match any selector (all when none), unless every
   * selector names another metric.
   *
   * @param tables the engine source of a metric table, or null when it does not exist
   * @param selectors the selectors
   * @param minTime the earliest time read
   * @param maxTime the latest time read
   * @param sink receives the series and samples
   */
  static void scan(
      Function<OtelTable, Source> tables,
      List<List<LabelMatcher>> selectors,
      long minTime,
      long maxTime,
      OtlpHistograms.Sink sink) {
    if (!wanted(selectors)) {
      return;
    }
    for (OtelTable t : OtelTable.metricTables()) {
      Source source = tables.apply(t);
      if (source == null) {
        continue;
      }
      try (SourceSnapshot snap = Snapshots.of(source)) {
        for (Segment s : snap.segments()) {
          if (s.rows() > 0 && s.maxTimestamp() >= minTime && s.minTimestamp() <= maxTime) {
            scan(s, selectors, minTime, maxTime, sink);
          }
        }
      }
    }
  }

  /** Whether some selector may take {@code target_info}. */
  private static boolean wanted(List<List<LabelMatcher>> selectors) {
    if (selectors.isEmpty()) {
      return true;
    }
    Labels probe = Labels.of(Labels.NAME, NAME);
    for (List<LabelMatcher> selector : selectors) {
      boolean possible = true;
      for (LabelMatcher m : selector) {
        if (m.name().equals(Labels.NAME) && !probe.matches(List.of(m))) {
          possible = false;
        }
      }
      if (possible) {
        return true;
      }
    }
    return false;
  }

  private static void scan(
      Segment segment,
      List<List<LabelMatcher>> selectors,
      long minTime,
      long maxTime,
      OtlpHistograms.Sink sink) {
    List<String> names = new ArrayList<>();
    List<StringColumn> columns = new ArrayList<>();
    boolean others = false;
    for (String name : new TreeSet<>(segment.columns().keySet())) {
      if ((name.startsWith(SeriesLabels.RESOURCE) || name.equals("ScopeName"))
          && segment.column(name) instanceof StringColumn c) {
        names.add(name);
        columns.add(c);
        others |= name.startsWith(SeriesLabels.RESOURCE) && !SERVICE.contains(name);
      }
    }
    if (!others) {
      return;
    }
    int lo = segment.firstRowAtOrAfter(minTime);
    int hi = maxTime == Long.MAX_VALUE ? segment.rows() : segment.firstRowAtOrAfter(maxTime + 1);
    Map<String, Labels> byKey = new HashMap<>();
    StringBuilder key = new StringBuilder();
    for (int row = lo; row < hi; row++) {
      key.setLength(0);
      for (StringColumn c : columns) {
        key.append(c.id(row)).append(',');
      }
      int r = row;
      Labels labels =
          byKey.computeIfAbsent(key.toString(), k -> labels(names, columns, r, selectors));
      if (labels != null) {
        sink.accept(labels, segment.timestamp(row), 1);
      }
    }
  }

  /** The {@code target_info} labels of a row's resource, or null (none, or not selected). */
  private static Labels labels(
      List<String> names, List<StringColumn> columns, int row, List<List<LabelMatcher>> selectors) {
    Map<String, String> text = new HashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).id(row) >= 0) {
        text.put(names.get(i), columns.get(i).get(row));
      }
    }
    if (MetricStore.REMOTE_WRITE_SCOPE.equals(text.get("ScopeName"))) {
      return null;
    }
    Map<String, String> labels = PromNames.otlpLabels(text);
    boolean any = false;
    for (var e : text.entrySet()) {
      String column = e.getKey();
      if (column.startsWith(SeriesLabels.RESOURCE) && !SERVICE.contains(column)) {
        labels.put(PromNames.label(column.substring(SeriesLabels.RESOURCE.length())), e.getValue());
        any = true;
      }
    }
    if (!any) {
      return null;
    }
    labels.put(Labels.NAME, NAME);
    Labels l = Labels.of(labels);
    if (selectors.isEmpty()) {
      return l;
    }
    for (List<LabelMatcher> selector : selectors) {
      if (l.matches(selector)) {
        return l;
      }
    }
    return null;
  }
}
