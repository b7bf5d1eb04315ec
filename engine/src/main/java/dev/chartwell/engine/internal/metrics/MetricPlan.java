package dev.chartwell.engine.internal.metrics;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.filter.Filter;
import java.util.List;

/**
 * One metric series, resolved and compiled.
 *
 * @param metric the metric and its type
 * @param fn the aggregation across time series
 * @param level the quantile level (for quantiles)
 * @param groupBy group-by fields
 * @param filter the series' where, together with the metric's name
 * @param granularity bucket length
 * @param startTime inclusive range start
 * @param endTime inclusive range end
 * @param useIndexes whether the filter may use indexes
 * @param control the query's control
 */
public record MetricPlan(
    MetricSpec metric,
    AggFn fn,
    double level,
    List<String> groupBy,
    Filter filter,
    Granularity granularity,
    long startTime,
    long endTime,
    boolean useIndexes,
    QueryControl control) {

  /**
   * Counters and histograms read one bucket before the range too, so that the first point in the
   * range has a predecessor to subtract (as HyperDX does).
   *
   * @return the first timestamp read
   */
  long readFrom() {
    long back = metric.type() == dev.chartwell.engine.MetricType.GAUGE ? 0 : granularity.millis();
    return startTime - back;
  }
}
