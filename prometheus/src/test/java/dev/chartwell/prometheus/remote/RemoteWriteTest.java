package dev.chartwell.prometheus.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.prompb.Sample;
import dev.chartwell.prometheus.remote.prompb.TimeSeries;
import dev.chartwell.prometheus.remote.prompb.WriteRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class RemoteWriteTest {

  @Test
  void roundTripsSeriesWithStalenessMarkers() {
    SeriesData a =
        new SeriesData(
            Labels.of("__name__", "up", "job", "api"),
            new long[] {1000, 2000, 3000},
            new double[] {1, Double.NaN, SeriesData.STALE_NAN});
    SeriesData b = new SeriesData(Labels.of("__name__", "x"), new long[] {5}, new double[] {-2.5});
    List<SeriesData> back = RemoteWrite.decode(RemoteWrite.encode(List.of(a, b)), 1 << 20);
    assertEquals(2, back.size());
    assertEquals(a.labels(), back.get(0).labels());
    assertArrayEquals(a.timestamps(), back.get(0).timestamps());
    assertTrue(SeriesData.isStale(back.get(0).values()[2]), "the marker keeps its bits");
    assertTrue(
        Double.isNaN(back.get(0).values()[1]) && !SeriesData.isStale(back.get(0).values()[1]));
    assertEquals(-2.5, back.get(1).values()[0]);
  }

  @Test
  void refusesBadBodiesClearly() throws Exception {
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> RemoteWrite.decode(new byte[] {1, 2, 3}, 100))
            .getMessage()
            .contains("snappy"));
    byte[] big =
        RemoteWrite.encode(
            List.of(new SeriesData(Labels.of("a", "b"), new long[100], new double[100])));
    assertThrows(IllegalArgumentException.class, () -> RemoteWrite.decode(big, 10));
    byte[] outOfOrder =
        Snappy.compress(
            WriteRequest.newBuilder()
                .addTimeseries(
                    TimeSeries.newBuilder()
                        .addLabels(
                            dev.chartwell.prometheus.remote.prompb.Label.newBuilder()
                                .setName("a")
                                .setValue("b"))
                        .addSamples(Sample.newBuilder().setTimestamp(2))
                        .addSamples(Sample.newBuilder().setTimestamp(1)))
                .build()
                .toByteArray());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> RemoteWrite.decode(outOfOrder, 1 << 20))
            .getMessage()
            .contains("not after"));
    byte[] noLabels =
        Snappy.compress(
            WriteRequest.newBuilder().addTimeseries(TimeSeries.newBuilder()).build().toByteArray());
    assertThrows(IllegalArgumentException.class, () -> RemoteWrite.decode(noLabels, 1 << 20));
  }
}
