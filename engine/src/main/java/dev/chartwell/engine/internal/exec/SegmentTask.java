package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.agg.AggState;
import dev.chartwell.engine.internal.agg.FixedState;
import dev.chartwell.engine.internal.agg.GroupKeys;
import dev.chartwell.engine.internal.agg.GroupQuantiles;
import dev.chartwell.engine.internal.agg.ValueReader;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * One series over one segment. Rows are in time order, so the query range and each bucket are row
 * ranges found by binary search; timestamps are not read per row. The filter yields the matching
 * rows as a bitmap; a plain count is that bitmap's cardinality per bucket range, other aggregations
 * visit the matching rows of each bucket. The task lists its partials in result order (bucket, then
 * group values), which is what lets {@link PartialMerge} merge tasks without hashing.
 *
 * <p>A segment mapped from a file is verified (its checksum, once) before the task reads it; a
 * damaged one contributes nothing.
 *
 * <p>In buckets no other segment holds rows in ({@link SharedBuckets}), states that keep every
 * value (quantiles) are finished at the end of their bucket, so that the merge holds their values
 * and not every segment's arrays of values.
 *
 * <p>The task stops at the query's checkpoints (per bucket and per batch of rows), claims the
 * memory of the states it creates against the query's budget, and fails as soon as it alone has
 * more groups or rows than a result may have, rather than after building them all.
 */
final class SegmentTask implements Callable<List<Partial>> {
  private static final int BATCH = 4096;

  /** Group ids up to this bound are kept in arrays indexed by id, above it in a map. */
  private static final int DENSE_GROUPS = 65_536;

  private final SeriesPlan plan;
  private final Segment segment;
  private final SharedBuckets shared;
  private final QueryControl control;

  /** Memory claimed for each new state before it is filled (its bitset, for distinct strings). */
  private final long stateBytes;

  private int partials;

  /**
   * @param plan the series
   * @param segment the segment
   * @param shared the series' buckets other segments hold rows in too: the others are finished here
   */
  SegmentTask(SeriesPlan plan, Segment segment, SharedBuckets shared) {
    this.plan = plan;
    this.segment = segment;
    this.shared = shared;
    this.control = plan.control();
    long bytes = AggState.EMPTY_BYTES;
    if (plan.fn() == AggFn.COUNT_DISTINCT && plan.field() != null) {
      Column c = segment.column(plan.field());
      if (c instanceof StringColumn s) {
        bytes += (s.dictionary().size() + 63L) / 64 * 8;
      }
    }
    this.stateBytes = bytes;
  }

  @Override
  public List<Partial> call() {
    if (segment.verify() != null) {
      // Its file is damaged: never read. Its source reports it and moves it to quarantine.
      return List.of();
    }
    int lo = segment.firstRowAtOrAfter(plan.startTime());
    int hi =
        plan.endTime() == Long.MAX_VALUE
            ? segment.rows()
            : segment.firstRowAtOrAfter(plan.endTime() + 1);
    if (lo >= hi) {
      return List.of();
    }
    control.checkpoint();
    ImmutableRoaringBitmap matched = null;
    if (!plan.filter().matchesAll()) {
      matched =
          plan.filter()
              .apply(
                  segment, MutableRoaringBitmap.bitmapOfRange(lo, hi), plan.useIndexes(), control);
      long n = matched.getCardinality();
      if (n == 0) {
        return List.of();
      }
      if (n == hi - lo) {
        matched = null; // every row of the range matches: use the range itself
      }
    }
    return plan.countsOnly() ? counts(lo, hi, matched) : aggregate(lo, hi, matched);
  }

  private List<Partial> counts(int lo, int hi, ImmutableRoaringBitmap matched) {
    List<Partial> out = new ArrayList<>();
    BucketWalk buckets = new BucketWalk(segment, plan.granularity(), hi);
    int r = lo;
    while (r < hi) {
      control.checkpoint();
      buckets.at(r);
      long bucket = buckets.start;
      int end = buckets.end;
      long n = matched == null ? end - r : matched.rangeCardinality(r, end);
      if (n > 0) {
        AggState.Count c = (AggState.Count) newState(false);
        c.addCount(n);
        emit(out, new Partial(bucket, List.of(), c));
      }
      r = end;
    }
    return out;
  }

  private List<Partial> aggregate(int lo, int hi, ImmutableRoaringBitmap matched) {
    if (plan.groupBy().isEmpty() && plan.fn() != AggFn.LAST_VALUE && plan.fn() != AggFn.ANY) {
      return aggregateInBatches(lo, hi, matched);
    }
    List<Partial> out = new ArrayList<>();
    ValueReader reader = plan.field() == null ? null : ValueReader.of(segment.column(plan.field()));
    GroupKeys groups = GroupKeys.of(segment, plan.groupBy());
    int bound = groups.denseBound();
    boolean byTime = plan.fn() == AggFn.LAST_VALUE || plan.fn() == AggFn.ANY;
    boolean hasField = plan.field() != null;
    BucketWalk buckets = new BucketWalk(segment, plan.granularity(), hi);
    RowCursor cursor = RowCursor.of(matched, lo, hi, BATCH);
    DoubleBuffer dense = reader == null ? null : reader.denseDoubles();
    boolean values = !byTime && AggState.takesValues(plan.fn()) && dense != null;
    boolean keepsValues = values && AggState.keepsValues(plan.fn());
    int[] rows = new int[BATCH];
    int[] ids = new int[BATCH];
    GroupCount seen = new GroupCount(groups, bound);
    // With a known bound (one string field, or none) ids ascend as the groups' values do, so a
    // bucket's groups come out in result order by sorting ids, without comparing strings.
    boolean idsInOrder = bound > 0;
    GroupQuantiles quantiles =
        keepsValues && bound > 0 && bound <= DENSE_GROUPS
            ? new GroupQuantiles(plan.level(), bound)
            : null;
    long quantileBytes = 0;
    int r = lo;
    while (r < hi) {
      buckets.at(r);
      long bucket = buckets.start;
      int end = buckets.end;
      boolean finish = shared.sole(bucket, buckets.length);
      int first = out.size();
      if (quantiles != null) {
        int n;
        while ((n = cursor.next(rows, end)) > 0) {
          control.checkpoint();
          groups.groups(rows, n, ids);
          seen.add(ids, n);
          quantiles.add(ids, dense, rows, n, n < rows.length); // a short batch is the last
          if (quantiles.bytes() > quantileBytes) {
            control.claim(quantiles.bytes() - quantileBytes);
            quantileBytes = quantiles.bytes();
          }
        }
        int met = quantiles.drain();
        control.claim(met * AggState.EMPTY_BYTES);
        for (int k = 0; k < met; k++) {
          AggState s = finish ? FixedState.of(quantiles.quantile(k)) : quantiles.state(k);
          emit(out, new Partial(bucket, groups.values(quantiles.group(k)), s)); // ids ascend
        }
        r = end;
        continue;
      }
      States states = new States(bound > 0 && bound <= DENSE_GROUPS ? bound : -1);
      int n;
      while ((n = cursor.next(rows, end)) > 0) {
        control.checkpoint();
        groups.groups(rows, n, ids);
        seen.add(ids, n);
        if (values) {
          addValues(states, ids, dense, rows, n, hasField);
        } else {
          for (int i = 0; i < n; i++) {
            add(states, ids[i], reader, rows[i], byTime, hasField);
          }
        }
      }
      states.drain(
          idsInOrder,
          (group, state) -> {
            state.seal(reader);
            if (!state.isEmpty()) {
              AggState s = finish ? state.finishEarly(buckets.length) : state;
              emit(out, new Partial(bucket, groups.values(group), s));
            }
          });
      if (!idsInOrder) {
        inGroupOrder(out, first);
      }
      r = end;
    }
    return out;
  }

  /** Puts one bucket's partials, from {@code first} on, in result order as PartialMerge expects. */
  private static void inGroupOrder(List<Partial> out, int first) {
    out.subList(first, out.size())
        .sort((a, b) -> ResultRows.Key.compareGroups(a.group(), b.group()));
  }

  /**
   * Without groups, each bucket has one state, fed whole row ranges (no filter) or batches of
   * matching rows, so that aggregates loop over primitive arrays.
   */
  private List<Partial> aggregateInBatches(int lo, int hi, ImmutableRoaringBitmap matched) {
    List<Partial> out = new ArrayList<>();
    ValueReader reader = plan.field() == null ? null : ValueReader.of(segment, plan.field());
    boolean hasField = plan.field() != null;
    BucketWalk buckets = new BucketWalk(segment, plan.granularity(), hi);
    RowCursor cursor = matched == null ? null : RowCursor.of(matched, lo, hi, BATCH);
    int[] batch = matched == null ? null : new int[BATCH];
    int r = lo;
    while (r < hi) {
      buckets.at(r);
      long bucket = buckets.start;
      int end = buckets.end;
      control.checkpoint();
      AggState state = newState(hasField);
      if (cursor == null) {
        state.addRange(reader, r, end);
      } else {
        int n;
        while ((n = cursor.next(batch, end)) > 0) {
          control.checkpoint();
          state.addRows(reader, batch, n);
        }
      }
      state.seal(reader);
      if (!state.isEmpty()) {
        emit(out, new Partial(bucket, List.of(), state));
      }
      r = end;
    }
    return out;
  }

  /** Grouped numeric aggregation over a dense double column, for one batch of rows. */
  private void addValues(
      States states, int[] ids, DoubleBuffer values, int[] rows, int n, boolean hasField) {
    for (int i = 0; i < n; i++) {
      stateOf(states, ids[i], hasField).addValue(values.get(rows[i]));
    }
  }

  private AggState stateOf(States states, int group, boolean hasField) {
    AggState s = states.get(group);
    if (s == null) {
      s = newState(hasField);
      states.put(group, s);
    }
    return s;
  }

  private void add(
      States states, int group, ValueReader reader, int row, boolean byTime, boolean hasField) {
    stateOf(states, group, hasField)
        .add(reader, row, byTime ? segment.timestamp(row) : 0, segment.orderKey(row));
  }

  /** A new state, its memory claimed against the query's budget. */
  private AggState newState(boolean hasField) {
    control.claim(stateBytes);
    return AggState.create(plan.fn(), plan.level(), hasField);
  }

  /**
   * Adds a partial to the task's output. Its state's growth beyond what was claimed at creation
   * ({@link #stateBytes}: quantile values, distinct ids listed beside or kept in the bitset
   * claimed) is claimed now; and one task with more (bucket, group) rows than a result may have
   * fails the query at once.
   */
  private void emit(List<Partial> out, Partial p) {
    long grown = p.state().retainedBytes() - stateBytes;
    if (grown > 0) {
      control.claim(grown);
    }
    if (++partials > QueryEngine.MAX_ROWS) {
      throw QueryEngine.tooManyRows();
    }
    out.add(p);
  }

  /**
   * The distinct groups one task has met, so that a query over the group limit fails after one
   * batch past it, not after every group has been built. Group ids below the limit are not counted:
   * they cannot pass it.
   */
  private static final class GroupCount {
    private final GroupKeys groups;
    private final BitSet dense;
    private int count;

    GroupCount(GroupKeys groups, int bound) {
      this.groups = groups;
      // Dense ids below the limit cannot pass it: they are not counted (their GroupKeys has no
      // tuples, so the count below stays 0).
      this.dense = bound > QueryEngine.MAX_GROUPS ? new BitSet(bound) : null;
    }

    void add(int[] ids, int n) {
      if (dense != null) {
        for (int i = 0; i < n; i++) {
          if (!dense.get(ids[i])) {
            dense.set(ids[i]);
            count++;
          }
        }
      } else {
        count = groups.size();
      }
      if (count > QueryEngine.MAX_GROUPS) {
        throw QueryEngine.tooManyGroups();
      }
    }
  }

  /** The states of one bucket by group id: an array for small dense ids, else a map. */
  private static final class States {
    private final AggState[] dense;
    private final Map<Integer, AggState> sparse;

    private int[] order = new int[16];
    private int count;

    States(int bound) {
      dense = bound > 0 ? new AggState[bound] : null;
      sparse = bound > 0 ? null : new HashMap<>();
    }

    AggState get(int group) {
      return dense != null ? dense[group] : sparse.get(group);
    }

    void put(int group, AggState s) {
      if (dense != null) {
        dense[group] = s;
      } else {
        sparse.put(group, s);
      }
      if (count == order.length) {
        order = Arrays.copyOf(order, count * 2);
      }
      order[count++] = group;
    }

    /** Hands out the states in the order the groups were met, or by ascending id. */
    void drain(boolean byId, BiConsumer<Integer, AggState> sink) {
      if (byId) {
        Arrays.sort(order, 0, count);
      }
      for (int i = 0; i < count; i++) {
        sink.accept(order[i], get(order[i]));
      }
    }
  }
}
