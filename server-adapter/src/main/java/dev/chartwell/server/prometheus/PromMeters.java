package dev.chartwell.server.prometheus;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** What remote write counts: bodies, samples received, stored and skipped (already stored). */
public final class PromMeters {
  private final Counter bytes;
  private final Counter received;
  private final Counter stored;
  private final Counter skipped;

  /**
   * @param registry where the counters are registered
   */
  public PromMeters(MeterRegistry registry) {
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
}
