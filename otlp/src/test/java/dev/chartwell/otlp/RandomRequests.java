package dev.chartwell.otlp;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.Random;

/**
 * Random, valid OTLP export requests of each signal, from a seed: a few resources and scopes,
 * records with attributes of every value type (some ids of the wrong length, some times missing, so
 * that some records are rejected), and how many records each holds.
 */
public final class RandomRequests {
  static final long T0 = 1_767_225_600_000L * 1_000_000L;

  /**
   * A request and its number of records.
   *
   * @param message the request
   * @param records how many log records, spans or data points it holds
   */
  public record Generated(Message message, int records) {}

  private final Random r;
  private int records;

  RandomRequests(long seed) {
    this.r = new Random(seed);
  }

  /**
   * @param signal the signal
   * @param seed the seed
   * @return a random request of that signal, the same for the same seed
   */
  public static Generated of(Signal signal, long seed) {
    RandomRequests g = new RandomRequests(seed);
    Message m =
        switch (signal) {
          case LOGS -> g.logs();
          case TRACES -> g.traces();
          case METRICS -> g.metrics();
        };
    return new Generated(m, g.records);
  }

  private ExportLogsServiceRequest logs() {
    ExportLogsServiceRequest.Builder b = ExportLogsServiceRequest.newBuilder();
    for (int i = r.nextInt(3); i > 0; i--) {
      ResourceLogs.Builder res = ResourceLogs.newBuilder().setResource(resource());
      for (int j = r.nextInt(3); j > 0; j--) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder().setScope(scope());
        for (int k = r.nextInt(4); k > 0; k--) {
          records++;
          LogRecord.Builder l =
              LogRecord.newBuilder()
                  .setTimeUnixNano(r.nextInt(4) == 0 ? 0 : T0 + r.nextInt(1_000_000))
                  .setSeverityNumberValue(r.nextInt(25))
                  .setSeverityText(word())
                  .setBody(value(2))
                  .setTraceId(id(16))
                  .setSpanId(id(8))
                  .setFlags(r.nextInt(256));
          for (int a = r.nextInt(4); a > 0; a--) {
            l.addAttributes(keyValue(2));
          }
          scope.addLogRecords(l);
        }
        res.addScopeLogs(scope);
      }
      b.addResourceLogs(res);
    }
    return b.build();
  }

  private ExportTraceServiceRequest traces() {
    ExportTraceServiceRequest.Builder b = ExportTraceServiceRequest.newBuilder();
    for (int i = r.nextInt(3); i > 0; i--) {
      ResourceSpans.Builder res = ResourceSpans.newBuilder().setResource(resource());
      for (int j = r.nextInt(3); j > 0; j--) {
        ScopeSpans.Builder scope = ScopeSpans.newBuilder().setScope(scope());
        for (int k = r.nextInt(4); k > 0; k--) {
          records++;
          long start = T0 + r.nextInt(1_000_000);
          Span.Builder s =
              Span.newBuilder()
                  .setTraceId(id(16))
                  .setSpanId(id(8))
                  .setParentSpanId(r.nextBoolean() ? ByteString.EMPTY : id(8))
                  .setName(word())
                  .setKindValue(r.nextInt(7))
                  .setStartTimeUnixNano(start)
                  .setEndTimeUnixNano(start + r.nextInt(1000) - 100);
          for (int a = r.nextInt(3); a > 0; a--) {
            s.addAttributes(keyValue(2));
          }
          if (r.nextBoolean()) {
            s.addEvents(
                Span.Event.newBuilder()
                    .setName(word())
                    .setTimeUnixNano(start)
                    .addAttributes(keyValue(1)));
          }
          if (r.nextBoolean()) {
            s.addLinks(Span.Link.newBuilder().setTraceId(id(16)).setSpanId(id(8)));
          }
          scope.addSpans(s);
        }
        res.addScopeSpans(scope);
      }
      b.addResourceSpans(res);
    }
    return b.build();
  }

  private ExportMetricsServiceRequest metrics() {
    ExportMetricsServiceRequest.Builder b = ExportMetricsServiceRequest.newBuilder();
    for (int i = r.nextInt(3); i > 0; i--) {
      ResourceMetrics.Builder res = ResourceMetrics.newBuilder().setResource(resource());
      for (int j = r.nextInt(3); j > 0; j--) {
        ScopeMetrics.Builder scope = ScopeMetrics.newBuilder().setScope(scope());
        for (int k = r.nextInt(4); k > 0; k--) {
          scope.addMetrics(metric());
        }
        res.addScopeMetrics(scope);
      }
      b.addResourceMetrics(res);
    }
    return b.build();
  }

  private Metric metric() {
    Metric.Builder m = Metric.newBuilder().setName(word()).setUnit(word());
    int points = r.nextInt(3);
    records += points;
    switch (r.nextInt(5)) {
      case 0 -> {
        Gauge.Builder g = Gauge.newBuilder();
        for (int p = 0; p < points; p++) {
          g.addDataPoints(number());
        }
        m.setGauge(g);
      }
      case 1 -> {
        Sum.Builder s =
            Sum.newBuilder()
                .setAggregationTemporalityValue(r.nextInt(3))
                .setIsMonotonic(r.nextBoolean());
        for (int p = 0; p < points; p++) {
          s.addDataPoints(number());
        }
        m.setSum(s);
      }
      case 2 -> {
        Histogram.Builder h = Histogram.newBuilder().setAggregationTemporalityValue(2);
        for (int p = 0; p < points; p++) {
          h.addDataPoints(
              HistogramDataPoint.newBuilder()
                  .setTimeUnixNano(time())
                  .setCount(3)
                  .setSum(r.nextDouble())
                  .addBucketCounts(1)
                  .addBucketCounts(2)
                  .addExplicitBounds(10)
                  .addExemplars(exemplar()));
        }
        m.setHistogram(h);
      }
      case 3 -> {
        ExponentialHistogram.Builder e = ExponentialHistogram.newBuilder();
        for (int p = 0; p < points; p++) {
          e.addDataPoints(
              ExponentialHistogramDataPoint.newBuilder()
                  .setTimeUnixNano(time())
                  .setScale(r.nextInt(20) - 10)
                  .setCount(2)
                  .setPositive(
                      ExponentialHistogramDataPoint.Buckets.newBuilder()
                          .setOffset(-2)
                          .addBucketCounts(2)));
        }
        m.setExponentialHistogram(e);
      }
      default -> {
        Summary.Builder s = Summary.newBuilder();
        for (int p = 0; p < points; p++) {
          s.addDataPoints(
              SummaryDataPoint.newBuilder()
                  .setTimeUnixNano(time())
                  .setCount(1)
                  .addQuantileValues(
                      SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.5).setValue(1)));
        }
        m.setSummary(s);
      }
    }
    return m.build();
  }

  private NumberDataPoint number() {
    NumberDataPoint.Builder p = NumberDataPoint.newBuilder().setTimeUnixNano(time());
    if (r.nextBoolean()) {
      p.setAsInt(r.nextLong());
    } else {
      p.setAsDouble(r.nextInt(10) == 0 ? Double.NaN : r.nextGaussian());
    }
    p.addAttributes(keyValue(1));
    return p.build();
  }

  private Exemplar exemplar() {
    return Exemplar.newBuilder().setTimeUnixNano(T0).setAsDouble(1.5).setSpanId(id(8)).build();
  }

  private long time() {
    return r.nextInt(8) == 0 ? 0 : T0 + r.nextInt(1_000_000);
  }

  private Resource resource() {
    Resource.Builder b = Resource.newBuilder();
    b.addAttributes(
        KeyValue.newBuilder()
            .setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue(word())));
    for (int i = r.nextInt(3); i > 0; i--) {
      b.addAttributes(keyValue(2));
    }
    return b.build();
  }

  private InstrumentationScope scope() {
    return InstrumentationScope.newBuilder()
        .setName(word())
        .setVersion(word())
        .addAttributes(keyValue(1))
        .build();
  }

  /** Mostly the right length, sometimes empty, sometimes wrong. */
  private ByteString id(int size) {
    int n = r.nextInt(10) == 0 ? r.nextInt(size + 3) : size;
    byte[] b = new byte[n];
    r.nextBytes(b);
    return ByteString.copyFrom(b);
  }

  private KeyValue keyValue(int depth) {
    return KeyValue.newBuilder().setKey(word()).setValue(value(depth)).build();
  }

  private AnyValue value(int depth) {
    AnyValue.Builder v = AnyValue.newBuilder();
    switch (r.nextInt(depth > 0 ? 8 : 6)) {
      case 0 -> v.setStringValue(word());
      case 1 -> v.setBoolValue(r.nextBoolean());
      case 2 -> v.setIntValue(r.nextLong());
      case 3 -> v.setDoubleValue(r.nextInt(5) == 0 ? Double.POSITIVE_INFINITY : r.nextDouble());
      case 4 -> v.setBytesValue(id(3));
      case 5 -> {} // no value
      case 6 ->
          v.setArrayValue(
              ArrayValue.newBuilder().addValues(value(depth - 1)).addValues(value(depth - 1)));
      default -> v.setKvlistValue(KeyValueList.newBuilder().addValues(keyValue(depth - 1)));
    }
    return v.build();
  }

  private String word() {
    String[] words = {"", "a", "api", "héllo", "with space", "q\"uote", "日本", "x.y.z", "tab\tkey"};
    return words[r.nextInt(words.length)];
  }
}
