package dev.chartwell.micrometer;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import java.util.concurrent.TimeUnit;

/** A cumulative timer that also counts its recordings per explicit bucket, in its base unit. */
final class BucketedTimer extends CumulativeTimer {
  private final Buckets buckets;
  private final TimeUnit baseUnit;

  BucketedTimer(
      Id id,
      Clock clock,
      DistributionStatisticConfig config,
      PauseDetector pauseDetector,
      TimeUnit baseUnit) {
    super(id, clock, config, pauseDetector, baseUnit, false);
    this.baseUnit = baseUnit;
    // Configured bounds are nanoseconds; points carry the base unit.
    double nanosPerUnit = baseUnit.toNanos(1);
    this.buckets =
        Buckets.of(
            config.getHistogramBuckets(false), 1 / nanosPerUnit, Buckets.OTEL_DEFAULT_BOUNDS);
  }

  @Override
  protected void recordNonNegative(long amount, TimeUnit unit) {
    super.recordNonNegative(amount, unit);
    buckets.record((double) unit.toNanos(amount) / baseUnit.toNanos(1));
  }

  Buckets buckets() {
    return buckets;
  }
}
