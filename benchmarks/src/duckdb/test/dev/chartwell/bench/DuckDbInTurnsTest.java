package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** The rounds of the embedded side-by-side: what runs when, and which calls are timed. */
class DuckDbInTurnsTest {
  @Test
  void eachRoundRunsEveryQueryOnBothSidesWhoGoesFirstAlternating() throws Exception {
    List<String> calls = new ArrayList<>();
    List<Callable<?>> ours = new ArrayList<>();
    List<Callable<?>> theirs = new ArrayList<>();
    for (int q = 1; q <= 2; q++) {
      String name = "Q" + q;
      ours.add(() -> calls.add("ours " + name));
      theirs.add(() -> calls.add("duck " + name));
    }
    double[][] medians = DuckDbSideBySide.inTurns(ours, theirs, 1, 2);
    assertEquals(
        List.of(
            "ours Q1", "duck Q1", "ours Q2", "duck Q2", // warm-up round: ours first
            "duck Q1", "ours Q1", "duck Q2", "ours Q2", // first timed round: DuckDB first
            "ours Q1", "duck Q1", "ours Q2", "duck Q2"),
        calls);
    assertEquals(2, medians.length);
    assertEquals(2, medians[0].length);
    assertEquals(2, medians[1].length);
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
    double[][] medians = DuckDbSideBySide.inTurns(List.of(slowFirst), List.of(() -> null), 1, 3);
    assertEquals(4, calls[0]);
    assertTrue(medians[0][0] < 200, "the warm-up's 200 ms is not a timed round");
  }

  @Test
  void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertEquals(2.5, DuckDbSideBySide.median(new double[] {4, 1, 3, 2}));
    assertEquals(3.0, DuckDbSideBySide.median(new double[] {5, 3, 1}));
  }
}
