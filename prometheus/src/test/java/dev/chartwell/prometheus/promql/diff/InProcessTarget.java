package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.SeriesSource;
import dev.chartwell.prometheus.promql.EvalSettings;
import dev.chartwell.prometheus.promql.Evaluator;
import dev.chartwell.prometheus.promql.PromQl;
import dev.chartwell.prometheus.promql.QueryResult;

/** Our evaluator, in this process, over a series source. */
public final class InProcessTarget implements QueryTarget {
  private final Evaluator evaluator;

  /**
   * @param source the series it reads
   */
  public InProcessTarget(SeriesSource source) {
    this.evaluator = new Evaluator(source, EvalSettings.DEFAULTS);
  }

  @Override
  public QueryResult instant(String query, long timeMs) {
    return evaluator.instant(PromQl.parse(query), timeMs);
  }

  @Override
  public QueryResult range(String query, long startMs, long endMs, long stepMs) {
    return evaluator.range(PromQl.parse(query), startMs, endMs, stepMs);
  }
}
