package dev.chartwell.engine;

import java.util.Locale;
import java.util.Optional;

/** Aggregation functions of a chart series. */
public enum AggFn {
  /** number of matching events (with a field: events that have it). */
  COUNT,
  /** number of distinct values of the field, exact, any type. */
  COUNT_DISTINCT,
  /** sum of the numeric values. */
  SUM,
  /** mean of the numeric values. */
  AVG,
  /** smallest numeric value. */
  MIN,
  /** largest numeric value. */
  MAX,
  /** exact quantile at {@code level}, linear interpolation between closest ranks. */
  QUANTILE,
  /** numeric value of the event with the greatest timestamp (the last appended on ties). */
  LAST_VALUE,
  /** numeric value of the earliest event (the first appended on ties). */
  ANY,
  /** quantile 0.5. */
  P50,
  /** quantile 0.9. */
  P90,
  /** quantile 0.95. */
  P95,
  /** quantile 0.99. */
  P99,
  /** count divided by the bucket length in seconds. */
  COUNT_PER_SEC,
  /** count divided by the bucket length in minutes. */
  COUNT_PER_MIN,
  /** count divided by the bucket length in hours. */
  COUNT_PER_HOUR;

  /**
   * @return the name used in requests, for example {@code count_distinct}
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name a wire name
   * @return the function, if the name is one
   */
  public static Optional<AggFn> fromWireName(String name) {
    for (AggFn f : values()) {
      if (f.wireName().equals(name)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /**
   * @return whether this is a count (no field needed; integer result for {@link #COUNT})
   */
  public boolean isCount() {
    return this == COUNT
        || this == COUNT_PER_SEC
        || this == COUNT_PER_MIN
        || this == COUNT_PER_HOUR;
  }

  /**
   * @return whether this is a quantile, with a fixed or a requested level
   */
  public boolean isQuantile() {
    return this == QUANTILE || this == P50 || this == P90 || this == P95 || this == P99;
  }

  /**
   * @param requested the series' {@code level}, or {@code null}
   * @return the quantile level this function computes
   */
  public double quantileLevel(Double requested) {
    return switch (this) {
      case P50 -> 0.5;
      case P90 -> 0.9;
      case P95 -> 0.95;
      case P99 -> 0.99;
      default -> requested == null ? 0.5 : requested;
    };
  }
}
