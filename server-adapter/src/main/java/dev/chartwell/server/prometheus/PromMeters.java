package dev.chartwell.server.prometheus;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What the Prometheus routes count: remote write bodies and samples (received, stored, skipped as
 * already stored) and PromQL queries by outcome.
 */
public final class PromMeters {
  private final Counter bytes;
  private final Counter received;
  private final Counter stored;
  private final Counter skipped;
  private final MeterRegistry registry;

  /**
   * @param registry where the counters are registered
   */
  public PromMeters(MeterRegistry registry) {
    this.registry = registry;
    bytes =
        Counter.builder("chartwell.ingest.bytes")
            .tag("protocol", "prometheus_remote_write")
            .description("compressed request bytes received")
            .baseUnit("bytes")
            .register(registry);
    received =
        Counter.builder("chartwell.ingest.events")
            .tag("protocol", "prometheus_remote_write")
            .description("samples received")
            .register(registry);
    stored =
        Counter.builder("chartwell.remote.write.samples")
            .tag("outcome", "stored")
            .description("remote write samples by outcome")
            .register(registry);
    skipped =
        Counter.builder("chartwell.remote.write.samples")
            .tag("outcome", "skipped")
            .description("remote write samples by outcome")
            .register(registry);
  }

  void received(long bodyBytes, long samples) {
    bytes.increment(bodyBytes);
    received.increment(samples);
  }

  void stored(long samples) {
    stored.increment(samples);
  }

  void skipped(long samples) {
    skipped.increment(samples);
  }

  /**
   * Counts a PromQL query.
   *
   * @param outcome {@code completed}, {@code bad_data}, {@code execution} or {@code timeout} (past
   *     its timeout, or cancelled when its client went away)
   */
  void query(String outcome) {
    Counter.builder("chartwell.promql.queries")
        .tag("outcome", outcome)
        .description("PromQL queries by outcome")
        .register(registry)
        .increment();
  }
}
