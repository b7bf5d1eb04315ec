package dev.chartwell.engine.internal.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A head's part whose token index is not built: the first queries read its text, the next one
 * builds the index, and every answer is the same as reading the text row by row.
 */
class UnindexedPartTest {
  private static final String[] BODIES = {
    "request timeout after 30ms", "user 7 logged in", "Timeout: db-2", "timeouts are rare", ""
  };

  @Test
  void aPartIsReadUntilItHasBeenReadEnoughTimesThenIndexed() {
    Segment part = part(200);
    Filter.Text term = new Filter.Text("Body", Filter.Text.Kind.TOKEN, "timeout");
    ImmutableRoaringBitmap all = MutableRoaringBitmap.bitmapOfRange(0, part.rows());
    ImmutableRoaringBitmap byRows = term.apply(part, all, false, new QueryControl());
    assertEquals(80, byRows.getCardinality()); // "timeout" and "Timeout:", not "timeouts"
    for (int q = 0; q < Filter.Text.READS_BEFORE_INDEXING; q++) {
      assertEquals(byRows, term.apply(part, all, true, new QueryControl()));
      assertFalse(part.hasTokenIndex(), "read " + (q + 1) + " times: still unindexed");
    }
    assertEquals(byRows, term.apply(part, all, true, new QueryControl()));
    assertTrue(part.hasTokenIndex(), "the next query built the index");
    ImmutableRoaringBitmap some = MutableRoaringBitmap.bitmapOfRange(10, 50);
    assertEquals(
        ImmutableRoaringBitmap.and(byRows, some), term.apply(part, some, true, new QueryControl()));
  }

  @Test
  void aLargePartIsIndexedByItsFirstQuery() {
    Segment part = part(Filter.Text.READ_UNINDEXED_ROWS + 1);
    Filter.Text term = new Filter.Text("Body", Filter.Text.Kind.TOKEN, "timeout");
    term.apply(part, MutableRoaringBitmap.bitmapOfRange(0, part.rows()), true, new QueryControl());
    assertTrue(part.hasTokenIndex());
  }

  @Test
  void readingWithoutIndexesNeverBuildsOne() {
    Segment part = part(100);
    Filter.Text term = new Filter.Text("Body", Filter.Text.Kind.TOKEN, "timeout");
    for (int q = 0; q < 2 * Filter.Text.READS_BEFORE_INDEXING; q++) {
      term.apply(part, MutableRoaringBitmap.bitmapOfRange(0, 100), false, new QueryControl());
    }
    assertFalse(part.hasTokenIndex());
  }

  /** A head's part (its token index built when first asked for) of the bodies in turn. */
  private static Segment part(int rows) {
    SegmentBuilder b = new SegmentBuilder(rows);
    b.addColumn("Body", ColumnType.STRING);
    for (int i = 0; i < rows; i++) {
      b.append(1_000L + i, new Object[] {BODIES[i % BODIES.length]});
    }
    return b.build(1, 0, "Body");
  }
}
