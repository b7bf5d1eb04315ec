package dev.chartwell.server.alerts;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.internal.query.Backend;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A window's values, per group, from one engine query through the engine's normal admission (so
 * that alerts wait their turn like any chart query and never hold up others).
 */
final class WindowQuery {
  private WindowQuery() {}

  /**
   * Runs the target's series over the window as one bucket: a bucket length equal to the window's
   * end puts every timestamp of {@code [0, end)} into the bucket starting at 0, whatever the
   * window's alignment (offsets and {@code scheduleStartAt} shift windows off the UTC grid the
   * engine's named granularities follow).
   *
   * @param engine the backend of the target's sources (the engine, or an external ClickHouse)
   * @param target what to compute
   * @param w the window
   * @param timeout how long the query may run
   * @return each group's value ({@link #groupKey}); a group whose series had no value is left out
   */
  static Map<String, Double> values(
      Backend engine, AlertSpec.Target target, Window w, Duration timeout) {
    ChartQuery q =
        new ChartQuery(
            w.start(),
            w.end() - 1,
            new Granularity("window", w.end()),
            target.series(),
            target.returnType());
    ChartResult r = engine.query(q, QueryOptions.DEFAULT.withTimeout(timeout));
    Map<String, Double> out = new LinkedHashMap<>();
    for (ChartResult.Row row : r.rows()) {
      Number v = row.values().get(row.values().size() - 1);
      if (v != null && Double.isFinite(v.doubleValue())) {
        out.put(groupKey(target.groupBy(), row.group()), v.doubleValue());
      }
    }
    return out;
  }

  /**
   * @param fields the group-by fields
   * @param values one group's values
   * @return how notifications name the group, as HyperDX does: {@code ServiceName:checkout}, more
   *     fields joined with {@code ", "}; {@code ""} without groups
   */
  static String groupKey(List<String> fields, List<String> values) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(fields.get(i)).append(':').append(i < values.size() ? values.get(i) : "");
    }
    return sb.toString();
  }
}
