package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Every way {@link Selection} finds a quantile (the largest or smallest few kept in one pass, or
 * quickselect) answers what sorting the values answers, to the bit.
 */
class SelectionProperties {

  @Test
  void quantileEqualsTheSortedReference() {
    qt().withExamples(3000)
        .forAll(values(), levels(), integers().between(0, 3))
        .checkAssert(
            (list, level, order) -> {
              double[] a = arranged(list, order);
              double expected = sortedQuantile(a.clone(), level);
              assertEquals(
                  expected,
                  Selection.quantile(a, a.length, level),
                  () -> "level " + level + " of " + Arrays.toString(arranged(list, order)));
            });
  }

  @Test
  void aHighRankAmongManyValuesEqualsTheSortedReference() {
    // thousands of values and p90 to p99.9: the ranks are selected among the values at or above
    // the bound of the blocks' maxima
    qt().withExamples(300)
        .forAll(values(500, 4000), integers().between(900, 999), integers().between(0, 3))
        .checkAssert(
            (list, permille, order) -> {
              double[] a = arranged(list, order);
              double level = permille / 1000.0;
              assertEquals(
                  sortedQuantile(a.clone(), level),
                  Selection.quantile(a, a.length, level),
                  () -> "level " + level + " of " + list.size() + " values, order " + order);
            });
  }

  @Test
  void aSliceIsAnsweredAloneAndItsNeighboursAreLeftAsTheyWere() {
    qt().withExamples(2000)
        .forAll(values(), levels(), integers().between(0, 3), integers().between(0, 5))
        .checkAssert(
            (list, level, order, pad) -> {
              double[] values = arranged(list, order);
              // neighbours far outside the values: any read past the slice changes the answer
              double[] a = new double[pad + values.length + pad];
              Arrays.fill(a, 0, pad, -1e300);
              Arrays.fill(a, pad + values.length, a.length, 1e300);
              System.arraycopy(values, 0, a, pad, values.length);
              // a work array left over from other selections: its contents must not matter
              double[] work = Selection.work(values.length + pad);
              Arrays.fill(work, pad % 2 == 0 ? 1e300 : -1e300);
              assertEquals(
                  sortedQuantile(values.clone(), level),
                  Selection.quantile(a, pad, values.length, level, work),
                  () ->
                      "level " + level + " of " + Arrays.toString(values) + ", " + pad + " aside");
              for (int i = 0; i < pad; i++) {
                assertEquals(-1e300, a[i]);
                assertEquals(1e300, a[a.length - 1 - i]);
              }
            });
  }

  @Test
  void theKeptTailsAreTheExtremeValues() {
    qt().withExamples(1000)
        .forAll(values(), integers().between(1, 60), integers().between(0, 3))
        .assuming((list, m, order) -> m <= list.size())
        .checkAssert(
            (list, m, order) -> {
              double[] a = arranged(list, order);
              double[] sorted = a.clone();
              Arrays.sort(sorted);
              int n = a.length;
              double[] largest = new double[m + 1];
              double[] smallest = new double[m + 1];
              Selection.heapOfLargest(a, 0, n, m, false, largest, 1);
              Selection.heapOfLargest(a, 0, n, m, true, smallest, 1);
              largest = Arrays.copyOfRange(largest, 1, m + 1);
              smallest = Arrays.copyOfRange(smallest, 1, m + 1);
              for (int i = 0; i < m; i++) {
                smallest[i] = -smallest[i];
              }
              assertEquals(
                  sorted[n - m], largest[0], "the heap of the largest starts at the least");
              assertEquals(sorted[m - 1], smallest[0], "that of the smallest at the greatest");
              Arrays.sort(largest);
              Arrays.sort(smallest);
              assertEquals(
                  Arrays.toString(Arrays.copyOfRange(sorted, n - m, n)), Arrays.toString(largest));
              assertEquals(
                  Arrays.toString(Arrays.copyOfRange(sorted, 0, m)), Arrays.toString(smallest));
            });
  }

  /** What the state did before: sort, then interpolate between ranks ⌊h⌋ and ⌊h⌋ + 1. */
  private static double sortedQuantile(double[] a, double level) {
    Arrays.sort(a);
    double h = (a.length - 1) * level;
    int lo = (int) Math.floor(h);
    if (lo + 1 >= a.length || h == lo) {
      return a[lo];
    }
    return a[lo] + (h - lo) * (a[lo + 1] - a[lo]);
  }

  /** Values few or many, distinct or with many ties, up to a few hundred of them. */
  private static Gen<List<Double>> values() {
    return values(1, 400);
  }

  /** Values distinct or with many ties, from {@code min} to {@code max} of them. */
  private static Gen<List<Double>> values(int min, int max) {
    Gen<Double> value =
        integers()
            .between(0, 2)
            .flatMap(
                kind ->
                    switch (kind) {
                      case 0 -> integers().between(-3, 3).map(i -> (double) i);
                      case 1 -> doubles().between(-1e6, 1e6);
                      default -> integers().between(0, 40).map(i -> Math.exp(i / 7.0));
                    });
    return lists().of(value).ofSizeBetween(min, max);
  }

  /** Levels that put the rank in the tails and in the middle, on a rank and between two. */
  private static Gen<Double> levels() {
    return integers()
        .between(0, 4)
        .flatMap(
            kind ->
                switch (kind) {
                  case 0 ->
                      integers().between(0, 4).map(i -> new double[] {0, 0.5, 0.95, 0.99, 1}[i]);
                  case 1 -> doubles().between(0.9, 1.0);
                  case 2 -> doubles().between(0.0, 0.1);
                  default -> doubles().between(0.0, 1.0);
                });
  }

  /** The values as generated, ascending, descending, or as generated twice over. */
  private static double[] arranged(List<Double> list, int order) {
    double[] a = list.stream().mapToDouble(Double::doubleValue).toArray();
    switch (order) {
      case 1 -> Arrays.sort(a);
      case 2 -> {
        Arrays.sort(a);
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
          double t = a[i];
          a[i] = a[j];
          a[j] = t;
        }
      }
      case 3 -> {
        double[] twice = Arrays.copyOf(a, a.length * 2);
        System.arraycopy(a, 0, twice, a.length, a.length);
        a = twice;
      }
      default -> {}
    }
    return a;
  }
}
