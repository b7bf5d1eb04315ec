package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.promql.QueryResult;

/**
 * Something that answers PromQL queries: the real Prometheus over HTTP, our evaluator in process,
 * or (later) our server's HTTP API. The differential test runs the same queries through two.
 */
public interface QueryTarget {
  /** {@code /api/v1/query} at a time (ms). */
  QueryResult instant(String query, long timeMs) throws Exception;

  /** {@code /api/v1/query_range} (ms). */
  QueryResult range(String query, long startMs, long endMs, long stepMs) throws Exception;
}
