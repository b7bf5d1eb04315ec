package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.remote.RemoteWrite;
import org.junit.jupiter.api.Test;

/** Which table a remote-written series goes to, with and without the sender's metadata. */
class RemoteWriteTypesTest {
  private static RemoteWrite.Metadata meta(RemoteWrite.MetricType type, String family) {
    return new RemoteWrite.Metadata(type, family, "", "");
  }

  /**
   * Prometheus sends metadata once a minute, often after a family's first samples: a histogram's
   * series must go to the sum table from the first one, as they will once its metadata is known.
   */
  @Test
  void withoutMetadataTheReservedSuffixesAreCounterLike() {
    for (String name :
        new String[] {
          "http_requests_total",
          "rpc_duration_seconds_bucket",
          "rpc_duration_seconds_count",
          "rpc_duration_seconds_sum"
        }) {
      assertTrue(RemoteWriteRoute.counterLike(name, null), name);
      RemoteWrite.MetricType type =
          name.endsWith("_total")
              ? RemoteWrite.MetricType.COUNTER
              : RemoteWrite.MetricType.HISTOGRAM;
      assertTrue(RemoteWriteRoute.counterLike(name, meta(type, "x")), name + " with metadata");
    }
    assertFalse(RemoteWriteRoute.counterLike("node_temperature_celsius", null));
    assertFalse(RemoteWriteRoute.counterLike("rpc_duration_seconds", null), "a summary quantile");
  }

  @Test
  void metadataWinsOverTheName() {
    assertFalse(
        RemoteWriteRoute.counterLike(
            "queue_item_count", meta(RemoteWrite.MetricType.GAUGE, "queue_item_count")));
    assertTrue(
        RemoteWriteRoute.counterLike(
            "jobs_processed", meta(RemoteWrite.MetricType.COUNTER, "jobs_processed")));
    assertFalse(
        RemoteWriteRoute.counterLike(
            "rpc_latency", meta(RemoteWrite.MetricType.SUMMARY, "rpc_latency")),
        "a summary's quantile series is a gauge");
  }
}
