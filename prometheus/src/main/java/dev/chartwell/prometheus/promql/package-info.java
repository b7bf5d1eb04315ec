/**
 * PromQL for Chartwell: {@link dev.chartwell.prometheus.promql.PromQl#parse(String)} turns a query
 * into an immutable {@link dev.chartwell.prometheus.promql.Expr} tree (ANTLR grammar, Prometheus
 * 2.42's precedence and literals); {@link dev.chartwell.prometheus.promql.Evaluator} evaluates it
 * over any {@link dev.chartwell.prometheus.SeriesSource} as an instant or a range query, answering
 * a {@link dev.chartwell.prometheus.promql.QueryResult}. Errors are {@link
 * dev.chartwell.prometheus.promql.PromQlException}s classified as Prometheus' API does.
 */
package dev.chartwell.prometheus.promql;
