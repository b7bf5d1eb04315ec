package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A segment's table of buckets against buckets found by reading every row's timestamp. */
class BucketRowsProperties {
  @Test
  void bucketsAreTheRowsOfEachBucketInOrder() {
    qt().withExamples(300)
        .forAll(
            Gens.longs(-3_000, 3_000), // first timestamp, before the epoch too
            Gens.listOf(Gens.longs(0, 40), 0, 3000), // steps: runs of equal timestamps, gaps
            Gens.longs(1, 400))
        .checkAssert(BucketRowsProperties::agreesWithAScan);
  }

  private static void agreesWithAScan(long first, List<Long> steps, long length) {
    Segment s = segment(first, steps);
    long[] times = new long[s.rows()];
    for (int i = 0; i < times.length; i++) {
      times[i] = s.timestamp(i);
    }
    List<long[]> expected = new ArrayList<>(); // {start, first row, end}
    for (int r = 0; r < times.length; ) {
      long start = Math.floorDiv(times[r], length) * length;
      int end = r;
      while (end < times.length && Math.floorDiv(times[end], length) * length == start) {
        end++;
      }
      expected.add(new long[] {start, r, end});
      r = end;
    }
    Object built = BucketRows.build(s, length, Integer.MAX_VALUE);
    BucketRows table = (BucketRows) built;
    assertEquals(expected.size(), table.size());
    for (int i = 0; i < expected.size(); i++) {
      long[] e = expected.get(i);
      assertEquals(e[0], table.start(i), "start of bucket " + i);
      assertEquals(e[2], table.end(i), "end of bucket " + i);
      for (long row = e[1]; row < e[2]; row++) {
        assertEquals(i, table.indexOf((int) row), "bucket of row " + row);
      }
    }
    // Past its cap the table is not built, and the attempt is remembered as such.
    if (expected.size() > 1) {
      assertEquals(Boolean.FALSE, BucketRows.build(s, length, expected.size() - 1));
    }
  }

  @Test
  void keptWithTheSegmentUnlessTooMany() {
    List<Long> steps = new ArrayList<>();
    for (int i = 0; i < 4_000; i++) {
      steps.add(1L);
    }
    Segment s = segment(0, steps);
    BucketRows minutes = BucketRows.of(s, 1_000);
    assertNotNull(minutes);
    assertSame(minutes, BucketRows.of(s, 1_000));
    assertEquals(5, minutes.size()); // 0..4000 ms
    // 1 ms buckets: one per row, more than one per 16 rows
    assertNull(BucketRows.of(s, 1));
    assertNull(BucketRows.of(s, 1));
  }

  private static Segment segment(long first, List<Long> steps) {
    SegmentBuilder b = new SegmentBuilder(1);
    b.addColumn("x", ColumnType.LONG);
    long t = first;
    b.append(t, new Object[] {0L});
    for (int i = 0; i < steps.size(); i++) {
      t += steps.get(i);
      b.append(t, new Object[] {(long) i});
    }
    return b.build(0, null);
  }
}
