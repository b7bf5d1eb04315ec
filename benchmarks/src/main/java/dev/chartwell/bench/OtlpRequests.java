package dev.chartwell.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.chartwell.otlp.Signal;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deterministic OTLP export requests shaped like an SDK's batches: one resource of five attributes
 * (a service of ten), one scope, and records with the attributes HTTP instrumentation sets; and
 * OTLP's JSON encoding of any request (hex ids, integer enums, 64-bit integers as strings), for the
 * JSON figures.
 */
final class OtlpRequests {
  private static final String[] ROUTES = {"/users", "/orders", "/cart", "/pay", "/search"};
  private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE"};
  private static final String[] LEVELS = {"debug", "info", "info", "info", "warn", "error"};
  private static final String[] BODIES = {
    "request served in %d ms",
    "cache miss for key user:%d",
    "connection reset by peer after %d ms",
    "retrying payment %d after timeout"
  };

  private OtlpRequests() {}

  /**
   * @param signal the signal
   * @param records log records, spans or data points in the request
   * @param seed the same seed gives the same request
   * @param startNanos the time of the first record
   * @return the request
   */
  static Message request(Signal signal, int records, long seed, long startNanos) {
    Random r = new Random(seed);
    return switch (signal) {
      case LOGS -> logs(r, records, startNanos);
      case TRACES -> traces(r, records, startNanos);
      case METRICS -> metrics(r, records, startNanos);
    };
  }

  private static Resource resource(Random r) {
    int service = r.nextInt(10);
    return Resource.newBuilder()
        .addAttributes(text("service.name", "service-" + service))
        .addAttributes(text("host.name", "host-" + r.nextInt(100)))
        .addAttributes(text("k8s.pod.name", "service-" + service + "-7c9f" + r.nextInt(1000)))
        .addAttributes(text("deployment.environment", "production"))
        .addAttributes(text("telemetry.sdk.language", "java"))
        .build();
  }

  private static InstrumentationScope scope() {
    return InstrumentationScope.newBuilder()
        .setName("io.opentelemetry.bench")
        .setVersion("1.0")
        .build();
  }

  private static ExportLogsServiceRequest logs(Random r, int records, long start) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder().setScope(scope());
    for (int i = 0; i < records; i++) {
      String level = LEVELS[r.nextInt(LEVELS.length)];
      scope.addLogRecords(
          LogRecord.newBuilder()
              .setTimeUnixNano(start + i * 1_000_000L + r.nextInt(1_000_000))
              .setObservedTimeUnixNano(start + i * 1_000_000L + 2_000_000)
              .setSeverityText(level)
              .setSeverityNumberValue(level.equals("error") ? 17 : level.equals("warn") ? 13 : 9)
              .setBody(
                  AnyValue.newBuilder()
                      .setStringValue(
                          String.format(BODIES[r.nextInt(BODIES.length)], r.nextInt(5000))))
              .setTraceId(id(r, 16))
              .setSpanId(id(r, 8))
              .setFlags(1)
              .addAllAttributes(http(r)));
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(resource(r)).addScopeLogs(scope))
        .build();
  }

  private static ExportTraceServiceRequest traces(Random r, int records, long start) {
    ScopeSpans.Builder scope = ScopeSpans.newBuilder().setScope(scope());
    for (int i = 0; i < records; i++) {
      long begin = start + i * 1_000_000L;
      boolean error = r.nextInt(20) == 0;
      Span.Builder span =
          Span.newBuilder()
              .setTraceId(id(r, 16))
              .setSpanId(id(r, 8))
              .setParentSpanId(r.nextBoolean() ? id(r, 8) : ByteString.EMPTY)
              .setName(METHODS[r.nextInt(METHODS.length)] + " " + ROUTES[r.nextInt(ROUTES.length)])
              .setKindValue(r.nextBoolean() ? 2 : 3)
              .setStartTimeUnixNano(begin)
              .setEndTimeUnixNano(begin + 100_000 + r.nextInt(50_000_000))
              .setStatus(
                  Status.newBuilder()
                      .setCodeValue(error ? 2 : 0)
                      .setMessage(error ? "timeout" : ""))
              .addAllAttributes(http(r));
      if (error) {
        span.addEvents(
            Span.Event.newBuilder()
                .setName("exception")
                .setTimeUnixNano(begin + 50_000)
                .addAttributes(text("exception.type", "java.net.SocketTimeoutException")));
      }
      scope.addSpans(span);
    }
    return ExportTraceServiceRequest.newBuilder()
        .addResourceSpans(ResourceSpans.newBuilder().setResource(resource(r)).addScopeSpans(scope))
        .build();
  }

  /** Metrics of 50 points each, in turn a gauge, a cumulative sum and a histogram. */
  private static ExportMetricsServiceRequest metrics(Random r, int records, long start) {
    ScopeMetrics.Builder scope = ScopeMetrics.newBuilder().setScope(scope());
    for (int done = 0, m = 0; done < records; m++) {
      int points = Math.min(50, records - done);
      Metric.Builder metric = Metric.newBuilder().setName("metric." + m % 30).setUnit("1");
      switch (m % 3) {
        case 0 -> {
          Gauge.Builder g = Gauge.newBuilder();
          for (int p = 0; p < points; p++) {
            g.addDataPoints(
                number(r, start + (done + p) * 1_000_000L).setAsDouble(r.nextDouble() * 100));
          }
          metric.setGauge(g);
        }
        case 1 -> {
          Sum.Builder s =
              Sum.newBuilder()
                  .setIsMonotonic(true)
                  .setAggregationTemporality(
                      AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
          for (int p = 0; p < points; p++) {
            s.addDataPoints(
                number(r, start + (done + p) * 1_000_000L).setAsInt(r.nextInt(1_000_000)));
          }
          metric.setSum(s);
        }
        default -> {
          Histogram.Builder h =
              Histogram.newBuilder()
                  .setAggregationTemporality(
                      AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
          for (int p = 0; p < points; p++) {
            HistogramDataPoint.Builder d =
                HistogramDataPoint.newBuilder()
                    .setTimeUnixNano(start + (done + p) * 1_000_000L)
                    .setStartTimeUnixNano(start)
                    .addAllAttributes(List.of(text("http.route", ROUTES[r.nextInt(ROUTES.length)])))
                    .setCount(1000)
                    .setSum(r.nextDouble() * 1e5)
                    .setMin(0.5)
                    .setMax(900);
            for (double b : new double[] {5, 10, 25, 50, 75, 100, 250, 500, 750, 1000}) {
              d.addExplicitBounds(b);
              d.addBucketCounts(r.nextInt(200));
            }
            d.addBucketCounts(r.nextInt(10));
            h.addDataPoints(d);
          }
          metric.setHistogram(h);
        }
      }
      scope.addMetrics(metric);
      done += points;
    }
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(
            ResourceMetrics.newBuilder().setResource(resource(r)).addScopeMetrics(scope))
        .build();
  }

  private static NumberDataPoint.Builder number(Random r, long time) {
    return NumberDataPoint.newBuilder()
        .setTimeUnixNano(time)
        .setStartTimeUnixNano(time - 60_000_000_000L)
        .addAttributes(text("http.route", ROUTES[r.nextInt(ROUTES.length)]))
        .addAttributes(text("http.request.method", METHODS[r.nextInt(METHODS.length)]));
  }

  private static List<KeyValue> http(Random r) {
    return List.of(
        text("http.request.method", METHODS[r.nextInt(METHODS.length)]),
        text("http.route", ROUTES[r.nextInt(ROUTES.length)]),
        KeyValue.newBuilder()
            .setKey("http.response.status_code")
            .setValue(AnyValue.newBuilder().setIntValue(r.nextInt(10) == 0 ? 500 : 200))
            .build(),
        KeyValue.newBuilder()
            .setKey("enduser.id")
            .setValue(AnyValue.newBuilder().setIntValue(r.nextInt(100_000)))
            .build(),
        KeyValue.newBuilder()
            .setKey("server.duration")
            .setValue(AnyValue.newBuilder().setDoubleValue(r.nextDouble() * 1000))
            .build());
  }

  private static KeyValue text(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }

  private static ByteString id(Random r, int size) {
    byte[] b = new byte[size];
    r.nextBytes(b);
    return ByteString.copyFrom(b);
  }

  /**
   * @param m an OTLP message
   * @return its OTLP/JSON encoding
   */
  static String json(Message m) {
    StringBuilder sb = new StringBuilder();
    message(m, sb);
    return sb.toString();
  }

  private static void message(Message m, StringBuilder sb) {
    sb.append('{');
    boolean first = true;
    for (Map.Entry<FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
      FieldDescriptor d = f.getKey();
      sb.append(first ? "" : ",").append('"').append(d.getJsonName()).append("\":");
      first = false;
      if (d.isRepeated()) {
        sb.append('[');
        List<?> values = (List<?>) f.getValue();
        for (int i = 0; i < values.size(); i++) {
          sb.append(i == 0 ? "" : ",");
          value(d, values.get(i), sb);
        }
        sb.append(']');
      } else {
        value(d, f.getValue(), sb);
      }
    }
    sb.append('}');
  }

  private static void value(FieldDescriptor d, Object v, StringBuilder sb) {
    switch (d.getType()) {
      case MESSAGE -> message((Message) v, sb);
      case STRING -> string((String) v, sb);
      case BYTES -> {
        ByteString b = (ByteString) v;
        if (d.getName().endsWith("span_id") || d.getName().equals("trace_id")) {
          sb.append('"');
          for (int i = 0; i < b.size(); i++) {
            sb.append(Character.forDigit((b.byteAt(i) >> 4) & 0xf, 16));
            sb.append(Character.forDigit(b.byteAt(i) & 0xf, 16));
          }
          sb.append('"');
        } else {
          sb.append('"').append(Base64.getEncoder().encodeToString(b.toByteArray())).append('"');
        }
      }
      case ENUM -> sb.append(((EnumValueDescriptor) v).getNumber());
      case INT64, SINT64, SFIXED64 -> sb.append('"').append((long) (Long) v).append('"');
      case UINT64, FIXED64 -> sb.append('"').append(Long.toUnsignedString((Long) v)).append('"');
      case UINT32, FIXED32 -> sb.append(Integer.toUnsignedLong((Integer) v));
      default -> sb.append(v); // bool, int32, finite double
    }
  }

  private static void string(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }
}
