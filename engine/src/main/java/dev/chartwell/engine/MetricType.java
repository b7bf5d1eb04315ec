package dev.chartwell.engine;

import java.util.Locale;
import java.util.Optional;

/** The OpenTelemetry metric data types a chart series can read. */
public enum MetricType {
  /** a value sampled at points in time; each series' last value in a bucket counts. */
  GAUGE,
  /** a counter (cumulative or delta); each series' increase in a bucket counts. */
  SUM,
  /** explicit-bucket histograms; quantiles from the bucket counts, or the observation count. */
  HISTOGRAM;

  /**
   * @return the name used in requests, for example {@code gauge}
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name a wire name
   * @return the type, if the name is one
   */
  public static Optional<MetricType> fromWireName(String name) {
    for (MetricType t : values()) {
      if (t.wireName().equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
