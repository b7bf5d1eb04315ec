package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.promql.QueryResult;

/**
 * Something that answers PromQL queries: the real Prometheus or our server over HTTP ({@link
 * PrometheusApiTarget}), or our evaluator in process ({@link InProcessTarget}). The differential
 * tests hold every target to the real Prometheus.
 */
public interface QueryTarget {
  /** {@code /api/v1/query} at a time (ms). */
  QueryResult instant(String query, long timeMs) throws Exception;

  /** {@code /api/v1/query_range} (ms). */
  QueryResult range(String query, long startMs, long endMs, long stepMs) throws Exception;
}
