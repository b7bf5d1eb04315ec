package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.internal.agg.AggState;
import java.util.List;

/**
 * What one segment contributes to one (bucket, group) of a series.
 *
 * @param bucket bucket start
 * @param group group values
 * @param state the partial aggregation
 */
record Partial(long bucket, List<String> group, AggState state) {}
