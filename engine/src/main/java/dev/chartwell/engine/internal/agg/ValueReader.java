package dev.chartwell.engine.internal.agg;

import dev.chartwell.engine.internal.filter.Numbers;
import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.DoubleColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import java.nio.DoubleBuffer;
import java.util.Arrays;

/**
 * Reads one field of a segment for aggregation. Numeric aggregates see numbers, and strings that
 * parse as numbers (each dictionary entry parsed once); other values read as {@code NaN} and are
 * skipped. Distinct counting sees dictionary ids for strings and a 64-bit key per value otherwise,
 * decoded back to the value once per segment.
 */
public final class ValueReader {
  private final Column column;

  /** Each string dictionary entry's number, once parsed; made on the first numeric read. */
  private double[] parsedStrings;

  private final Segment segment;
  private final String field;
  private DoubleBlocks doubleBlocks;
  private IdBlocks idBlocks;

  private ValueReader(Column column, Segment segment, String field) {
    this.column = column;
    this.segment = segment;
    this.field = field;
  }

  /**
   * @param column the field's column in a segment, or {@code null} when absent there
   * @return a reader
   */
  public static ValueReader of(Column column) {
    return new ValueReader(column, null, null);
  }

  /**
   * A reader that also reads the block summaries derived from the column (computed on first use and
   * kept with the segment), so that aggregates over long row ranges read blocks, not rows.
   *
   * @param segment a segment
   * @param field a field, possibly absent from the segment
   * @return a reader
   */
  public static ValueReader of(Segment segment, String field) {
    return new ValueReader(segment.column(field), segment, field);
  }

  /**
   * @param row a row
   * @return whether the row has a value
   */
  public boolean present(int row) {
    return column != null && column.isPresent(row);
  }

  /**
   * @param row a row
   * @return its numeric value, or {@code NaN} when absent or not a number
   */
  public double number(int row) {
    if (column instanceof DoubleColumn d) {
      return d.isPresent(row) ? d.get(row) : Double.NaN;
    }
    if (column instanceof LongColumn l) {
      return l.isPresent(row) ? (double) l.get(row) : Double.NaN;
    }
    if (column instanceof StringColumn s) {
      int id = s.id(row);
      if (id < 0) {
        return Double.NaN;
      }
      if (parsedStrings == null) {
        parsedStrings = new double[s.dictionary().size()];
        Arrays.fill(parsedStrings, Double.MIN_VALUE); // not parsed yet (a real value is never this)
      }
      double v = parsedStrings[id];
      if (v == Double.MIN_VALUE) {
        v = Numbers.parseDouble(s.dictionary().get(id));
        parsedStrings[id] = v;
      }
      return v;
    }
    return Double.NaN;
  }

  /**
   * @param from first row
   * @param to one past the last row
   * @return how many rows of the range have a value
   */
  public int presentCount(int from, int to) {
    if (column == null) {
      return 0;
    }
    return column.presence() == null
        ? to - from
        : (int) column.presence().rangeCardinality(from, to);
  }

  /**
   * @return the values of a double column in which every row has one, else {@code null} (read-only)
   */
  public DoubleBuffer denseDoubles() {
    return column instanceof DoubleColumn d && d.presence() == null ? d.values() : null;
  }

  /**
   * Builds now the block summaries of this reader's column that aggregation would otherwise build
   * on its first use (and keep with the segment): for a server warming up, so that the first query
   * over the field does not pay for them. Does nothing for columns without summaries.
   */
  public void prepareSummaries() {
    doubleBlocks();
    idBlocks();
  }

  /**
   * @return the block summaries of a dense double column, or {@code null} for other columns and
   *     readers made without their segment
   */
  DoubleBlocks doubleBlocks() {
    if (doubleBlocks == null && segment != null && denseDoubles() != null) {
      doubleBlocks =
          segment.derived(
              "double blocks of " + field, s -> DoubleBlocks.of(denseDoubles(), s.rows()));
    }
    return doubleBlocks;
  }

  /**
   * @return the block summaries of a string column of at most {@link IdBlocks#MAX_IDS} values, or
   *     {@code null} for other columns and readers made without their segment
   */
  IdBlocks idBlocks() {
    if (idBlocks == null
        && segment != null
        && column instanceof StringColumn s
        && s.dictionary().size() <= IdBlocks.MAX_IDS) {
      idBlocks = segment.derived("id blocks of " + field, seg -> IdBlocks.of(s, seg.rows()));
    }
    return idBlocks;
  }

  /**
   * @return the string column, or {@code null} for other columns
   */
  StringColumn strings() {
    return column instanceof StringColumn s ? s : null;
  }

  /**
   * @param row a present row of a column that is not a string column
   * @return a key identifying the row's value
   */
  long distinctKey(int row) {
    if (column instanceof LongColumn l) {
      return l.get(row);
    }
    if (column instanceof DoubleColumn d) {
      return Double.doubleToLongBits(d.get(row));
    }
    return ((BoolColumn) column).get(row) ? 1 : 0;
  }

  /**
   * @param key a key from {@link #distinctKey}
   * @return the value it stands for
   */
  Object decode(long key) {
    if (column instanceof LongColumn) {
      return key;
    }
    if (column instanceof DoubleColumn) {
      return Double.longBitsToDouble(key);
    }
    return key == 1;
  }
}
