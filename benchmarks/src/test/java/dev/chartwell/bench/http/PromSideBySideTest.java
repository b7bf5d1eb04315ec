package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.prometheus.remote.RemoteWrite;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import org.junit.jupiter.api.Test;

/** The Prometheus side-by-side's data (the same samples by both protocols) and its comparison. */
class PromSideBySideTest {
  static final long START = 1_767_225_600_000L;

  @Test
  void bothProtocolsCarryTheSameSamples() {
    RemoteWrite.Request rw = PromSideBySide.remoteWrite(3, START, 60, 4);
    var points =
        PromSideBySide.otlp(3, START, 60, 4)
            .getResourceMetrics(0)
            .getScopeMetrics(0)
            .getMetrics(0)
            .getGauge()
            .getDataPointsList();
    assertEquals(12, rw.samples());
    assertEquals(12, points.size());
    int p = 0;
    for (RemoteWrite.TimeSeries s : rw.series()) {
      for (int i = 0; i < s.timestamps().length; i++) {
        NumberDataPoint d = points.get(p++);
        assertEquals(s.timestamps()[i] * 1_000_000L, d.getTimeUnixNano());
        assertEquals(s.values()[i], d.getAsDouble());
        assertEquals(s.labels().get("job"), d.getAttributes(0).getValue().getStringValue());
        assertEquals(s.labels().get("instance"), d.getAttributes(1).getValue().getStringValue());
      }
    }
    assertEquals(START + 60 * 15_000L, rw.series().get(0).timestamps()[0]);
  }

  @Test
  void answersAgreeWithinTheToleranceAndDifferBeyondIt() throws Exception {
    JsonNode a = matrix("1.0000000000001");
    assertNull(PromSideBySide.difference(a, matrix("1")));
    assertTrue(PromSideBySide.difference(a, matrix("1.001")).contains("point 0"));
    assertTrue(PromSideBySide.difference(a, Http.JSON.readTree("[]")).contains("1 series"));
  }

  private static JsonNode matrix(String value) throws Exception {
    return Http.JSON.readTree(
        "[{\"metric\":{\"job\":\"j0\"},\"values\":[[1767225600,\"" + value + "\"]]}]");
  }
}
