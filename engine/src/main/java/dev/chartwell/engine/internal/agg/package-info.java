/**
 * Internal (not part of the API; it changes without notice). Aggregation: {@link
 * dev.chartwell.engine.internal.agg.AggState} is the mergeable partial state of one function in one
 * (bucket, group); {@link dev.chartwell.engine.internal.agg.ValueReader} reads a field the way
 * aggregates see it, with the block summaries derived from its column ({@code DoubleBlocks}, {@code
 * IdBlocks}) that let an aggregate over a long row range read blocks instead of rows; {@link
 * dev.chartwell.engine.internal.agg.GroupKeys} turns rows into small group ids, converting them to
 * strings once per group and segment.
 */
package dev.chartwell.engine.internal.agg;
