package dev.chartwell.engine.exec;

import dev.chartwell.engine.agg.AggState;
import dev.chartwell.engine.query.QueryControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Merges the partials of a query's tasks into its rows without hashing: every task lists its
 * partials in result order (bucket, then group values), and tasks over segments in time order
 * follow one another, so one stable sort of a series' partials is nearly a concatenation of sorted
 * runs. Equal neighbours then merge in task order, and the series merge like sorted lists.
 */
final class PartialMerge {
  private static final int CHECK_EVERY = 4096;

  private PartialMerge() {}

  /** The rows of a result in order, and the states to finish into their values. */
  record Rows(List<ResultRows.Key> keys, List<Number[]> values, List<Finishing> states) {}

  /** A state to finish, and where its value goes. */
  record Finishing(Number[] values, int series, AggState state) {}

  /**
   * @param tasks the partials of each task of one series, each task's in result order
   * @param control the query's control
   * @return one partial per (bucket, group) in result order, states merged in task order
   * @throws dev.chartwell.engine.query.QueryValidationException past {@link QueryEngine#MAX_ROWS}
   */
  static List<Partial> series(List<List<Partial>> tasks, QueryControl control) {
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
   * @param control the query's control
   * @return the rows, ordered
   * @throws dev.chartwell.engine.query.QueryValidationException past {@link QueryEngine#MAX_GROUPS}
   *     or {@link QueryEngine#MAX_ROWS}
   */
  static Rows rows(List<List<Partial>> series, QueryControl control) {
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
    if (keys.size() > QueryEngine.MAX_GROUPS) {
      Set<List<String>> groups = new HashSet<>();
      for (ResultRows.Key key : keys) {
        if (groups.add(key.group()) && groups.size() > QueryEngine.MAX_GROUPS) {
          throw QueryEngine.tooManyGroups();
        }
      }
    }
    if (keys.size() > QueryEngine.MAX_ROWS) {
      throw QueryEngine.tooManyRows();
    }
    return new Rows(keys, values, states);
  }

  /** Result order ({@link ResultRows.Key#ORDER}) of two partials. */
  static int compare(Partial a, Partial b) {
    return ResultRows.Key.compare(a.bucket(), a.group(), b.bucket(), b.group());
  }
}
