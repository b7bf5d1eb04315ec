package dev.chartwell.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A chart query: up to five series over one time range, bucketed by a granularity. Build one with
 * {@link #over(Instant, Instant)} (or {@link #last(Duration)}):
 *
 * <pre>{@code
 * ChartQuery q = ChartQuery.over(start, end)
 *     .source("app-logs")
 *     .every(Granularity.MINUTE)
 *     .series(Series.count().where("SeverityText:error"), Series.quantile(0.95, "Duration"))
 *     .groupBy("ServiceName")
 *     .build();
 * }</pre>
 *
 * @param startTime range start, epoch ms, inclusive
 * @param endTime range end, epoch ms, inclusive
 * @param granularity bucket length, or {@link Granularity#AUTO} ({@code null} means auto too)
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
    granularity = granularity == null ? Granularity.AUTO : granularity;
  }

  /**
   * @return the granularity, resolving auto from the range
   */
  public Granularity effectiveGranularity() {
    return granularity.isAuto() ? Granularity.auto(startTime, endTime) : granularity;
  }

  /**
   * Starts a query over a time range.
   *
   * @param start range start, inclusive
   * @param end range end, inclusive
   * @return a builder
   */
  public static Builder over(Instant start, Instant end) {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    return new Builder(start.toEpochMilli(), end.toEpochMilli());
  }

  /**
   * Starts a query over a time range.
   *
   * @param startMillis range start, epoch milliseconds, inclusive
   * @param endMillis range end, epoch milliseconds, inclusive
   * @return a builder
   */
  public static Builder over(long startMillis, long endMillis) {
    return new Builder(startMillis, endMillis);
  }

  /**
   * Starts a query over the latest stretch of time, ending now (the system clock).
   *
   * @param span how far back, for example {@code Duration.ofHours(1)}
   * @return a builder
   */
  public static Builder last(Duration span) {
    Objects.requireNonNull(span, "span");
    long now = System.currentTimeMillis();
    return new Builder(now - span.toMillis(), now);
  }

  /**
   * Builds a {@link ChartQuery}. Series that name no source read the {@link #source(String)} given
   * here; {@link #groupBy(String...)} applies to every series.
   */
  public static final class Builder {
    private final long start;
    private final long end;
    private Granularity granularity = Granularity.AUTO;
    private String source;
    private final List<Series> series = new ArrayList<>();
    private List<String> groupBy;
    private SeriesReturnType returnType = SeriesReturnType.COLUMN;

    private Builder(long start, long end) {
      this.start = start;
      this.end = end;
    }

    /**
     * @param sourceId the source read by every series that names none
     * @return this builder
     */
    public Builder source(String sourceId) {
      this.source = Objects.requireNonNull(sourceId, "sourceId");
      return this;
    }

    /**
     * @param granularity the bucket length (default {@link Granularity#AUTO})
     * @return this builder
     */
    public Builder every(Granularity granularity) {
      this.granularity = Objects.requireNonNull(granularity, "granularity");
      return this;
    }

    /**
     * @param series series to add, in the order their values appear in each row (one to five in
     *     all)
     * @return this builder
     */
    public Builder series(Series... series) {
      for (Series s : series) {
        this.series.add(Objects.requireNonNull(s, "series"));
      }
      return this;
    }

    /**
     * @param fields the fields every series is grouped by (at most 10)
     * @return this builder
     */
    public Builder groupBy(String... fields) {
      this.groupBy = List.of(fields);
      return this;
    }

    /**
     * Returns each row's {@code series[0] / series[1]} instead of the two values (exactly two
     * series).
     *
     * @return this builder
     */
    public Builder ratio() {
      this.returnType = SeriesReturnType.RATIO;
      return this;
    }

    /**
     * @return the query (validated when it runs: {@link InvalidQueryException} names what is wrong)
     */
    public ChartQuery build() {
      List<Series> all = new ArrayList<>(series.size());
      for (Series s : series) {
        if (s.sourceId() == null && source != null) {
          s = s.from(source);
        }
        if (groupBy != null) {
          s = s.groupBy(groupBy.toArray(String[]::new));
        }
        all.add(s);
      }
      return new ChartQuery(start, end, granularity, all, returnType);
    }
  }
}
