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

    DoubleBlocks doubles = ValueReader.of(segment, "d").doubleBlocks();
    IdBlocks ids = ValueReader.of(segment, "s").idBlocks();
    assertNotNull(doubles);
    assertNotNull(ids);
    // a later reader finds the prepared ones, kept with the segment
    assertSame(doubles, ValueReader.of(segment, "d").doubleBlocks());
    assertSame(ids, ValueReader.of(segment, "s").idBlocks());
    assertSame(
        doubles,
        segment.derived(
            "double blocks of d",
            s -> {
              throw new AssertionError("built again");
            }));
    assertNull(ValueReader.of(segment, "n").idBlocks());
  }
}
