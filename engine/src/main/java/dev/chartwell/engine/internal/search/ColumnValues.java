package dev.chartwell.engine.internal.search;

import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.DoubleColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;

/** Reads one value of a segment through the columns' public read methods. */
public final class ColumnValues {
  private ColumnValues() {}

  /**
   * @param segment a segment
   * @param column a column name
   * @param row a row of the segment
   * @return the row's value ({@link String}, {@link Long}, {@link Double} or {@link Boolean}), or
   *     {@code null} when the row has none (or the segment has no such column)
   */
  public static Object read(Segment segment, String column, int row) {
    Column c = segment.column(column);
    if (c == null || !c.isPresent(row)) {
      return null;
    }
    if (c instanceof StringColumn s) {
      return s.get(row);
    }
    if (c instanceof LongColumn l) {
      return l.get(row);
    }
    if (c instanceof DoubleColumn d) {
      return d.get(row);
    }
    return ((BoolColumn) c).get(row);
  }
}
