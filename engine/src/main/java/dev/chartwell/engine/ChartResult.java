package dev.chartwell.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The answer to a chart query: one row per (bucket, group) in which at least one series matched,
 * sorted by bucket, then group.
 *
 * @param granularity the bucket length used (auto resolved)
 * @param rows the rows
 */
public record ChartResult(Granularity granularity, List<Row> rows) {
  /** Copies the rows. */
  public ChartResult {
    rows = List.copyOf(rows);
  }

  /**
   * One row.
   *
   * @param bucket bucket start, epoch ms
   * @param group group values, one per groupBy field ({@code ""} when missing)
   * @param values per series: a {@link Long} for {@code count}, a {@link Double} otherwise, {@code
   *     null} when the series had nothing there (with ratio: one value, {@code null} when the
   *     denominator is missing or zero)
   */
  public record Row(long bucket, List<String> group, List<Number> values) {
    /** Copies the lists (values may hold nulls). */
    public Row {
      group = List.copyOf(group);
      values =
          values.size() == 1
              ? Collections.singletonList(values.get(0))
              : Collections.unmodifiableList(new ArrayList<>(values));
    }
  }
}
