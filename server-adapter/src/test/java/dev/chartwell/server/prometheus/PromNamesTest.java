package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.http.ApiException;
import org.junit.jupiter.api.Test;

class PromNamesTest {
  @Test
  void metricNamesFollowPrometheusOtlpTranslation() {
    assertEquals(
        "http_server_duration_milliseconds",
        PromNames.metric("http.server.duration", "ms", false, false));
    assertEquals("http_requests_total", PromNames.metric("http.requests", "", false, true));
    assertEquals("http_requests_total", PromNames.metric("http_requests_total", "", false, true));
    assertEquals("cpu_utilization_ratio", PromNames.metric("cpu.utilization", "1", true, false));
    assertEquals("requests", PromNames.metric("requests", "{request}", false, false));
    assertEquals(
        "throughput_bytes_per_second", PromNames.metric("throughput", "By/s", true, false));
    assertEquals("memory_bytes", PromNames.metric("memory_bytes", "By", true, false));
    assertEquals("_2xx_responses", PromNames.metric("2xx.responses", "", true, false));
    assertEquals("http_method", PromNames.label("http.method"));
    assertEquals("key_0abc", PromNames.label("0abc"));
  }

  @Test
  void timesDurationsAndValuesAsPrometheusWritesThem() {
    assertEquals(1_700_000_000_123L, Params.parseTime("t", "1700000000.123"));
    assertEquals(1_700_000_000_000L, Params.parseTime("t", "2023-11-14T22:13:20Z"));
    assertEquals(5_400_000L, Params.parseDuration("d", "1h30m"));
    assertEquals(30_000L, Params.parseDuration("d", "30"));
    assertEquals(250L, Params.parseDuration("d", "250ms"));
    ApiException bad = assertThrows(ApiException.class, () -> Params.parseDuration("step", "soon"));
    assertTrue(bad.getMessage().contains("\"step\""), bad.getMessage());
    assertEquals("1", Params.value(1.0));
    assertEquals("0.5", Params.value(0.5));
    assertEquals("1000000000000000000000", Params.value(1e21));
    assertEquals("+Inf", Params.value(Double.POSITIVE_INFINITY));
    assertEquals("NaN", Params.value(Double.NaN));
    assertEquals("1700000000.123", Params.seconds(1_700_000_000_123L).toPlainString());
  }

  @Test
  void bucketBoundsAndTheirJsonArrays() {
    assertEquals("0.1", OtlpHistograms.formatBound(0.1));
    assertEquals("1", OtlpHistograms.formatBound(1.0));
    assertEquals("250", OtlpHistograms.formatBound(250));
    assertEquals("0.00001", OtlpHistograms.formatBound(1e-5));
    assertEquals("+Inf", OtlpHistograms.formatBound(Double.POSITIVE_INFINITY));
    assertEquals("-5", OtlpHistograms.formatBound(-5));
  }
}
