/**
 * Internal (not part of the API; it changes without notice). Query execution ({@link
 * dev.chartwell.engine.internal.exec.QueryEngine}): one task per (series, segment) on the engine's
 * worker pool, each turning the segment's matching rows into partial states per (bucket, group);
 * partials merge like Lucene's CollectorManager reduce, then rows are rendered with the ratio,
 * ordering and limit rules of the chart API ({@link dev.chartwell.engine.internal.exec.ResultRows},
 * which other backends end with too).
 */
package dev.chartwell.engine.internal.exec;
