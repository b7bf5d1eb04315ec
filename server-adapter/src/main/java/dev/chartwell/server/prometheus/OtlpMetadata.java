package dev.chartwell.server.prometheus;

import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.remote.RemoteWrite;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * The metadata {@code /api/v1/metadata} reports for OTLP metrics, under the family names their
 * series have ({@link PromNames}, {@link OtlpHistograms}): a gauge or non-monotonic sum is a {@code
 * gauge}, a monotonic cumulative sum a {@code counter} (named with {@code _total}), a histogram a
 * {@code histogram}, a summary a {@code summary}; the help is the metric's description, the unit
 * its Prometheus unit word. Delta metrics, which are not served, have none. Read from one point of
 * each metric name per segment.
 */
final class OtlpMetadata {
  private static final int DELTA = 1;

  private OtlpMetadata() {}

  /**
   * @param tables the engine source of a metric table, or null when it does not exist
   * @return the OTLP families by name
   */
  static Map<String, RemoteWrite.Metadata> families(Function<OtelTable, Source> tables) {
    Map<String, RemoteWrite.Metadata> out = new TreeMap<>();
    for (OtelTable t :
        List.of(OtelTable.GAUGE, OtelTable.SUM, OtelTable.HISTOGRAM, OtelTable.SUMMARY)) {
      Source source = tables.apply(t);
      if (source == null) {
        continue;
      }
      try (SourceSnapshot snap = Snapshots.of(source)) {
        for (Segment s : snap.segments()) {
          if (s.rows() > 0) {
            read(t, s, out);
          }
        }
      }
    }
    return out;
  }

  private static void read(OtelTable table, Segment s, Map<String, RemoteWrite.Metadata> out) {
    if (!(s.column("MetricName") instanceof StringColumn names)) {
      return;
    }
    StringColumn scope = s.column("ScopeName") instanceof StringColumn c ? c : null;
    int remote = -1;
    if (scope != null) {
      for (int id = 0; id < scope.dictionary().size(); id++) {
        if (MetricStore.REMOTE_WRITE_SCOPE.equals(scope.dictionary().get(id))) {
          remote = id;
        }
      }
    }
    StringColumn units = s.column("MetricUnit") instanceof StringColumn c ? c : null;
    StringColumn help = s.column("MetricDescription") instanceof StringColumn c ? c : null;
    BoolColumn monotonic = s.column("IsMonotonic") instanceof BoolColumn b ? b : null;
    LongColumn temporality = s.column("AggregationTemporality") instanceof LongColumn l ? l : null;
    for (int id = 0; id < names.dictionary().size(); id++) {
      MutableRoaringBitmap rows = names.rows(id).toMutableRoaringBitmap();
      if (remote >= 0) {
        rows.andNot(scope.rows(remote));
      }
      if (rows.isEmpty()) {
        continue;
      }
      int row = rows.first();
      if (table != OtelTable.GAUGE
          && table != OtelTable.SUMMARY
          && temporality != null
          && temporality.isPresent(row)
          && temporality.get(row) == DELTA) {
        continue;
      }
      String unit = units == null || units.get(row) == null ? "" : units.get(row);
      boolean counter =
          table == OtelTable.SUM
              && monotonic != null
              && monotonic.isPresent(row)
              && monotonic.get(row);
      RemoteWrite.MetricType type =
          switch (table) {
            case HISTOGRAM -> RemoteWrite.MetricType.HISTOGRAM;
            case SUMMARY -> RemoteWrite.MetricType.SUMMARY;
            default -> counter ? RemoteWrite.MetricType.COUNTER : RemoteWrite.MetricType.GAUGE;
          };
      boolean gauge = table == OtelTable.GAUGE;
      String family = PromNames.metric(names.dictionary().get(id), unit, gauge, counter);
      String description = help == null || help.get(row) == null ? "" : help.get(row);
      out.putIfAbsent(
          family,
          new RemoteWrite.Metadata(type, family, description, PromNames.unitSuffix(unit, gauge)));
    }
  }
}
