package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SeriesReturnType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The last step of every chart answer, whichever backend computed its values: the rows ordered by
 * bucket, then group values, and the ratio of the two series when the query asks for one. The
 * engine and the ClickHouse backend both end here, so they cannot order or divide differently.
 */
public final class ResultRows {
  private ResultRows() {}

  /**
   * A (bucket, group) of a result.
   *
   * @param bucket the bucket's first millisecond
   * @param group the group values, in the order of the query's group fields
   */
  public record Key(long bucket, List<String> group) {
    /** By bucket, then group values in order, a shorter list first when one is a prefix. */
    static final Comparator<Key> ORDER = (a, b) -> compare(a.bucket, a.group, b.bucket, b.group);

    /** {@link #ORDER} of two (bucket, group) pairs, wherever they are held. */
    static int compare(long bucketA, List<String> groupA, long bucketB, List<String> groupB) {
      int c = Long.compare(bucketA, bucketB);
      return c != 0 ? c : compareGroups(groupA, groupB);
    }

    /** Group values in order, a shorter list first when one is a prefix of the other. */
    static int compareGroups(List<String> a, List<String> b) {
      if (a == b) {
        return 0;
      }
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        String x = a.get(i);
        String y = b.get(i);
        int c = x == y ? 0 : x.compareTo(y);
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(a.size(), b.size());
    }
  }

  /**
   * @param query the query answered
   * @param granularity the result's bucket width
   * @param rows each row's finished values, one per series ({@code null} where a series has none)
   * @return the result, ordered, with the ratio taken when asked
   */
  public static ChartResult render(
      ChartQuery query, Granularity granularity, Map<Key, Number[]> rows) {
    List<Key> keys = new ArrayList<>(rows.keySet());
    keys.sort(Key.ORDER);
    List<Number[]> values = new ArrayList<>(keys.size());
    for (Key k : keys) {
      values.add(rows.get(k));
    }
    return renderOrdered(query, granularity, keys, values);
  }

  /**
   * @param query the query answered
   * @param granularity the result's bucket width
   * @param keys the rows' keys, already in {@link Key#ORDER}
   * @param values each row's finished values, one per series ({@code null} where a series has none)
   * @return the result, with the ratio taken when asked
   */
  static ChartResult renderOrdered(
      ChartQuery query, Granularity granularity, List<Key> keys, List<Number[]> values) {
    boolean ratio = query.returnType() == SeriesReturnType.RATIO;
    List<ChartResult.Row> out = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      Key k = keys.get(i);
      Number[] v = values.get(i);
      List<Number> row = ratio ? Collections.singletonList(ratio(v[0], v[1])) : Arrays.asList(v);
      out.add(new ChartResult.Row(k.bucket(), k.group(), row));
    }
    return new ChartResult(granularity, out);
  }

  /**
   * The result of one series whose partials are its rows: each state finished as its row is made.
   *
   * @param granularity the result's bucket width
   * @param partials the series' merged partials, in result order
   * @param control the query's control
   * @return the result
   */
  static ChartResult ofOneSeries(
      Granularity granularity, List<Partial> partials, QueryControl control) {
    List<ChartResult.Row> out = new ArrayList<>(partials.size());
    for (Partial p : partials) {
      if ((out.size() & 4095) == 0) {
        control.checkpoint();
      }
      Number value = p.state().finish(granularity.millis());
      out.add(new ChartResult.Row(p.bucket(), p.group(), Collections.singletonList(value)));
    }
    return new ChartResult(granularity, out);
  }

  private static Number ratio(Number numerator, Number denominator) {
    double n = numerator == null ? 0 : numerator.doubleValue();
    if (denominator == null || denominator.doubleValue() == 0) {
      return null;
    }
    return n / denominator.doubleValue();
  }
}
