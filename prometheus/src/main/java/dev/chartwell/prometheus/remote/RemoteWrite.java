package dev.chartwell.prometheus.remote;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * Reads and writes Prometheus remote write 1.0 bodies: a {@code prometheus.WriteRequest} (time
 * series with their labels and samples, and metric metadata) as protobuf, compressed with snappy's
 * block format. Exemplars are skipped; native histograms are refused (remote write 1.0 senders only
 * send them when asked to).
 */
public final class RemoteWrite {
  /** The most a body may grow when decompressed, so that a small body cannot fill the heap. */
  public static final int MAX_RATIO = 64;

  private RemoteWrite() {}

  /** The metric types of {@code MetricMetadata.type}, in protobuf enum order. */
  public enum MetricType {
    /** 0 */
    UNKNOWN,
    /** 1 */
    COUNTER,
    /** 2 */
    GAUGE,
    /** 3 */
    HISTOGRAM,
    /** 4 */
    GAUGEHISTOGRAM,
    /** 5 */
    SUMMARY,
    /** 6 */
    INFO,
    /** 7 */
    STATESET;

    /**
     * The name Prometheus' metadata API uses.
     *
     * @return e.g. {@code counter}
     */
    public String apiName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One series of a request, its samples in request order (Prometheus sends them in time order).
   *
   * @param labels the labels, {@code __name__} included
   * @param timestamps sample times in epoch milliseconds
   * @param values sample values (a staleness marker keeps its exact NaN bits)
   */
  public record TimeSeries(Labels labels, long[] timestamps, double[] values) {
    /** Checks that there is one value per timestamp. */
    public TimeSeries {
      if (timestamps.length != values.length) {
        throw new IllegalArgumentException("one value per timestamp");
      }
    }
  }

  /**
   * What a sender says of a metric family.
   *
   * @param type its type
   * @param family the metric family name
   * @param help its help text
   * @param unit its unit
   */
  public record Metadata(MetricType type, String family, String help, String unit) {}

  /**
   * A decoded request.
   *
   * @param series the time series
   * @param metadata the metadata
   */
  public record Request(List<TimeSeries> series, List<Metadata> metadata) {
    /**
     * @return the number of samples of all series
     */
    public long samples() {
      long n = 0;
      for (TimeSeries s : series) {
        n += s.timestamps().length;
      }
      return n;
    }
  }

  /** A body that is not a valid remote write request: it will never be accepted. */
  public static final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, in our words
     */
    public FormatException(String message) {
      super(message);
    }
  }

  /**
   * Decompresses and decodes a body.
   *
   * @param body the snappy-compressed protobuf
   * @param maxBytes the most the decompressed message may hold
   * @return the request
   * @throws FormatException when the body is not snappy, not a {@code WriteRequest}, too large once
   *     decompressed, or holds a series without a name, with a repeated label or a native histogram
   */
  public static Request decode(byte[] body, long maxBytes) throws FormatException {
    int length;
    try {
      if (!Snappy.isValidCompressedBuffer(body)) {
        throw new FormatException("the body is not snappy-compressed (block format)");
      }
      length = Snappy.uncompressedLength(body);
    } catch (IOException e) {
      throw new FormatException("the body is not snappy-compressed (block format): " + e);
    }
    if (length > maxBytes || length > (long) MAX_RATIO * Math.max(body.length, 1 << 16)) {
      throw new FormatException(
          "the body decompresses to " + length + " bytes, more than the " + maxBytes + " allowed");
    }
    byte[] raw = new byte[length];
    try {
      Snappy.uncompress(body, 0, body.length, raw, 0);
    } catch (IOException e) {
      throw new FormatException("the body is not valid snappy: " + e.getMessage());
    }
    return decodeProtobuf(raw);
  }

  /**
   * Decodes an uncompressed {@code WriteRequest}.
   *
   * @param raw the protobuf message
   * @return the request
   * @throws FormatException when it is not a valid one (see {@link #decode})
   */
  public static Request decodeProtobuf(byte[] raw) throws FormatException {
    List<TimeSeries> series = new ArrayList<>();
    List<Metadata> metadata = new ArrayList<>();
    CodedInputStream in = CodedInputStream.newInstance(raw);
    try {
      int tag;
      while ((tag = in.readTag()) != 0) {
        if (tag == lengthDelimited(1)) {
          series.add(timeSeries(in, series.size()));
        } else if (tag == lengthDelimited(3)) {
          metadata.add(metadata(in));
        } else {
          in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw new FormatException(
          "the body is not a valid protobuf WriteRequest (at series "
              + series.size()
              + "): "
              + e.getMessage());
    }
    return new Request(series, metadata);
  }

  private static TimeSeries timeSeries(CodedInputStream in, int index)
      throws IOException, FormatException {
    int limit = in.pushLimit(in.readRawVarint32());
    Map<String, String> labels = new LinkedHashMap<>();
    long[] ts = new long[8];
    double[] vs = new double[8];
    int n = 0;
    int tag;
    while ((tag = in.readTag()) != 0) {
      if (tag == lengthDelimited(1)) {
        int l = in.pushLimit(in.readRawVarint32());
        String name = "";
        String value = "";
        int t;
        while ((t = in.readTag()) != 0) {
          if (t == lengthDelimited(1)) {
            name = in.readStringRequireUtf8();
          } else if (t == lengthDelimited(2)) {
            value = in.readStringRequireUtf8();
          } else {
            in.skipField(t);
          }
        }
        in.popLimit(l);
        if (labels.put(name, value) != null) {
          throw new FormatException("series " + index + " has the label " + name + " twice");
        }
      } else if (tag == lengthDelimited(2)) {
        int l = in.pushLimit(in.readRawVarint32());
        double v = 0;
        long t = 0;
        int x;
        while ((x = in.readTag()) != 0) {
          if (x == tag(1, WireFormat.WIRETYPE_FIXED64)) {
            v = in.readDouble();
          } else if (x == tag(2, WireFormat.WIRETYPE_VARINT)) {
            t = in.readInt64();
          } else {
            in.skipField(x);
          }
        }
        in.popLimit(l);
        if (n == ts.length) {
          ts = Arrays.copyOf(ts, n * 2);
          vs = Arrays.copyOf(vs, n * 2);
        }
        ts[n] = t;
        vs[n++] = v;
      } else if (tag == lengthDelimited(4)) {
        throw new FormatException(
            "series "
                + index
                + " holds native histograms, which are not accepted; send classic"
                + " histograms (leave send_native_histograms off)");
      } else {
        in.skipField(tag); // exemplars
      }
    }
    in.popLimit(limit);
    String name = labels.getOrDefault(Labels.NAME, "");
    if (name.isEmpty()) {
      throw new FormatException("series " + index + " has no __name__ label");
    }
    return new TimeSeries(Labels.of(labels), Arrays.copyOf(ts, n), Arrays.copyOf(vs, n));
  }

  private static Metadata metadata(CodedInputStream in) throws IOException {
    int limit = in.pushLimit(in.readRawVarint32());
    int type = 0;
    String family = "";
    String help = "";
    String unit = "";
    int tag;
    while ((tag = in.readTag()) != 0) {
      switch (tag) {
        case 8 -> type = in.readEnum();
        case 18 -> family = in.readStringRequireUtf8();
        case 34 -> help = in.readStringRequireUtf8();
        case 42 -> unit = in.readStringRequireUtf8();
        default -> in.skipField(tag);
      }
    }
    in.popLimit(limit);
    MetricType[] types = MetricType.values();
    return new Metadata(
        type >= 0 && type < types.length ? types[type] : MetricType.UNKNOWN, family, help, unit);
  }

  private static int lengthDelimited(int field) {
    return tag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
  }

  private static int tag(int field, int wireType) {
    return field << 3 | wireType;
  }

  /**
   * Encodes series (without metadata) as a remote write body, as the differential test sends them.
   *
   * @param series the series, samples in time order (staleness markers keep their bits)
   * @return the snappy-compressed {@code WriteRequest}
   */
  public static byte[] encode(List<SeriesData> series) {
    List<TimeSeries> ts = new ArrayList<>(series.size());
    for (SeriesData s : series) {
      ts.add(new TimeSeries(s.labels(), s.timestamps(), s.values()));
    }
    return encode(new Request(ts, List.of()));
  }

  /**
   * Encodes and compresses a request, as Prometheus sends it.
   *
   * @param request the request
   * @return the snappy-compressed protobuf
   */
  public static byte[] encode(Request request) {
    try {
      return Snappy.compress(encodeProtobuf(request));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Encodes a request without compressing it.
   *
   * @param request the request
   * @return the protobuf message
   */
  public static byte[] encodeProtobuf(Request request) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      for (TimeSeries s : request.series()) {
        byte[] inner = timeSeries(s);
        out.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(inner.length);
        out.writeRawBytes(inner);
      }
      for (Metadata m : request.metadata()) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        CodedOutputStream o = CodedOutputStream.newInstance(b);
        o.writeEnum(1, m.type().ordinal());
        o.writeString(2, m.family());
        o.writeString(4, m.help());
        o.writeString(5, m.unit());
        o.flush();
        out.writeByteArray(3, b.toByteArray());
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static byte[] timeSeries(TimeSeries s) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(b);
    for (int i = 0; i < s.labels().size(); i++) {
      byte[] name = s.labels().name(i).getBytes(StandardCharsets.UTF_8);
      byte[] value = s.labels().value(i).getBytes(StandardCharsets.UTF_8);
      o.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      o.writeUInt32NoTag(
          CodedOutputStream.computeByteArraySize(1, name)
              + CodedOutputStream.computeByteArraySize(2, value));
      o.writeByteArray(1, name);
      o.writeByteArray(2, value);
    }
    for (int i = 0; i < s.timestamps().length; i++) {
      o.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      o.writeUInt32NoTag(
          CodedOutputStream.computeDoubleSize(1, s.values()[i])
              + CodedOutputStream.computeInt64Size(2, s.timestamps()[i]));
      o.writeDouble(1, s.values()[i]);
      o.writeInt64(2, s.timestamps()[i]);
    }
    o.flush();
    return b.toByteArray();
  }
}
