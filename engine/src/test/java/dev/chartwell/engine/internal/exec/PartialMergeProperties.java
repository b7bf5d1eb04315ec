package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.agg.AggState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

/**
 * {@link PartialMerge#series} against a direct computation: every key of every task once, in result
 * order, its states merged in task order. Tasks are drawn in time order touching at their ends (the
 * merge path), overlapping much of what came before (the sort it falls back to), and mixed.
 */
class PartialMergeProperties {
  private static final List<List<String>> GROUPS =
      List.of(List.of(), List.of("a"), List.of("b"), List.of("b", "x"), List.of("c"));

  @Test
  void mergesEveryKeyOnceInOrderWithStatesInTaskOrder() {
    qt().withExamples(500).forAll(seeds()).checkAssert(PartialMergeProperties::check);
  }

  private static Gen<Long> seeds() {
    return SourceDSL.longs().all();
  }

  private static void check(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int taskCount = random.nextInt(12);
    int mode = random.nextInt(3); // 0: in time order, 1: anywhere, 2: in order with strays
    List<List<Partial>> tasks = new ArrayList<>();
    TreeMap<ResultRows.Key, Double> expected = new TreeMap<>(ResultRows.Key.ORDER);
    Map<ResultRows.Key, Partial> first = new TreeMap<>(ResultRows.Key.ORDER);
    long start = 0;
    for (int t = 0; t < taskCount; t++) {
      int buckets = random.nextInt(mode == 1 ? 3000 : 40);
      long from =
          switch (mode) {
            case 0 -> start - random.nextInt(3);
            case 1 -> random.nextInt(50);
            default ->
                random.nextInt(8) == 0 ? random.nextInt(Math.max(1, (int) start + 1)) : start;
          };
      TreeMap<ResultRows.Key, Partial> task = new TreeMap<>(ResultRows.Key.ORDER);
      for (int b = 0; b < buckets; b++) {
        for (List<String> g : GROUPS) {
          if (random.nextInt(3) > 0) {
            ResultRows.Key key = new ResultRows.Key(from + b, g);
            AggState sum = AggState.create(AggFn.SUM, 0, true);
            sum.addValue(Math.scalb(1.0, t));
            Partial p = new Partial(key.bucket(), key.group(), sum);
            task.put(key, p);
            expected.merge(key, Math.scalb(1.0, t), Double::sum);
            first.putIfAbsent(key, p);
          }
        }
      }
      start = Math.max(start, from + buckets);
      tasks.add(new ArrayList<>(task.values()));
    }

    List<Partial> merged = PartialMerge.series(tasks, new QueryControl());

    Map<ResultRows.Key, Double> actual = new TreeMap<>(ResultRows.Key.ORDER);
    List<ResultRows.Key> order = new ArrayList<>();
    for (Partial p : merged) {
      ResultRows.Key key = new ResultRows.Key(p.bucket(), p.group());
      order.add(key);
      actual.put(key, p.state().finish(1).doubleValue());
      assertSame(first.get(key), p, "merged into the first task's partial");
    }
    assertEquals(new ArrayList<>(expected.keySet()), order, "every key once, in result order");
    assertEquals(expected, actual, "every task's state merged once");
  }
}
