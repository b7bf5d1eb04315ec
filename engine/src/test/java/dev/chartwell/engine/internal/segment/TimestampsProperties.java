package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Block-coded timestamps read back exactly, whatever their spans, and take fewer bits. */
class TimestampsProperties {

  @Test
  void everyTimestampReadsBack() {
    qt().withExamples(300)
        .forAll(ascending())
        .checkAssert(
            values -> {
              Timestamps t = Timestamps.pack(values, values.length);
              assertEquals(values.length, t.size());
              for (int i = 0; i < values.length; i++) {
                assertEquals(values[i], t.get(i), "row " + i);
              }
              Timestamps read =
                  Timestamps.of(
                      t.firsts(), t.blocks(), t.steps(), t.lows(), t.words(), values.length);
              for (int i = 0; i < values.length; i++) {
                assertEquals(values[i], read.get(i), "row " + i + " read back from its parts");
              }
            });
  }

  @Test
  void aRunReadsAsEachRowDoes() {
    qt().withExamples(200)
        .forAll(ascending(), Gens.ints(0, 1000), Gens.ints(0, 1000))
        .checkAssert(
            (values, a, b) -> {
              Timestamps t = Timestamps.pack(values, values.length);
              int from = Math.min(a, values.length);
              int to = Math.min(values.length, from + b);
              long[] out = new long[to - from];
              t.get(from, to, out);
              for (int i = from; i < to; i++) {
                assertEquals(values[i], out[i - from], "row " + i);
              }
              Timestamps flat = Timestamps.flat(PackedLongs.pack(values, values.length));
              flat.get(from, to, out);
              for (int i = from; i < to; i++) {
                assertEquals(values[i], out[i - from], "row " + i + " of a flat frame");
              }
            });
  }

  @Test
  void aBlockMaySpanEverySixtyFourBits() {
    long[] values = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE};
    Timestamps t = Timestamps.pack(values, values.length);
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i], t.get(i));
    }
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> Timestamps.pack(new long[] {2, 1}, 2));
  }

  @Test
  void flatTimestampsOfOlderFilesReadAndRecodeTheSame() {
    long[] values = {5, 5, 9, 1_000_000, 1_000_001};
    Timestamps flat = Timestamps.flat(PackedLongs.pack(values, values.length));
    Timestamps coded = flat.blockCoded();
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i], flat.get(i));
      assertEquals(values[i], coded.get(i));
    }
  }

  @Test
  void aSortedDayTakesAboutHalfTheBitsOfOneFrame() {
    long[] values = new long[262_144];
    java.util.SplittableRandom r = new java.util.SplittableRandom(1);
    long t = 1_767_225_600_000L;
    for (int i = 0; i < values.length; i++) {
      t += r.nextInt(80); // about 10 ms apart: the segment spans 45 minutes
      values[i] = t;
    }
    long blocked = Timestamps.pack(values, values.length).bytes();
    long flat = PackedLongs.pack(values, values.length).bytes();
    assertTrue(2 * blocked < flat + flat / 5, blocked + " bytes against " + flat);
  }

  /**
   * Events at a steady rate with some arriving late (sorted in among the others), as a day of logs
   * is: a row strays from its block's line by a few arrivals, where its distance from the block's
   * first value runs to the block's span.
   */
  @Test
  void aSteadyRateTakesAFewBitsARow() {
    int n = 262_144;
    long[] values = new long[n];
    java.util.SplittableRandom r = new java.util.SplittableRandom(2);
    for (int i = 0; i < n; i++) {
      values[i] =
          1_767_225_600_000L + 86_400_000L * i / n - (r.nextInt(100) == 0 ? r.nextInt(5000) : 0);
    }
    Arrays.sort(values);
    Timestamps t = Timestamps.pack(values, n);
    for (int i = 0; i < n; i++) {
      assertEquals(values[i], t.get(i));
    }
    assertTrue(t.bytes() < n, t.bytes() + " bytes for " + n + " rows"); // under 8 bits a row
  }

  @Test
  void theLayoutOfPartsIsChecked() {
    Timestamps t = Timestamps.pack(new long[] {1, 2, 3}, 3);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> Timestamps.of(t.firsts(), t.blocks(), t.steps(), t.lows(), t.words(), 300));
  }

  /** Ascending longs: dense runs, equal values, large gaps and the widest spans. */
  static Gen<long[]> ascending() {
    Gen<Long> step =
        Gens.oneOf(
            Gens.longs(0, 3),
            Gens.longs(0, 1_000),
            Gens.longs(0, 1L << 40),
            Gens.longs(0, Long.MAX_VALUE / 2_000));
    return Gens.listOf(step, 0, 700)
        .zip(
            Gens.longs(Long.MIN_VALUE / 2, Long.MAX_VALUE / 8),
            (steps, start) -> accumulate(start, steps))
        .describedAs(Arrays::toString);
  }

  private static long[] accumulate(long start, List<Long> steps) {
    long[] out = new long[steps.size()];
    long v = start;
    for (int i = 0; i < out.length; i++) {
      v += steps.get(i);
      out[i] = v;
    }
    return out;
  }
}
