package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.agg.AggState;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Merges the partials of a query's tasks into its rows without hashing: every task lists its
 * partials in result order (bucket, then group values), and tasks over segments in time order
 * follow one another, so a series' tasks merge like sorted lists that touch only where segments
 * share buckets. Equal keys merge in task order, and the series merge like sorted lists.
 */
final class PartialMerge {
  private static final int CHECK_EVERY = 4096;

  /** A task whose keys overlap more than this many times its own count (plus the slack) ... */
  private static final int OVERLAP_FACTOR = 4;

  /** ... makes the rest of the series merge by sorting. */
  private static final int OVERLAP_SLACK = 1024;

  private PartialMerge() {}

  /** The rows of a result in order, and the states to finish into their values. */
  record Rows(List<ResultRows.Key> keys, List<Number[]> values, List<Finishing> states) {}

  /** A state to finish, and where its value goes. */
  record Finishing(Number[] values, int series, AggState state) {}

  /**
   * Merges the tasks' partials one task after another into the partials so far. Every task's list
   * is in result order with distinct keys, and tasks over segments in time order overlap only where
   * segments share buckets, so each task's list is placed by one binary search and only keys that
   * overlap the partials so far are compared: the rest are copied as they are. Equal keys merge in
   * task order. Where a task overlaps much of what came before (segments whose times interleave),
   * the rest of the tasks are merged by one stable sort instead.
   *
   * @param tasks the partials of each task of one series, each task's in result order
   * @param control the query's control
   * @return one partial per (bucket, group) in result order, states merged in task order
   * @throws dev.chartwell.engine.InvalidQueryException past {@link QueryEngine#MAX_ROWS}
   */
  static List<Partial> series(List<List<Partial>> tasks, QueryControl control) {
    ArrayList<Partial> merged = new ArrayList<>();
    for (int t = 0; t < tasks.size(); t++) {
      List<Partial> next = tasks.get(t);
      if (next.isEmpty()) {
        continue;
      }
      int from = firstNotBefore(merged, next.get(0));
      if (merged.size() - from > OVERLAP_FACTOR * next.size() + OVERLAP_SLACK) {
        List<List<Partial>> rest = new ArrayList<>();
        rest.add(merged);
        rest.addAll(tasks.subList(t, tasks.size()));
        return sorted(rest, control);
      }
      mergeInto(merged, from, next);
      if (merged.size() > QueryEngine.MAX_ROWS) {
        throw QueryEngine.tooManyRows();
      }
      control.checkpoint();
    }
    return merged;
  }

  /** The first index of {@code merged} whose key is not before {@code p}'s. */
  private static int firstNotBefore(List<Partial> merged, Partial p) {
    int lo = 0;
    int hi = merged.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compare(merged.get(mid), p) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Merges {@code next} into {@code merged}, whose keys from {@code from} on are not before {@code
   * next}'s first: that tail is taken off and merged back with {@code next}, and equal keys merge
   * {@code next}'s state into {@code merged}'s.
   */
  private static void mergeInto(ArrayList<Partial> merged, int from, List<Partial> next) {
    List<Partial> tailView = merged.subList(from, merged.size());
    List<Partial> tail = new ArrayList<>(tailView);
    tailView.clear();
    merged.ensureCapacity(from + tail.size() + next.size());
    int i = 0;
    int j = 0;
    while (i < tail.size() && j < next.size()) {
      Partial a = tail.get(i);
      Partial b = next.get(j);
      int c = compare(a, b);
      if (c <= 0) {
        if (c == 0) {
          a.state().merge(b.state());
          j++;
        }
        merged.add(a);
        i++;
      } else {
        merged.add(b);
        j++;
      }
    }
    merged.addAll(tail.subList(i, tail.size()));
    merged.addAll(next.subList(j, next.size()));
  }

  /** The partials of tasks that interleave: one stable sort, then equal neighbours merged. */
  private static List<Partial> sorted(List<List<Partial>> tasks, QueryControl control) {
    int total = 0;
    for (List<Partial> t : tasks) {
      total += t.size();
    }
    Partial[] all = new Partial[total];
    int n = 0;
    for (List<Partial> t : tasks) {
      for (Partial p : t) {
        all[n++] = p;
      }
    }
    control.checkpoint();
    Arrays.sort(all, PartialMerge::compare); // stable: equal keys stay in task order
    List<Partial> out = new ArrayList<>();
    for (int i = 0; i < n; ) {
      Partial first = all[i];
      int j = i + 1;
      while (j < n && compare(first, all[j]) == 0) {
        first.state().merge(all[j].state());
        j++;
      }
      out.add(first);
      if (out.size() > QueryEngine.MAX_ROWS) {
        throw QueryEngine.tooManyRows();
      }
      if ((out.size() & (CHECK_EVERY - 1)) == 0) {
        control.checkpoint();
      }
      i = j;
    }
    return out;
  }

  /**
   * Merges the series' ordered partials into rows, and checks the limits on the keys before any
   * state is finished.
   *
   * @param series each series' partials from {@link #series}
   * @param groupsAtMost an upper bound of the distinct groups, asked only past {@link
   *     QueryEngine#MAX_GROUPS} rows (when it is within the limit, the groups are not counted)
   * @param control the query's control
   * @return the rows, ordered
   * @throws dev.chartwell.engine.InvalidQueryException past {@link QueryEngine#MAX_GROUPS} or
   *     {@link QueryEngine#MAX_ROWS}
   */
  static Rows rows(List<List<Partial>> series, LongSupplier groupsAtMost, QueryControl control) {
    int k = series.size();
    int[] at = new int[k];
    List<ResultRows.Key> keys = new ArrayList<>();
    List<Number[]> values = new ArrayList<>();
    List<Finishing> states = new ArrayList<>();
    while (true) {
      Partial least = null;
      for (int i = 0; i < k; i++) {
        if (at[i] < series.get(i).size()) {
          Partial p = series.get(i).get(at[i]);
          if (least == null || compare(p, least) < 0) {
            least = p;
          }
        }
      }
      if (least == null) {
        break;
      }
      Number[] row = new Number[k];
      for (int i = 0; i < k; i++) {
        if (at[i] < series.get(i).size()) {
          Partial p = series.get(i).get(at[i]);
          if (p == least || compare(p, least) == 0) {
            states.add(new Finishing(row, i, p.state()));
            at[i]++;
          }
        }
      }
      keys.add(new ResultRows.Key(least.bucket(), least.group()));
      values.add(row);
      if ((keys.size() & (CHECK_EVERY - 1)) == 0) {
        control.checkpoint();
      }
    }
    checkGroups(groups(keys, ResultRows.Key::group), groupsAtMost);
    if (keys.size() > QueryEngine.MAX_ROWS) {
      throw QueryEngine.tooManyRows();
    }
    return new Rows(keys, values, states);
  }

  /**
   * Fails a result of more than {@link QueryEngine#MAX_GROUPS} distinct groups, unless it has no
   * more rows than that or its groups were bounded before. A segment hands out one list per group,
   * so the rows hold few distinct list instances: counting instances first clears nearly every
   * result without hashing its strings, and only one with more instances than the limit counts the
   * groups' values.
   *
   * @param groups each row's group values
   * @param groupsAtMost an upper bound of the distinct groups, asked only past the limit's rows
   * @throws dev.chartwell.engine.InvalidQueryException past {@link QueryEngine#MAX_GROUPS}
   */
  static void checkGroups(List<List<String>> groups, LongSupplier groupsAtMost) {
    if (groups.size() <= QueryEngine.MAX_GROUPS
        || groupsAtMost.getAsLong() <= QueryEngine.MAX_GROUPS) {
      return;
    }
    Set<List<String>> instances = Collections.newSetFromMap(new IdentityHashMap<>());
    for (List<String> group : groups) {
      if (instances.add(group) && instances.size() > QueryEngine.MAX_GROUPS) {
        if (new HashSet<>(groups).size() > QueryEngine.MAX_GROUPS) {
          throw QueryEngine.tooManyGroups();
        }
        return;
      }
    }
  }

  /**
   * @return a view of each row's group values
   */
  static <T> List<List<String>> groups(List<T> rows, Function<T, List<String>> groupOf) {
    return new AbstractList<>() {
      @Override
      public List<String> get(int i) {
        return groupOf.apply(rows.get(i));
      }

      @Override
      public int size() {
        return rows.size();
      }
    };
  }

  /** Result order ({@link ResultRows.Key#ORDER}) of two partials. */
  static int compare(Partial a, Partial b) {
    return ResultRows.Key.compare(a.bucket(), a.group(), b.bucket(), b.group());
  }
}
