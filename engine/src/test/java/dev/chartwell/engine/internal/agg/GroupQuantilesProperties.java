package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.chartwell.engine.AggFn;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link GroupQuantiles} answers, bucket after bucket with its arrays reused, what a quantile state
 * per group answers for the same values, in ascending group id; and the state it makes of a group
 * holds those values.
 */
class GroupQuantilesProperties {

  @Test
  void eachGroupsQuantileIsThatOfItsOwnState() {
    qt().withExamples(1000)
        .forAll(buckets(), integers().between(1, 60), doubles().between(0, 1), batches())
        .checkAssert(
            (buckets, bound, level, batch) -> {
              GroupQuantiles quantiles = new GroupQuantiles(level, bound);
              for (List<double[]> bucket : buckets) {
                double[] values = new double[bucket.size()];
                int[] ids = new int[bucket.size()];
                int[] rows = new int[bucket.size()];
                Map<Integer, AggState> expected = new TreeMap<>();
                for (int i = 0; i < bucket.size(); i++) {
                  values[i] = bucket.get(i)[1];
                }
                for (int i = 0; i < bucket.size(); i++) {
                  ids[i] = (int) bucket.get(i)[0] % bound;
                  rows[i] = bucket.size() - 1 - i; // rows in any order
                  AggState state =
                      expected.computeIfAbsent(
                          ids[i], g -> AggState.create(AggFn.QUANTILE, level, true));
                  state.addValue(values[rows[i]]);
                }
                DoubleBuffer dense = DoubleBuffer.wrap(values);
                // in batches, as a task adds them (a bucket in one batch is placed at once)
                for (int from = 0; from < ids.length; from += batch) {
                  int n = Math.min(batch, ids.length - from);
                  int[] batchIds = Arrays.copyOfRange(ids, from, from + n);
                  int[] batchRows = Arrays.copyOfRange(rows, from, from + n);
                  quantiles.add(batchIds, dense, batchRows, n, from + n == ids.length);
                }
                int met = quantiles.drain();
                List<Integer> groups = new ArrayList<>(expected.keySet());
                assertEquals(groups.size(), met);
                for (int k = 0; k < met; k++) {
                  assertEquals((int) groups.get(k), quantiles.group(k));
                  assertEquals(
                      expected.get(groups.get(k)).finish(60_000).doubleValue(),
                      quantiles.quantile(k),
                      "group " + groups.get(k) + " at level " + level);
                  assertEquals(
                      expected.get(groups.get(k)).finish(60_000),
                      quantiles.state(k).finish(60_000),
                      "the state of group " + groups.get(k) + " at level " + level);
                }
              }
            });
  }

  /** A few buckets of (group, value) pairs, empty ones among them, values often tied. */
  /** Batch sizes: small ones split a bucket, large ones hold it whole. */
  private static Gen<Integer> batches() {
    return integers()
        .between(1, 2)
        .flatMap(k -> k == 1 ? integers().between(1, 9) : integers().between(10, 400));
  }

  private static Gen<List<List<double[]>>> buckets() {
    Gen<Double> value =
        integers()
            .between(0, 1)
            .flatMap(
                kind ->
                    kind == 0
                        ? integers().between(-3, 3).map(i -> (double) i)
                        : doubles().between(-1e6, 1e6));
    Gen<double[]> pair = integers().between(0, 200).zip(value, (g, v) -> new double[] {g, v});
    return lists().of(lists().of(pair).ofSizeBetween(0, 300)).ofSizeBetween(1, 4);
  }
}
