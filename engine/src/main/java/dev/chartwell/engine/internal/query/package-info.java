/**
 * The chart query model: {@link dev.chartwell.engine.ChartQuery} with up to five {@link
 * dev.chartwell.engine.Series}, {@link dev.chartwell.engine.Granularity} (including auto), {@link
 * dev.chartwell.engine.AggFn}, and the {@link dev.chartwell.engine.ChartResult}. Invalid queries
 * raise {@link dev.chartwell.engine.InvalidQueryException} naming the field path.
 */
package dev.chartwell.engine.internal.query;
