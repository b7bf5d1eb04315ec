package dev.chartwell.prometheus.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class RemoteWriteTest {
  @Test
  void roundTripKeepsLabelsSamplesStalenessAndMetadata() throws Exception {
    RemoteWrite.Request sent =
        new RemoteWrite.Request(
            List.of(
                new RemoteWrite.TimeSeries(
                    Labels.of("__name__", "up", "job", "prometheus", "instance", "é:9090"),
                    new long[] {1_700_000_000_000L, 1_700_000_015_000L, 1_700_000_030_000L},
                    new double[] {1, Double.NaN, SeriesData.STALE_NAN})),
            List.of(new RemoteWrite.Metadata(RemoteWrite.MetricType.COUNTER, "x_total", "h", "")));
    RemoteWrite.Request got = RemoteWrite.decode(RemoteWrite.encode(sent), 1 << 20);
    assertEquals(1, got.series().size());
    RemoteWrite.TimeSeries s = got.series().get(0);
    assertEquals(sent.series().get(0).labels(), s.labels());
    assertArrayEquals(sent.series().get(0).timestamps(), s.timestamps());
    assertEquals(1.0, s.values()[0]);
    assertTrue(Double.isNaN(s.values()[1]) && !SeriesData.isStale(s.values()[1]));
    assertTrue(SeriesData.isStale(s.values()[2]));
    assertEquals(sent.metadata(), got.metadata());
    assertEquals(3, got.samples());
  }

  @Test
  void seriesDataEncodeAsARequestWithoutMetadata() throws Exception {
    SeriesData a =
        new SeriesData(
            Labels.of("__name__", "up", "job", "api"),
            new long[] {1000, 2000},
            new double[] {1, SeriesData.STALE_NAN});
    RemoteWrite.Request got = RemoteWrite.decode(RemoteWrite.encode(List.of(a)), 1 << 20);
    assertEquals(a.labels(), got.series().get(0).labels());
    assertArrayEquals(a.timestamps(), got.series().get(0).timestamps());
    assertTrue(SeriesData.isStale(got.series().get(0).values()[1]));
    assertEquals(List.of(), got.metadata());
  }

  @Test
  void refusesWhatIsNotARequest() throws Exception {
    var e =
        assertThrows(
            RemoteWrite.FormatException.class,
            () -> RemoteWrite.decode("hello".getBytes(StandardCharsets.UTF_8), 1 << 20));
    assertTrue(e.getMessage().contains("snappy"), e.getMessage());
    byte[] garbage = Snappy.compress(new byte[] {0x0a, 0x7f, 0x01});
    e = assertThrows(RemoteWrite.FormatException.class, () -> RemoteWrite.decode(garbage, 1 << 20));
    assertTrue(e.getMessage().contains("WriteRequest"), e.getMessage());
    byte[] big =
        RemoteWrite.encode(
            new RemoteWrite.Request(
                List.of(
                    new RemoteWrite.TimeSeries(
                        Labels.of("__name__", "x".repeat(2000)), new long[0], new double[0])),
                List.of()));
    e = assertThrows(RemoteWrite.FormatException.class, () -> RemoteWrite.decode(big, 100));
    assertTrue(e.getMessage().contains("more than the 100"), e.getMessage());
  }

  @Test
  void refusesASeriesWithoutName() {
    byte[] body =
        RemoteWrite.encode(
            new RemoteWrite.Request(
                List.of(
                    new RemoteWrite.TimeSeries(
                        Labels.of("job", "a"), new long[] {1}, new double[] {1})),
                List.of()));
    var e =
        assertThrows(RemoteWrite.FormatException.class, () -> RemoteWrite.decode(body, 1 << 20));
    assertEquals("series 0 has no __name__ label", e.getMessage());
  }
}
