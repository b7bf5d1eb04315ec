package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import org.junit.jupiter.api.Test;

/** {@link ValueReader#prepareSummaries} builds what aggregation would build on first use. */
class PrepareSummariesTest {
  @Test
  void theSummariesAreBuiltOnceAndSharedWithLaterReaders() {
    SegmentBuilder b = new SegmentBuilder(3 * IdBlocks.ROWS);
    b.addColumn("d", ColumnType.DOUBLE);
    b.addColumn("s", ColumnType.STRING);
    b.addColumn("n", ColumnType.LONG);
    for (int i = 0; i < 3 * IdBlocks.ROWS; i++) {
      b.append(i, new Object[] {i * 0.5, "v" + (i % 7), (long) i});
    }
    Segment segment = b.build(1, null);

    ValueReader.of(segment, "d").prepareSummaries();
    ValueReader.of(segment, "s").prepareSummaries();
    ValueReader.of(segment, "n").prepareSummaries(); // no summaries for longs: nothing happens
    ValueReader.of(segment, "absent").prepareSummaries();

    // built by the calls above: asking for them again computes nothing
    Object doubles = segment.derived("double blocks of d", PrepareSummariesTest::builtAgain);
    Object ids = segment.derived("id blocks of s", PrepareSummariesTest::builtAgain);
    assertNotNull(doubles);
    assertNotNull(ids);
    // and a later reader uses them
    assertSame(doubles, ValueReader.of(segment, "d").doubleBlocks());
    assertSame(ids, ValueReader.of(segment, "s").idBlocks());
    assertNull(ValueReader.of(segment, "n").idBlocks());
  }

  private static Object builtAgain(Segment segment) {
    throw new AssertionError("a summary was built again");
  }
}
