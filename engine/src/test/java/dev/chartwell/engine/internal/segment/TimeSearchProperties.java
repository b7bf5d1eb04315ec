package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.testing.Gens;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The row search by time (sampled index, then packed timestamps) against a linear scan. */
class TimeSearchProperties {
  @Test
  void firstRowAtOrAfterIsTheFirstRowNotEarlier() {
    qt().withExamples(300)
        .forAll(
            Gens.listOf(Gens.longs(0, 3), 0, 2000), // steps: many equal timestamps
            Gens.listOf(Gens.longs(-5, 6000), 1, 40))
        .checkAssert(TimeSearchProperties::agreesWithAScan);
  }

  private static void agreesWithAScan(List<Long> steps, List<Long> probes) {
    SegmentBuilder b = new SegmentBuilder(1);
    b.addColumn("x", ColumnType.LONG);
    long t = 0;
    long[] times = new long[steps.size()];
    for (int i = 0; i < times.length; i++) {
      t += steps.get(i);
      times[i] = t;
      b.append(t, new Object[] {(long) i});
    }
    Segment s = b.build(0, null);
    for (long probe : probes) {
      int expected = 0;
      while (expected < times.length && times[expected] < probe) {
        expected++;
      }
      assertEquals(expected, s.firstRowAtOrAfter(probe), "probe " + probe);
    }
  }
}
