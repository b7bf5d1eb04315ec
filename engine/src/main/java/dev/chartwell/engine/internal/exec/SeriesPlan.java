package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.filter.Filter;
import java.util.List;

/**
 * One series, resolved and compiled: what each segment task needs.
 *
 * @param fn aggregation
 * @param level quantile level
 * @param field aggregated field or {@code null}
 * @param groupBy group-by fields
 * @param filter compiled where
 * @param granularity bucket length
 * @param startTime inclusive range start
 * @param endTime inclusive range end
 * @param useIndexes whether indexes may be used
 * @param control the query's cancellation and memory budget
 */
record SeriesPlan(
    AggFn fn,
    double level,
    String field,
    List<String> groupBy,
    Filter filter,
    Granularity granularity,
    long startTime,
    long endTime,
    boolean useIndexes,
    QueryControl control) {

  /** Counts without field or groups: answered from bitmap cardinalities, never reading values. */
  boolean countsOnly() {
    return fn.isCount() && field == null && groupBy.isEmpty();
  }
}
