package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The mutable head of a source: rows in arrival order, in growable typed buffers. It is not
 * thread-safe; the owning source serializes appends and takes {@link #copy() copies} for readers.
 * {@link #build} seals rows into an immutable, time-sorted {@link Segment}.
 */
public final class SegmentBuilder {
  private long[] timestamps;
  private int rows;
  private final List<String> names = new ArrayList<>();
  private final List<HeadColumn> buffers = new ArrayList<>();

  /**
   * @param initialCapacity rows to allocate room for up front
   */
  public SegmentBuilder(int initialCapacity) {
    this.timestamps = new long[Math.max(16, initialCapacity)];
  }

  private SegmentBuilder(long[] timestamps, int rows) {
    this.timestamps = timestamps;
    this.rows = rows;
  }

  /**
   * @return rows appended so far
   */
  public int rows() {
    return rows;
  }

  /**
   * Adds a column; its ordinal is the number of columns added before it. Rows already appended have
   * no value in it.
   *
   * @param name the column name
   * @param type the column type
   */
  public void addColumn(String name, ColumnType type) {
    names.add(name);
    buffers.add(HeadColumn.of(type, timestamps.length));
  }

  /**
   * @return the number of columns
   */
  public int columnCount() {
    return buffers.size();
  }

  /**
   * Appends one row.
   *
   * @param timestamp epoch milliseconds
   * @param values by column ordinal: a {@link Long}, {@link Double}, {@link Boolean} or {@link
   *     String} matching the column type, or {@code null} for no value; may be shorter than the
   *     column count
   */
  public void append(long timestamp, Object[] values) {
    if (rows == timestamps.length) {
      int capacity = rows + (rows >> 1) + 16;
      timestamps = Arrays.copyOf(timestamps, capacity);
      for (HeadColumn b : buffers) {
        b.grow(capacity);
      }
    }
    timestamps[rows] = timestamp;
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        buffers.get(i).set(rows, values[i]);
      }
    }
    rows++;
  }

  /**
   * Appends the events of a batch whose values have their columns' types, a column at a time.
   *
   * @param batch the events
   * @param columnOf per batch field the column it goes to, or -1 for none
   * @param skipped per event whether to leave it out, or {@code null} for none
   * @param from the first event
   * @param to one past the last
   */
  public void append(EventBatch batch, int[] columnOf, boolean[] skipped, int from, int to) {
    int count = 0;
    for (int row = from; row < to; row++) {
      if (skipped == null || !skipped[row]) {
        count++;
      }
    }
    if (rows + count > timestamps.length) {
      int capacity = Math.max(rows + count, rows + (rows >> 1) + 16);
      timestamps = Arrays.copyOf(timestamps, capacity);
      for (HeadColumn b : buffers) {
        b.grow(capacity);
      }
    }
    for (int row = from, r = rows; row < to; row++) {
      if (skipped == null || !skipped[row]) {
        timestamps[r++] = batch.timestampAt(row);
      }
    }
    for (int f = 0; f < columnOf.length; f++) {
      if (columnOf[f] >= 0) {
        buffers.get(columnOf[f]).append(batch, f, skipped, from, to, rows);
      }
    }
    rows += count;
  }

  /**
   * @return an independent copy of the rows so far, for sealing outside the owner's lock
   */
  public SegmentBuilder copy() {
    return copy(0, rows);
  }

  /**
   * An independent copy of some of the rows, renumbered from 0, for sealing outside the owner's
   * lock: array copies of the range only (string values are shared, the head never changes them).
   *
   * @param from the first row
   * @param to one past the last row, at most {@link #rows()}
   * @return the copy, with every column (a column may have no value in these rows)
   */
  public SegmentBuilder copy(int from, int to) {
    if (from < 0 || from > to || to > rows) {
      throw new IndexOutOfBoundsException("rows " + from + " to " + to + " of " + rows);
    }
    SegmentBuilder c = new SegmentBuilder(Arrays.copyOfRange(timestamps, from, to), to - from);
    c.names.addAll(names);
    for (HeadColumn b : buffers) {
      c.buffers.add(b.copy(from, to));
    }
    return c;
  }

  /**
   * @return an estimate of the heap this head uses
   */
  public long bytes() {
    long total = 64 + 8L * timestamps.length;
    for (HeadColumn b : buffers) {
      total += b.bytes();
    }
    return total;
  }

  /**
   * Seals the rows into a segment sorted by timestamp (stable for equal timestamps).
   *
   * @param segmentId the new segment's id
   * @param implicitColumn the column to build the token index on, or {@code null}
   * @return the segment
   */
  public Segment build(long segmentId, String implicitColumn) {
    Segment s = build(segmentId, 0, implicitColumn);
    s.tokenIndex(); // a sealed segment has its index before anyone queries it
    return s;
  }

  /**
   * Seals the rows into a segment sorted by timestamp (stable for equal timestamps), as a part of a
   * head whose earlier rows are in other parts: its {@link Segment#orderKey order keys} follow
   * theirs, and its token index is built when a query first needs it (most queries of a part do
   * not).
   *
   * @param segmentId the new segment's id
   * @param firstRow the head's row this builder's first row is (0 for a whole head)
   * @param implicitColumn the column to build the token index on, or {@code null}
   * @return the segment
   */
  public Segment build(long segmentId, int firstRow, String implicitColumn) {
    return build(segmentId, firstRow, implicitColumn, (Supplier<TokenIndex>) null);
  }

  /**
   * {@link #build(long, int, String)} with its token index built now, from the token indexes of
   * segments built before from this builder's first rows and that of the rows after them, rather
   * than by tokenizing every value again ({@link TokenIndexMerger}): the same index.
   *
   * @param segmentId the new segment's id
   * @param firstRow the head's row this builder's first row is (0 for a whole head)
   * @param implicitColumn the column to build the token index on, or {@code null}
   * @param earlier segments of this builder's first rows, one after the other, each built from them
   *     with the same implicit column (their token indexes are built if they are not yet)
   * @return the segment
   * @throws IllegalArgumentException when the earlier segments hold more rows than this builder
   */
  public Segment build(long segmentId, int firstRow, String implicitColumn, List<Segment> earlier) {
    int covered = 0;
    for (Segment s : earlier) {
      covered += s.rows();
    }
    if (covered > rows) {
      throw new IllegalArgumentException(covered + " rows built before, of " + rows);
    }
    int column = implicitColumn == null ? -1 : names.indexOf(implicitColumn);
    if (earlier.isEmpty() || column < 0 || !(buffers.get(column) instanceof HeadStrings)) {
      Segment s = build(segmentId, firstRow, implicitColumn);
      s.tokenIndex();
      return s;
    }
    TokenIndex merged =
        TokenIndexMerger.merge(
            earlier,
            (HeadStrings) buffers.get(column).copy(covered, rows),
            Arrays.copyOfRange(timestamps, covered, rows));
    Segment s = build(segmentId, firstRow, implicitColumn, () -> merged);
    s.tokenIndex();
    return s;
  }

  private Segment build(
      long segmentId, int firstRow, String implicitColumn, Supplier<TokenIndex> tokensInstead) {
    int[] order = RowOrder.sortedOrNull(timestamps, rows);
    Map<String, Column> columns = new LinkedHashMap<>();
    Supplier<TokenIndex> tokens = null;
    for (int c = 0; c < buffers.size(); c++) {
      Column column;
      if (names.get(c).equals(implicitColumn) && buffers.get(c) instanceof HeadStrings strings) {
        HeadStrings.Built built = strings.build(order, rows, true);
        column = built == null ? null : built.column();
        tokens = built == null ? null : tokensInstead != null ? tokensInstead : built.tokens();
      } else {
        column = buffers.get(c).build(order, rows);
      }
      if (column != null) {
        columns.put(names.get(c), column);
      }
    }
    return new Segment(
        segmentId, firstRow, rows, sortedTimestamps(order), columns, null, implicitColumn, tokens);
  }

  /** The timestamps in the order the rows will have: ascending (stable). */
  private Timestamps sortedTimestamps(int[] order) {
    long[] sorted = new long[rows];
    for (int i = 0; i < rows; i++) {
      sorted[i] = timestamps[order == null ? i : order[i]];
    }
    return Timestamps.pack(sorted, rows);
  }

  /**
   * {@link #build(long, int, String)} for a query: the rows that arrived since a head's last part,
   * which the query builds for itself and the queries after it share. Only the timestamps are
   * sorted now; each column is built when a query first reads it (a count with a where reads one or
   * two), and the token index when one first needs it. The builder must not change afterwards: the
   * segment builds from it (a {@link #copy}, which nothing else holds, is the usual one).
   *
   * @param segmentId the new segment's id
   * @param firstRow the head's row this builder's first row is
   * @param implicitColumn the column to build the token index on, or {@code null}
   * @return the segment
   */
  public Segment buildForQuery(long segmentId, int firstRow, String implicitColumn) {
    int[] order = RowOrder.sortedOrNull(timestamps, rows);
    List<String> columnNames = List.copyOf(names);
    List<HeadColumn> columnBuffers = List.copyOf(buffers);
    int n = rows;
    AtomicReference<Supplier<TokenIndex>> tokens = new AtomicReference<>();
    LazyColumns columns =
        new LazyColumns(
            columnNames,
            name -> {
              HeadColumn b = columnBuffers.get(columnNames.indexOf(name));
              if (name.equals(implicitColumn) && b instanceof HeadStrings strings) {
                HeadStrings.Built built = strings.build(order, n, true);
                if (built == null) {
                  return null;
                }
                tokens.set(built.tokens());
                return built.column();
              }
              return b.build(order, n);
            });
    Supplier<TokenIndex> tokenIndex = null;
    if (implicitColumn != null && columnNames.contains(implicitColumn)) {
      tokenIndex =
          () -> {
            columns.get(implicitColumn); // builds the column, and with it the way to its tokens
            Supplier<TokenIndex> t = tokens.get();
            return t == null ? null : t.get();
          };
    }
    return new Segment(
        segmentId,
        firstRow,
        rows,
        sortedTimestamps(order),
        Map.of(),
        columns,
        implicitColumn,
        tokenIndex);
  }
}
