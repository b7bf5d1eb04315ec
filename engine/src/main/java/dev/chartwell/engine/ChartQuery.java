package dev.chartwell.engine;

import java.util.List;

/**
 * A chart query: up to five series over one time range, bucketed by a granularity.
 *
 * @param startTime range start, epoch ms, inclusive
 * @param endTime range end, epoch ms, inclusive
 * @param granularity bucket length, or {@code null} for auto
 * @param series one to five series
 * @param returnType column (default) or ratio
 */
public record ChartQuery(
    long startTime,
    long endTime,
    Granularity granularity,
    List<Series> series,
    SeriesReturnType returnType) {

  /** Copies the series; a {@code null} return type means column. */
  public ChartQuery {
    series = series == null ? List.of() : List.copyOf(series);
    returnType = returnType == null ? SeriesReturnType.COLUMN : returnType;
  }

  /**
   * @return the granularity, resolving auto from the range
   */
  public Granularity effectiveGranularity() {
    return granularity != null ? granularity : Granularity.auto(startTime, endTime);
  }
}
