package dev.chartwell.micrometer;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.cumulative.CumulativeDistributionSummary;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/** A cumulative distribution summary that also counts its recordings per explicit bucket. */
final class BucketedSummary extends CumulativeDistributionSummary {
  private final Buckets buckets;

  BucketedSummary(Id id, Clock clock, DistributionStatisticConfig config, double scale) {
    super(id, clock, config, scale, false);
    this.buckets = Buckets.of(config.getHistogramBuckets(false), 1, Buckets.OTEL_DEFAULT_BOUNDS);
  }

  @Override
  protected void recordNonNegative(double amount) {
    super.recordNonNegative(amount);
    buckets.record(amount);
  }

  Buckets buckets() {
    return buckets;
  }
}
