package dev.chartwell.prometheus.promql;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * How the {@link Evaluator} runs a query.
 *
 * @param lookbackDeltaMs how far back an instant vector selector looks for a sample (Prometheus'
 *     {@code --query.lookback-delta}, 5 minutes by default)
 * @param maxSamples the most samples one query may load; more is an {@link
 *     PromQlException.Kind#EXECUTION} error
 * @param cancelled checked in the evaluation loops: when it answers true the query stops with a
 *     {@link PromQlException.Kind#TIMEOUT} error (e.g. a deadline for {@code --query-timeout})
 */
public record EvalSettings(long lookbackDeltaMs, long maxSamples, BooleanSupplier cancelled) {
  /** Prometheus' default lookback delta: 5 minutes. */
  public static final long DEFAULT_LOOKBACK_MS = 5 * 60_000L;

  /** Prometheus' default {@code --query.max-samples}: 50 million. */
  public static final long DEFAULT_MAX_SAMPLES = 50_000_000L;

  /** The defaults: 5 minutes of lookback, 50 million samples, never cancelled. */
  public static final EvalSettings DEFAULTS =
      new EvalSettings(DEFAULT_LOOKBACK_MS, DEFAULT_MAX_SAMPLES, () -> false);

  /** Checks the values. */
  public EvalSettings {
    if (lookbackDeltaMs <= 0) {
      throw new IllegalArgumentException("the lookback delta must be positive: " + lookbackDeltaMs);
    }
    if (maxSamples <= 0) {
      throw new IllegalArgumentException("the sample limit must be positive: " + maxSamples);
    }
    Objects.requireNonNull(cancelled, "cancelled");
  }

  /**
   * Settings that stop the query once a deadline has passed.
   *
   * @param lookbackDeltaMs the lookback delta
   * @param maxSamples the sample limit
   * @param deadlineNanos a {@link System#nanoTime()} value
   * @return the settings
   */
  public static EvalSettings withDeadline(
      long lookbackDeltaMs, long maxSamples, long deadlineNanos) {
    return new EvalSettings(
        lookbackDeltaMs, maxSamples, () -> System.nanoTime() - deadlineNanos > 0);
  }
}
