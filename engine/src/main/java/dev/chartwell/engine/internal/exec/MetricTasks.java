package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.internal.agg.FixedState;
import dev.chartwell.engine.internal.metrics.MetricPlan;
import dev.chartwell.engine.internal.metrics.MetricSeries;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.parser.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The planning of a metric series for {@link QueryEngine}: its where narrowed to the metric's
 * points, and the one task that reads all its segments (a metric needs each time series' points in
 * time order across segments) and hands back partials in result order like a segment task. Kept
 * apart from the engine so that it reads as admission, per-segment planning and merging.
 */
final class MetricTasks {
  private MetricTasks() {}

  /** The points of a metric: the series' where, and the metric's name. */
  static Expr metricPoints(Expr where, MetricSpec metric) {
    Expr name =
        new Expr.Compare(Expr.Operand.of(MetricSpec.NAME_COLUMN), Expr.CompareOp.EQ, metric.name());
    return Expr.and(List.of(name, where));
  }

  static Callable<List<Partial>> metricTask(
      SeriesPlan p, MetricSpec metric, List<Segment> segments) {
    MetricPlan plan =
        new MetricPlan(
            metric,
            p.fn(),
            p.level(),
            p.groupBy(),
            p.filter(),
            p.granularity(),
            p.startTime(),
            p.endTime(),
            p.useIndexes(),
            p.control());
    return () -> {
      List<Partial> out = new ArrayList<>();
      for (MetricSeries.Row r : MetricSeries.compute(plan, segments)) {
        out.add(new Partial(r.bucket(), r.group(), FixedState.of(r.value())));
      }
      out.sort(PartialMerge::compare); // in result order, as PartialMerge expects of every task
      return out;
    };
  }
}
