package dev.chartwell.prometheus.remote;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.prompb.Label;
import dev.chartwell.prometheus.remote.prompb.Sample;
import dev.chartwell.prometheus.remote.prompb.TimeSeries;
import dev.chartwell.prometheus.remote.prompb.WriteRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * Prometheus remote write 1.0 bodies: a protobuf {@code WriteRequest} compressed with snappy's
 * block format ({@code Content-Encoding: snappy}, {@code Content-Type: application/x-protobuf}).
 */
public final class RemoteWrite {
  private RemoteWrite() {}

  /**
   * Encodes series as a remote-write body.
   *
   * @param series the series, samples in time order (staleness markers keep their bits)
   * @return the snappy-compressed {@code WriteRequest}
   */
  public static byte[] encode(List<SeriesData> series) {
    WriteRequest.Builder req = WriteRequest.newBuilder();
    for (SeriesData s : series) {
      TimeSeries.Builder ts = TimeSeries.newBuilder();
      Labels l = s.labels();
      for (int i = 0; i < l.size(); i++) {
        ts.addLabels(Label.newBuilder().setName(l.name(i)).setValue(l.value(i)));
      }
      for (int i = 0; i < s.size(); i++) {
        ts.addSamples(Sample.newBuilder().setTimestamp(s.timestamps()[i]).setValue(s.values()[i]));
      }
      req.addTimeseries(ts);
    }
    try {
      return Snappy.compress(req.build().toByteArray());
    } catch (IOException e) {
      throw new IllegalStateException("snappy could not compress a remote-write request", e);
    }
  }

  /**
   * Decodes a remote-write body. Series that appear more than once are joined; each series' samples
   * must be in strictly increasing time order.
   *
   * @param body the snappy-compressed {@code WriteRequest}
   * @param maxDecodedBytes the largest uncompressed request accepted
   * @return the series, in the request's order
   * @throws IllegalArgumentException naming the problem: not snappy, too large, not a {@code
   *     WriteRequest}, a series without labels, a duplicate label name, or samples out of order
   */
  public static List<SeriesData> decode(byte[] body, int maxDecodedBytes) {
    byte[] raw;
    try {
      if (!Snappy.isValidCompressedBuffer(body)) {
        throw new IllegalArgumentException("the body is not snappy-compressed (block format)");
      }
      int length = Snappy.uncompressedLength(body);
      if (length < 0 || length > maxDecodedBytes) {
        throw new IllegalArgumentException(
            "the decompressed request has "
                + Integer.toUnsignedString(length)
                + " bytes, more than the limit of "
                + maxDecodedBytes);
      }
      raw = Snappy.uncompress(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("the body is not valid snappy: " + e.getMessage(), e);
    }
    WriteRequest req;
    try {
      req = WriteRequest.parseFrom(raw);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "the body is not a remote-write WriteRequest: " + e.getMessage(), e);
    }
    Map<Labels, List<TimeSeries>> bySeries = new LinkedHashMap<>();
    for (TimeSeries ts : req.getTimeseriesList()) {
      Map<String, String> m = new LinkedHashMap<>();
      for (Label l : ts.getLabelsList()) {
        if (m.put(l.getName(), l.getValue()) != null) {
          throw new IllegalArgumentException("a series has the label " + l.getName() + " twice");
        }
      }
      Labels labels = Labels.of(m);
      if (labels.size() == 0) {
        throw new IllegalArgumentException("a series has no labels");
      }
      bySeries.computeIfAbsent(labels, k -> new ArrayList<>()).add(ts);
    }
    List<SeriesData> out = new ArrayList<>(bySeries.size());
    for (Map.Entry<Labels, List<TimeSeries>> e : bySeries.entrySet()) {
      int n = 0;
      for (TimeSeries ts : e.getValue()) {
        n += ts.getSamplesCount();
      }
      long[] t = new long[n];
      double[] v = new double[n];
      int k = 0;
      for (TimeSeries ts : e.getValue()) {
        for (Sample s : ts.getSamplesList()) {
          if (k > 0 && s.getTimestamp() <= t[k - 1]) {
            throw new IllegalArgumentException(
                "series "
                    + e.getKey()
                    + ": sample at "
                    + s.getTimestamp()
                    + " is not after the previous one at "
                    + t[k - 1]);
          }
          t[k] = s.getTimestamp();
          v[k++] = s.getValue();
        }
      }
      out.add(new SeriesData(e.getKey(), t, v));
    }
    return out;
  }
}
