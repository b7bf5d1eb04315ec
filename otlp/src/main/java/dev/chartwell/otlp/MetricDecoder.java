package dev.chartwell.otlp;

import com.google.protobuf.Parser;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Metric data points to rows of the metric table of their kind: gauge, sum (with its temporality
 * and monotonicity), histogram, exponential histogram and summary. A metric's data is walked in
 * place like the envelope, so that one metric with many points is never one object; each point is a
 * record. A point needs a time; a point flagged "no recorded value" is stored without its values.
 */
final class MetricDecoder extends RequestDecoder {
  private static final int NO_RECORDED_VALUE = 1;

  MetricDecoder() {
    super("resourceMetrics", "scopeMetrics", "metrics");
  }

  @Override
  void scopeColumns(Row row, InstrumentationScope scope) {
    row.number("ScopeDroppedAttrCount", scope.getDroppedAttributesCount() & 0xffffffffL);
  }

  /** The data of a metric: which kind (its field number) and where its bytes are. */
  private record Data(int field, List<int[]> slices) {}

  @Override
  void record(Walk walk, int off, int len, String scope, int index) throws OtlpFormatException {
    String where = where(scope, index);
    String name = "";
    String description = "";
    String unit = "";
    Data data = null;
    WireCursor c = new WireCursor(walk.body, off, len);
    try {
      while (c.next()) {
        if (c.isLengthDelimited(1)) {
          name = c.string();
        } else if (c.isLengthDelimited(2)) {
          description = c.string();
        } else if (c.isLengthDelimited(3)) {
          unit = c.string();
        } else if (c.isLengthDelimited(12)) {
          c.slice(); // metadata: not stored, but it must decode
          walk.parse(KeyValue.parser(), c.offset(), c.length());
        } else if (dataField(c) != 0) {
          int field = dataField(c);
          c.slice();
          if (data == null || data.field() != field) {
            if (data != null) {
              replaced(walk, data, where, field);
            }
            data = new Data(field, new ArrayList<>()); // a oneof keeps its last member
          }
          data.slices().add(new int[] {c.offset(), c.length()});
        } else {
          c.skip();
        }
      }
    } catch (IOException e) {
      throw OtlpFormatException.of(where, e);
    }
    if (data == null) {
      return; // a metric without data points
    }
    Row metric = null;
    if (!walk.checking() && walk.common() != null) {
      metric = new Row(walk.common());
      metric.text("MetricName", name);
      metric.text("MetricDescription", description);
      metric.text("MetricUnit", unit);
    }
    int header = name.length() + description.length() + unit.length();
    Points points = new Points(walk, metric, header);
    points.walk(data, table(data.field()), where + "." + member(data.field()));
  }

  private static int dataField(WireCursor c) {
    for (int field : new int[] {5, 7, 9, 10, 11}) {
      if (c.isLengthDelimited(field)) {
        return field;
      }
    }
    return 0;
  }

  /** The table of the points of a member of a metric's data (its field number). */
  private static OtelTable table(int field) {
    return switch (field) {
      case 5 -> OtelTable.GAUGE;
      case 7 -> OtelTable.SUM;
      case 9 -> OtelTable.HISTOGRAM;
      case 10 -> OtelTable.EXPONENTIAL_HISTOGRAM;
      default -> OtelTable.SUMMARY;
    };
  }

  /** The JSON name of a member of a metric's data (its field number). */
  private static String member(int field) {
    return switch (field) {
      case 5 -> "gauge";
      case 7 -> "sum";
      case 9 -> "histogram";
      case 10 -> "exponentialHistogram";
      default -> "summary";
    };
  }

  /**
   * Checks a member of a metric's data that a later member of another kind replaces ({@code data}
   * is a oneof: only its last member is kept). Protobuf parses the replaced member, its data points
   * included, before it drops it, and refuses the request when it does not decode; so does this.
   * Nothing of it is counted or stored.
   *
   * @param data the replaced member
   * @param metric the path of the metric
   * @param by the field number of the member that replaces it
   */
  private static void replaced(Walk walk, Data data, String metric, int by)
      throws OtlpFormatException {
    String where =
        metric + "." + member(data.field()) + " (replaced by a later " + member(by) + ")";
    Parser<?> parser = Points.parser(table(data.field()));
    try {
      int i = 0;
      for (int[] s : data.slices()) {
        WireCursor c = new WireCursor(walk.body, s[0], s[1]);
        while (c.next()) {
          if (c.isLengthDelimited(1)) {
            String point = where + ".dataPoints[" + i++ + "]";
            slice(c, point);
            try {
              walk.parse(parser, c.offset(), c.length());
            } catch (IOException e) {
              throw OtlpFormatException.of(point, e);
            }
          } else {
            c.skip();
          }
        }
      }
    } catch (IOException e) {
      throw OtlpFormatException.of(where, e);
    }
  }

  /** The points of one metric. */
  private static final class Points {
    private final Walk walk;
    private final Row metric;
    private final int header;
    private long temporality;
    private boolean monotonic;

    Points(Walk walk, Row metric, int header) {
      this.walk = walk;
      this.metric = metric;
      this.header = header;
    }

    void walk(Data data, OtelTable table, String where) throws OtlpFormatException {
      try {
        for (int[] s : data.slices()) { // temporality and monotonicity first: any order is valid
          WireCursor c = new WireCursor(walk.body, s[0], s[1]);
          while (c.next()) {
            if (table != OtelTable.GAUGE && table != OtelTable.SUMMARY && c.isVarint(2)) {
              temporality = (int) c.varint();
            } else if (table == OtelTable.SUM && c.isVarint(3)) {
              monotonic = c.varint() != 0;
            } else {
              c.skip();
            }
          }
        }
        int i = 0;
        for (int[] s : data.slices()) {
          WireCursor c = new WireCursor(walk.body, s[0], s[1]);
          while (c.next()) {
            if (c.isLengthDelimited(1)) {
              slice(c, where + ".dataPoints[" + i + "]");
              point(table, c.offset(), c.length(), where, i++);
            } else {
              c.skip();
            }
          }
        }
      } catch (IOException e) {
        throw OtlpFormatException.of(where, e);
      }
    }

    private void point(OtelTable table, int off, int len, String data, int index)
        throws OtlpFormatException {
      Object point;
      try {
        point = walk.parse(parser(table), off, len);
      } catch (IOException e) {
        throw OtlpFormatException.of(data + ".dataPoints[" + index + "]", e);
      }
      if (walk.checking()) {
        walk.counted(len + header);
        return;
      }
      walk.emit(
          (record, sink) -> {
            Row row = new Row(metric);
            long time =
                switch (table) {
                  case GAUGE, SUM -> number(row, (NumberDataPoint) point);
                  case HISTOGRAM -> histogram(row, (HistogramDataPoint) point);
                  case EXPONENTIAL_HISTOGRAM ->
                      exponential(row, (ExponentialHistogramDataPoint) point);
                  default -> summary(row, (SummaryDataPoint) point);
                };
            if (table == OtelTable.SUM) {
              row.flag("IsMonotonic", monotonic);
            }
            if (table != OtelTable.GAUGE && table != OtelTable.SUMMARY) {
              row.number("AggregationTemporality", temporality);
            }
            row.emit(table, time / 1_000_000, record, sink);
          });
    }

    private static Parser<?> parser(OtelTable table) {
      return switch (table) {
        case GAUGE, SUM -> NumberDataPoint.parser();
        case HISTOGRAM -> HistogramDataPoint.parser();
        case EXPONENTIAL_HISTOGRAM -> ExponentialHistogramDataPoint.parser();
        default -> SummaryDataPoint.parser();
      };
    }

    private static long number(Row row, NumberDataPoint p) {
      long time = times(row, p.getTimeUnixNano(), p.getStartTimeUnixNano(), p.getFlags());
      row.attributes("Attributes", p.getAttributesList());
      exemplars(row, p.getExemplarsList());
      if ((p.getFlags() & NO_RECORDED_VALUE) == 0) {
        switch (p.getValueCase()) {
          case AS_DOUBLE -> row.real("Value", p.getAsDouble());
          case AS_INT -> row.real("Value", (double) p.getAsInt());
          default -> {} // no value
        }
      }
      return time;
    }

    private static long histogram(Row row, HistogramDataPoint p) {
      long time = times(row, p.getTimeUnixNano(), p.getStartTimeUnixNano(), p.getFlags());
      row.attributes("Attributes", p.getAttributesList());
      exemplars(row, p.getExemplarsList());
      if ((p.getFlags() & NO_RECORDED_VALUE) == 0) {
        row.count("Count", p.getCount());
        if (p.hasSum()) {
          row.real("Sum", p.getSum());
        }
        if (p.hasMin()) {
          row.real("Min", p.getMin());
        }
        if (p.hasMax()) {
          row.real("Max", p.getMax());
        }
        row.text("BucketCounts", counts(p.getBucketCountsList()));
        JsonText bounds = new JsonText();
        bounds.beginArray();
        for (double b : p.getExplicitBoundsList()) {
          bounds.comma();
          bounds.number(b);
        }
        bounds.endArray();
        row.text("ExplicitBounds", bounds.toString());
      }
      return time;
    }

    private static long exponential(Row row, ExponentialHistogramDataPoint p) {
      long time = times(row, p.getTimeUnixNano(), p.getStartTimeUnixNano(), p.getFlags());
      row.attributes("Attributes", p.getAttributesList());
      exemplars(row, p.getExemplarsList());
      if ((p.getFlags() & NO_RECORDED_VALUE) == 0) {
        row.count("Count", p.getCount());
        if (p.hasSum()) {
          row.real("Sum", p.getSum());
        }
        if (p.hasMin()) {
          row.real("Min", p.getMin());
        }
        if (p.hasMax()) {
          row.real("Max", p.getMax());
        }
        row.number("Scale", p.getScale());
        row.count("ZeroCount", p.getZeroCount());
        row.real("ZeroThreshold", p.getZeroThreshold());
        row.number("PositiveOffset", p.getPositive().getOffset());
        row.text("PositiveBucketCounts", counts(p.getPositive().getBucketCountsList()));
        row.number("NegativeOffset", p.getNegative().getOffset());
        row.text("NegativeBucketCounts", counts(p.getNegative().getBucketCountsList()));
      }
      return time;
    }

    private static long summary(Row row, SummaryDataPoint p) {
      long time = times(row, p.getTimeUnixNano(), p.getStartTimeUnixNano(), p.getFlags());
      row.attributes("Attributes", p.getAttributesList());
      if ((p.getFlags() & NO_RECORDED_VALUE) == 0) {
        row.count("Count", p.getCount());
        row.real("Sum", p.getSum());
        JsonText quantiles = new JsonText();
        JsonText values = new JsonText();
        quantiles.beginArray();
        values.beginArray();
        for (SummaryDataPoint.ValueAtQuantile q : p.getQuantileValuesList()) {
          quantiles.comma();
          quantiles.number(q.getQuantile());
          values.comma();
          values.number(q.getValue());
        }
        quantiles.endArray();
        values.endArray();
        row.text("ValueAtQuantiles.Quantile", quantiles.toString());
        row.text("ValueAtQuantiles.Value", values.toString());
      }
      return time;
    }

    /** The columns of a point's times and flags; returns its time in nanoseconds. */
    private static long times(Row row, long time, long start, int flags) {
      if (time == 0) {
        throw new Rejected("TimeUnix: the data point has no time");
      }
      row.nanos("TimeUnixNanos", time);
      row.nanos("StartTimeUnix", start);
      row.number("Flags", flags & 0xffffffffL);
      return time;
    }

    private static String counts(List<Long> counts) {
      JsonText json = new JsonText();
      json.beginArray();
      for (long n : counts) {
        json.comma();
        json.unsigned(n);
      }
      json.endArray();
      return json.toString();
    }

    private static void exemplars(Row row, List<Exemplar> exemplars) {
      JsonText attributes = new JsonText();
      JsonText times = new JsonText();
      JsonText values = new JsonText();
      JsonText spanIds = new JsonText();
      JsonText traceIds = new JsonText();
      for (JsonText j : List.of(attributes, times, values, spanIds, traceIds)) {
        j.beginArray();
      }
      for (Exemplar e : exemplars) {
        attributes.comma();
        AnyValues.attributesObject(e.getFilteredAttributesList(), attributes);
        times.comma();
        times.unsigned(Row.checkedNanos("Exemplars.TimeUnix", e.getTimeUnixNano()));
        values.comma();
        if (e.getValueCase() == Exemplar.ValueCase.AS_INT) {
          values.raw(Long.toString(e.getAsInt()));
        } else {
          values.number(e.getAsDouble());
        }
        spanIds.comma();
        spanIds.string(Row.spanId("Exemplars.SpanId", e.getSpanId(), false));
        traceIds.comma();
        traceIds.string(Row.traceId("Exemplars.TraceId", e.getTraceId(), false));
      }
      for (JsonText j : List.of(attributes, times, values, spanIds, traceIds)) {
        j.endArray();
      }
      row.text("Exemplars.FilteredAttributes", attributes.toString());
      row.text("Exemplars.TimeUnix", times.toString());
      row.text("Exemplars.Value", values.toString());
      row.text("Exemplars.SpanId", spanIds.toString());
      row.text("Exemplars.TraceId", traceIds.toString());
    }
  }
}
