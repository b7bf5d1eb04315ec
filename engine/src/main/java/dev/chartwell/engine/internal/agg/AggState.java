package dev.chartwell.engine.internal.agg;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.internal.segment.StringColumn;
import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The partial state of one aggregation in one (bucket, group): filled row by row within a segment,
 * then merged across segments, then finished into the result value. Merging is associative and
 * commutative (except for floating-point rounding of sums).
 */
public abstract class AggState {
  AggState() {}

  /**
   * Adds one matching row.
   *
   * @param reader the field's reader ({@code null} for plain counts)
   * @param row the row
   * @param timestamp the row's timestamp
   * @param order arrival order of the row (segment id and row), for last_value / any
   */
  public abstract void add(ValueReader reader, int row, long timestamp, long order);

  /**
   * Adds every row of a range (all of them match). Subclasses loop over primitive arrays here.
   *
   * @param reader the field's reader ({@code null} for plain counts)
   * @param from first row
   * @param to one past the last row
   */
  public void addRange(ValueReader reader, int from, int to) {
    for (int row = from; row < to; row++) {
      add(reader, row, 0, 0);
    }
  }

  /**
   * Adds a batch of matching rows.
   *
   * @param reader the field's reader ({@code null} for plain counts)
   * @param rows row numbers
   * @param n how many of them
   */
  public void addRows(ValueReader reader, int[] rows, int n) {
    for (int i = 0; i < n; i++) {
      add(reader, rows[i], 0, 0);
    }
  }

  /**
   * Adds one numeric value (for sum, avg, min, max and quantiles, whose rows are read by the caller
   * in bulk).
   *
   * @param v a finite value
   */
  public void addValue(double v) {
    throw new IllegalStateException(getClass().getSimpleName() + " does not take plain values");
  }

  /**
   * @param fn an aggregation
   * @return whether its states take {@link #addValue}
   */
  public static boolean takesValues(AggFn fn) {
    return switch (fn) {
      case SUM, AVG, MIN, MAX, QUANTILE, P50, P90, P95, P99 -> true;
      default -> false;
    };
  }

  /**
   * @param fn an aggregation
   * @return whether its states keep every value they take (exact quantiles)
   */
  public static boolean keepsValues(AggFn fn) {
    return switch (fn) {
      case QUANTILE, P50, P90, P95, P99 -> true;
      default -> false;
    };
  }

  /**
   * @param other a state of the same function
   */
  public abstract void merge(AggState other);

  /**
   * @return whether anything contributed (otherwise the series has no value here)
   */
  public abstract boolean isEmpty();

  /**
   * Called once when a segment is done, before states leave it; turns segment-local keys into
   * values.
   *
   * @param reader the field's reader
   */
  public void seal(ValueReader reader) {}

  /**
   * @param bucketMillis the bucket length
   * @return the value: a {@link Long} for counts, a {@link Double} otherwise
   */
  public abstract Number finish(long bucketMillis);

  /**
   * Finishes a state that will take nothing more (its bucket and group have no rows elsewhere), so
   * that a state costly to keep is dropped for its value before the merge.
   *
   * @param bucketMillis the bucket length
   * @return a state holding only the value, or this one when finishing it costs little anyway
   */
  public AggState finishEarly(long bucketMillis) {
    return costlyToFinish() ? FixedState.of(finish(bucketMillis)) : this;
  }

  /**
   * @return whether {@link #finish} does work in proportion to the rows (selection, merging), so
   *     that finishing many states is worth spreading over the workers
   */
  public boolean costlyToFinish() {
    return false;
  }

  /**
   * @return an estimate of the heap this state holds, for the query's memory budget
   */
  public long retainedBytes() {
    return EMPTY_BYTES;
  }

  /**
   * @return a measure of the work {@link #finish} does, in the bytes its values or ids take as
   *     plain arrays (by default what the state holds), from which a query decides whether to
   *     spread the finishing over its workers
   */
  public long finishingWork() {
    return retainedBytes();
  }

  /** What an empty state costs with its entry in the maps that hold it, for memory budgets. */
  public static final long EMPTY_BYTES = 64;

  /**
   * @param fn the function
   * @param level the quantile level (for quantiles)
   * @param hasField whether the series names a field
   * @return an empty state
   */
  public static AggState create(AggFn fn, double level, boolean hasField) {
    return switch (fn) {
      case COUNT, COUNT_PER_SEC, COUNT_PER_MIN, COUNT_PER_HOUR -> new Count(fn, hasField);
      case COUNT_DISTINCT -> new Distinct();
      case SUM, AVG -> new Sum(fn == AggFn.AVG);
      case MIN, MAX -> new Extreme(fn == AggFn.MAX);
      case QUANTILE, P50, P90, P95, P99 -> new Quantile(level);
      case LAST_VALUE, ANY -> new Pick(fn == AggFn.LAST_VALUE);
    };
  }

  /**
   * Counts (optionally only rows that have the field); per-second/minute/hour divide at the end.
   */
  public static final class Count extends AggState {
    private final AggFn fn;
    private final boolean needsField;
    private long n;

    Count(AggFn fn, boolean needsField) {
      this.fn = fn;
      this.needsField = needsField;
    }

    /**
     * Adds many rows at once (the index-only path: a bitmap's cardinality over a bucket).
     *
     * @param rows number of rows
     */
    public void addCount(long rows) {
      n += rows;
    }

    @Override
    public void add(ValueReader reader, int row, long timestamp, long order) {
      if (!needsField || reader.present(row)) {
        n++;
      }
    }

    @Override
    public void addRange(ValueReader reader, int from, int to) {
      n += needsField ? reader.presentCount(from, to) : to - from;
    }

    @Override
    public void merge(AggState other) {
      n += ((Count) other).n;
    }

    @Override
    public boolean isEmpty() {
      return n == 0;
    }

    @Override
    public Number finish(long bucketMillis) {
      return switch (fn) {
        case COUNT_PER_SEC -> n / (bucketMillis / 1000.0);
        case COUNT_PER_MIN -> n / (bucketMillis / 60_000.0);
        case COUNT_PER_HOUR -> n / (bucketMillis / 3_600_000.0);
        default -> n;
      };
    }
  }

  /**
   * Exact distinct count: segment-local keys while a segment is read; then strings stay dictionary
   * ids of their segment ({@link DistinctStrings}) and other values are decoded into a set.
   */
  static final class Distinct extends AggState {
    /** String columns, within a segment: one bit per dictionary id. */
    private long[] ids;

    /** Other columns, within a segment: 64-bit keys. */
    private Roaring64NavigableMap keys;

    private final DistinctStrings strings = new DistinctStrings();
    private final Set<Object> values = new HashSet<>();

    @Override
    public void add(ValueReader reader, int row, long timestamp, long order) {
      StringColumn s = reader.strings();
      if (s != null) {
        int id = s.id(row);
        if (id >= 0) {
          bits(s)[id >>> 6] |= 1L << id;
        }
      } else if (reader.present(row)) {
        if (keys == null) {
          keys = new Roaring64NavigableMap();
        }
        keys.addLong(reader.distinctKey(row));
      }
    }

    @Override
    public void addRange(ValueReader reader, int from, int to) {
      StringColumn s = reader.strings();
      if (s == null) {
        super.addRange(reader, from, to);
        return;
      }
      IdBlocks blocks = reader.idBlocks();
      if (blocks != null) {
        blocks.addIds(bits(s), from, to);
      } else {
        IdBlocks.addIds(s.ordinals(), from, to, bits(s), Scratch.ordinals());
      }
    }

    private long[] bits(StringColumn s) {
      if (ids == null) {
        ids = new long[(s.dictionary().size() + 63) >>> 6];
      }
      return ids;
    }

    @Override
    public void seal(ValueReader reader) {
      if (ids != null) {
        strings.addIds(reader.strings().dictionary(), ids);
        ids = null;
      }
      if (keys != null) {
        keys.forEach(k -> values.add(reader.decode(k)));
        keys = null;
      }
    }

    @Override
    public void merge(AggState other) {
      Distinct theirs = (Distinct) other;
      strings.addAll(theirs.strings);
      values.addAll(theirs.values);
    }

    @Override
    public boolean isEmpty() {
      return strings.isEmpty() && values.isEmpty();
    }

    @Override
    public Number finish(long bucketMillis) {
      return strings.count() + values.size();
    }

    @Override
    public long retainedBytes() {
      return EMPTY_BYTES
          + (ids == null ? 0 : 8L * ids.length)
          + (keys == null ? 0 : keys.getLongSizeInBytes())
          + strings.retainedBytes()
          + 64L * values.size();
    }

    @Override
    public long finishingWork() {
      return EMPTY_BYTES + strings.countingWork() + 64L * values.size();
    }

    @Override
    public boolean costlyToFinish() {
      return true;
    }
  }

  /** The states of numeric aggregates: a row adds its number; rows without one are skipped. */
  abstract static class Numeric extends AggState {
    @Override
    public final void add(ValueReader reader, int row, long timestamp, long order) {
      double v = reader.number(row);
      if (!Double.isNaN(v)) {
        addValue(v);
      }
    }

    @Override
    public abstract void addValue(double v);
  }

  /** Sum and average of numeric values. */
  static final class Sum extends Numeric {
    private final boolean average;
    private double sum;
    private long n;

    Sum(boolean average) {
      this.average = average;
    }

    @Override
    public void addValue(double v) {
      sum += v;
      n++;
    }

    @Override
    public void addRange(ValueReader reader, int from, int to) {
      DoubleBuffer values = reader.denseDoubles();
      if (values == null) {
        super.addRange(reader, from, to);
        return;
      }
      DoubleBlocks blocks = reader.doubleBlocks();
      sum += blocks != null ? blocks.sum(from, to) : DenseDoubles.sum(values, from, to);
      n += to - from;
    }

    @Override
    public void addRows(ValueReader reader, int[] rows, int count) {
      DoubleBuffer values = reader.denseDoubles();
      if (values == null) {
        super.addRows(reader, rows, count);
        return;
      }
      double s = 0;
      for (int i = 0; i < count; i++) {
        s += values.get(rows[i]);
      }
      sum += s;
      n += count;
    }

    @Override
    public void merge(AggState other) {
      Sum o = (Sum) other;
      sum += o.sum;
      n += o.n;
    }

    @Override
    public boolean isEmpty() {
      return n == 0;
    }

    @Override
    public Number finish(long bucketMillis) {
      return average ? sum / n : sum;
    }
  }

  /** Minimum or maximum of numeric values. */
  static final class Extreme extends Numeric {
    private final boolean max;
    private double value;
    private boolean any;

    Extreme(boolean max) {
      this.max = max;
    }

    @Override
    public void addValue(double v) {
      if (!any || (max ? v > value : v < value)) {
        value = v;
        any = true;
      }
    }

    @Override
    public void addRange(ValueReader reader, int from, int to) {
      DoubleBuffer values = reader.denseDoubles();
      if (values == null || from >= to) {
        super.addRange(reader, from, to);
        return;
      }
      DoubleBlocks blocks = reader.doubleBlocks();
      addValue(
          blocks != null
              ? blocks.extreme(from, to, max)
              : DenseDoubles.extreme(values, from, to, max));
    }

    @Override
    public void merge(AggState other) {
      Extreme o = (Extreme) other;
      if (o.any) {
        addValue(o.value);
      }
    }

    @Override
    public boolean isEmpty() {
      return !any;
    }

    @Override
    public Number finish(long bucketMillis) {
      return value;
    }
  }

  /** Exact quantile: all values kept; linear interpolation between the closest ranks. */
  static final class Quantile extends Numeric {
    private static final double[] NONE = {};

    private final double level;
    private double[] values = NONE;
    private int n;

    Quantile(double level) {
      this.level = level;
    }

    /** A state holding these values (the array is kept). */
    static Quantile of(double level, double[] values) {
      Quantile q = new Quantile(level);
      q.values = values;
      q.n = values.length;
      return q;
    }

    @Override
    public void addValue(double v) {
      if (n == values.length) {
        values = Arrays.copyOf(values, Math.max(8, n * 2));
      }
      values[n++] = v;
    }

    @Override
    public void merge(AggState other) {
      Quantile o = (Quantile) other;
      if (n + o.n > values.length) {
        values = Arrays.copyOf(values, Math.max(n + o.n, values.length * 2));
      }
      System.arraycopy(o.values, 0, values, n, o.n);
      n += o.n;
    }

    @Override
    public boolean isEmpty() {
      return n == 0;
    }

    @Override
    public void addRows(ValueReader reader, int[] rows, int count) {
      DoubleBuffer dense = reader.denseDoubles();
      if (dense == null) {
        super.addRows(reader, rows, count);
        return;
      }
      if (n + count > values.length) {
        values = Arrays.copyOf(values, Math.max(n + count, values.length * 2));
      }
      for (int i = 0; i < count; i++) {
        values[n++] = dense.get(rows[i]);
      }
    }

    @Override
    public long retainedBytes() {
      return EMPTY_BYTES + 8L * values.length;
    }

    @Override
    public boolean costlyToFinish() {
      return true;
    }

    @Override
    public Number finish(long bucketMillis) {
      return Selection.quantile(values, n, level);
    }
  }

  /** last_value (greatest timestamp, then latest arrival) or any (earliest, then first arrival). */
  static final class Pick extends AggState {
    private final boolean last;
    private boolean has;
    private long ts;
    private long order;
    private double value;

    Pick(boolean last) {
      this.last = last;
    }

    @Override
    public void add(ValueReader reader, int row, long timestamp, long rowOrder) {
      double v = reader.number(row);
      if (!Double.isNaN(v)) {
        offer(timestamp, rowOrder, v);
      }
    }

    private void offer(long t, long o, double v) {
      int c = has ? (t != ts ? Long.compare(t, ts) : Long.compare(o, order)) : 0;
      if (!has || (last ? c > 0 : c < 0)) {
        has = true;
        ts = t;
        order = o;
        value = v;
      }
    }

    @Override
    public void merge(AggState other) {
      Pick p = (Pick) other;
      if (p.has) {
        offer(p.ts, p.order, p.value);
      }
    }

    @Override
    public boolean isEmpty() {
      return !has;
    }

    @Override
    public Number finish(long bucketMillis) {
      return value;
    }
  }
}
