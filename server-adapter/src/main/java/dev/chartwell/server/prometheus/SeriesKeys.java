package dev.chartwell.server.prometheus;

import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Gives each row of one segment a small number, its key, that is the same for two rows exactly when
 * their identity columns hold the same values: the rows of one series share a key. A string
 * column's part of the key is its dictionary id as stored (id + 1, 0 when absent), decoded a run of
 * rows at a time; columns that hold one value in every row of the segment (the metric name when a
 * segment holds one metric, the scope) are left out. The parts are combined by mixed radix while
 * the product of their value counts stays under {@link #DIRECT}; past it, each combination gets the
 * next number from a hash table, so a key stays below the segment's row count.
 */
final class SeriesKeys {
  /** Keys up to this many are combined by arithmetic alone. */
  static final long DIRECT = 1 << 20;

  private final List<Part> parts = new ArrayList<>();
  private final List<LongIds> dense = new ArrayList<>(); // per part: null when combined by radix
  private int[] codes = new int[0];

  /**
   * @param segment the segment
   * @param strings its string identity columns
   * @param monotonic its {@code IsMonotonic} column, or null
   * @param temporality its {@code AggregationTemporality} column, or null
   * @param direct the most keys made by arithmetic alone, {@link #DIRECT} but in tests
   */
  SeriesKeys(
      Segment segment,
      List<StringColumn> strings,
      BoolColumn monotonic,
      LongColumn temporality,
      long direct) {
    for (StringColumn s : strings) {
      boolean constant =
          s.presentCount() == 0 || (s.presence() == null && s.dictionary().size() == 1);
      if (!constant) {
        parts.add(new StringPart(s));
      }
    }
    int rows = segment.rows();
    if (monotonic != null
        && monotonic.presentCount() > 0
        && monotonic.trueRows().getCardinality() != rows
        && monotonic.falseRows().getCardinality() != rows) {
      parts.add(new BoolPart(monotonic));
    }
    if (temporality != null
        && temporality.presentCount() > 0
        && !(temporality.presence() == null && temporality.min() == temporality.max())) {
      parts.add(new LongPart(temporality, rows));
    }
    long bound = 1;
    for (Part p : parts) {
      if (bound * p.cardinality() <= direct) {
        bound *= p.cardinality();
        dense.add(null);
      } else {
        bound = rows;
        dense.add(new LongIds());
      }
    }
  }

  /**
   * @param from first row
   * @param to one past the last row
   * @param out receives the keys of the rows from index 0
   */
  void keys(int from, int to, int[] out) {
    int n = to - from;
    Arrays.fill(out, 0, n, 0);
    if (codes.length < n) {
      codes = new int[n];
    }
    for (int p = 0; p < parts.size(); p++) {
      parts.get(p).codes(from, to, codes);
      combine(p, out, n);
    }
  }

  /**
   * @param rows rows, ascending
   * @param n how many
   * @param out receives their keys
   */
  void keys(int[] rows, int n, int[] out) {
    Arrays.fill(out, 0, n, 0);
    if (codes.length < n) {
      codes = new int[n];
    }
    for (int p = 0; p < parts.size(); p++) {
      Part part = parts.get(p);
      for (int i = 0; i < n; i++) {
        codes[i] = part.code(rows[i]);
      }
      combine(p, out, n);
    }
  }

  private void combine(int p, int[] out, int n) {
    int radix = parts.get(p).cardinality();
    LongIds ids = dense.get(p);
    if (ids == null) {
      for (int i = 0; i < n; i++) {
        out[i] = out[i] * radix + codes[i];
      }
    } else {
      for (int i = 0; i < n; i++) {
        out[i] = ids.id((long) out[i] * radix + codes[i]);
      }
    }
  }

  /** One identity column's part of the key: a code per row in {@code [0, cardinality())}. */
  private interface Part {
    int cardinality();

    int code(int row);

    default void codes(int from, int to, int[] out) {
      for (int row = from; row < to; row++) {
        out[row - from] = code(row);
      }
    }
  }

  /** A string column: its stored ordinals, id + 1, 0 when absent. */
  private record StringPart(StringColumn column) implements Part {
    @Override
    public int cardinality() {
      return column.dictionary().size() + 1;
    }

    @Override
    public int code(int row) {
      return (int) column.ordinals().get(row);
    }

    @Override
    public void codes(int from, int to, int[] out) {
      column.ordinals().getInts(from, to, out);
    }
  }

  /** A boolean column: 0 absent, 1 false, 2 true. */
  private record BoolPart(BoolColumn column) implements Part {
    @Override
    public int cardinality() {
      return 3;
    }

    @Override
    public int code(int row) {
      return column.trueRows().contains(row) ? 2 : column.falseRows().contains(row) ? 1 : 0;
    }
  }

  /** A long column: 0 absent, else a number per distinct value. */
  private static final class LongPart implements Part {
    private final LongColumn column;
    private final ImmutableRoaringBitmap presence;
    private final LongIds values = new LongIds();
    private final int cardinality;

    LongPart(LongColumn column, int rows) {
      this.column = column;
      this.presence = column.presence();
      this.cardinality = rows + 1;
    }

    @Override
    public int cardinality() {
      return cardinality;
    }

    @Override
    public int code(int row) {
      return presence != null && !presence.contains(row) ? 0 : values.id(column.get(row)) + 1;
    }
  }

  /** Numbers 0, 1, 2... given to distinct longs in the order they are first seen. */
  static final class LongIds {
    private long[] keys = new long[64];
    private int[] ids = new int[64]; // id + 1, 0 for a free slot
    private int size;

    /**
     * @param key a long
     * @return its number, given now when it is new
     */
    int id(long key) {
      int mask = keys.length - 1;
      long h = key * 0x9E3779B97F4A7C15L;
      for (int i = (int) (h ^ (h >>> 32)) & mask; ; i = (i + 1) & mask) {
        if (ids[i] == 0) {
          keys[i] = key;
          ids[i] = ++size;
          if (size * 2 > keys.length) {
            grow();
          }
          return size - 1;
        }
        if (keys[i] == key) {
          return ids[i] - 1;
        }
      }
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldIds = ids;
      keys = new long[oldKeys.length * 2];
      ids = new int[oldIds.length * 2];
      int mask = keys.length - 1;
      for (int j = 0; j < oldKeys.length; j++) {
        if (oldIds[j] != 0) {
          long h = oldKeys[j] * 0x9E3779B97F4A7C15L;
          int i = (int) (h ^ (h >>> 32)) & mask;
          while (ids[i] != 0) {
            i = (i + 1) & mask;
          }
          keys[i] = oldKeys[j];
          ids[i] = oldIds[j];
        }
      }
    }
  }
}
