/**
 * The chart query model: {@link dev.chartwell.engine.query.ChartQuery} with up to five {@link
 * dev.chartwell.engine.query.Series}, {@link dev.chartwell.engine.query.Granularity} (including
 * auto), {@link dev.chartwell.engine.query.AggFn}, and the {@link
 * dev.chartwell.engine.query.ChartResult}. Invalid queries raise {@link
 * dev.chartwell.engine.query.QueryValidationException} naming the field path.
 */
package dev.chartwell.engine.query;
