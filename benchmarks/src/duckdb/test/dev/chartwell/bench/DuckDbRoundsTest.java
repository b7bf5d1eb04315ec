package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** The rounds of the embedded side-by-side: what runs when, and which calls are timed. */
class DuckDbRoundsTest {
  @Test
  void eachRoundRunsEveryQueryInOrder() throws Exception {
    List<String> calls = new ArrayList<>();
    List<Callable<?>> queries = new ArrayList<>();
    for (int q = 1; q <= 3; q++) {
      String name = "Q" + q;
      queries.add(() -> calls.add(name));
    }
    double[] medians = DuckDbSideBySide.inRounds(queries, 1, 2);
    assertEquals(List.of("Q1", "Q2", "Q3", "Q1", "Q2", "Q3", "Q1", "Q2", "Q3"), calls);
    assertEquals(3, medians.length);
  }

  @Test
  void mediansAreOfTheTimedRoundsOnly() throws Exception {
    int[] calls = {0};
    // the warm-up call sleeps long; the timed ones return at once
    Callable<?> slowFirst =
        () -> {
          if (calls[0]++ == 0) {
            Thread.sleep(200);
          }
          return null;
        };
    double[] medians = DuckDbSideBySide.inRounds(List.of(slowFirst), 1, 3);
    assertEquals(4, calls[0]);
    assertTrue(medians[0] < 200, "the warm-up's 200 ms is not a timed round");
  }

  @Test
  void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertEquals(2.5, DuckDbSideBySide.median(new double[] {4, 1, 3, 2}));
    assertEquals(3.0, DuckDbSideBySide.median(new double[] {5, 3, 1}));
  }
}
