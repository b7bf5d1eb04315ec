/**
 * Internal (not part of the API; it changes without notice). Aggregation: {@link
 * dev.chartwell.engine.internal.agg.AggState} is the mergeable partial state of one function in one
 * (bucket, group); {@link dev.chartwell.engine.internal.agg.ValueReader} reads a field the way
 * aggregates see it, with the block summaries derived from its column ({@code DoubleBlocks}, {@code
 * IdBlocks}) that let an aggregate over a long row range read blocks instead of rows; {@link
 * dev.chartwell.engine.internal.agg.GroupKeys} turns rows into small group ids, converting them to
 * strings once per group and segment. {@link dev.chartwell.engine.internal.agg.GroupQuantiles}
 * answers a grouped exact quantile a bucket at a time, selecting ranks with {@code Selection};
 * {@code Scratch} holds the arrays a thread reuses within one call (decoded ordinals, column
 * chunks, quantile work), so that a query's tasks allocate no large short-lived arrays.
 */
package dev.chartwell.engine.internal.agg;
