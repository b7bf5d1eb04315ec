package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.exporter.internal.otlp.logs.LogsRequestMarshaler;
import io.opentelemetry.exporter.internal.otlp.metrics.MetricsRequestMarshaler;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.internal.HttpExporter;
import io.opentelemetry.exporter.otlp.internal.HttpExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.internal.StandardComponentId;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The OpenTelemetry Java SDK's OTLP/HTTP exporters, pointed at a test server. Protobuf uses the
 * SDK's public exporters; the SDK exports JSON through the same HTTP exporter with its JSON
 * encoding switched on (which its public builders keep to themselves), so the JSON variants use
 * that exporter and the SDK's request marshalers directly: both are the SDK's own encoders and
 * sender. Every export is recorded, so that a test can assert that the server accepted it.
 */
final class SdkExporters {
  /** How a test sends: the encoding and whether the body is gzipped. */
  enum Encoding {
    PROTOBUF,
    PROTOBUF_GZIP,
    JSON,
    JSON_GZIP;

    boolean json() {
      return this == JSON || this == JSON_GZIP;
    }

    String compression() {
      return this == PROTOBUF_GZIP || this == JSON_GZIP ? "gzip" : "none";
    }
  }

  private final List<CompletableResultCode> results = new ArrayList<>();
  private final Encoding encoding;
  private final String endpoint;
  private final String token;

  SdkExporters(Encoding encoding, String endpoint, String token) {
    this.encoding = encoding;
    this.endpoint = endpoint;
    this.token = token;
  }

  /** Waits for every export and asserts that each succeeded. */
  void assertAllSucceeded() {
    assertTrue(!results.isEmpty(), "nothing was exported");
    for (CompletableResultCode r : results) {
      r.join(30, TimeUnit.SECONDS);
      assertTrue(r.isSuccess(), "an export failed: " + r.getFailureThrowable());
    }
  }

  private CompletableResultCode record(CompletableResultCode r) {
    synchronized (results) {
      results.add(r);
    }
    return r;
  }

  private HttpExporter jsonExporter(StandardComponentId.ExporterType type, String path) {
    return new HttpExporterBuilder(type, endpoint + path)
        .exportAsJson()
        .addConstantHeaders("Authorization", "Bearer " + token)
        .setCompression(encoding.compression())
        .setTimeout(Duration.ofSeconds(30))
        .build();
  }

  SpanExporter spans() {
    SpanExporter sdk;
    if (encoding.json()) {
      HttpExporter http =
          jsonExporter(StandardComponentId.ExporterType.OTLP_HTTP_JSON_SPAN_EXPORTER, "/v1/traces");
      sdk =
          new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
              return http.export(TraceRequestMarshaler.create(spans), spans.size());
            }

            @Override
            public CompletableResultCode flush() {
              return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
              return http.shutdown();
            }
          };
    } else {
      sdk =
          OtlpHttpSpanExporter.builder()
              .setEndpoint(endpoint + "/v1/traces")
              .addHeader("Authorization", "Bearer " + token)
              .setCompression(encoding.compression())
              .build();
    }
    SpanExporter delegate = sdk;
    return new SpanExporter() {
      @Override
      public CompletableResultCode export(Collection<SpanData> spans) {
        return record(delegate.export(spans));
      }

      @Override
      public CompletableResultCode flush() {
        return delegate.flush();
      }

      @Override
      public CompletableResultCode shutdown() {
        return delegate.shutdown();
      }
    };
  }

  LogRecordExporter logs() {
    LogRecordExporter sdk;
    if (encoding.json()) {
      HttpExporter http =
          jsonExporter(StandardComponentId.ExporterType.OTLP_HTTP_JSON_LOG_EXPORTER, "/v1/logs");
      sdk =
          new LogRecordExporter() {
            @Override
            public CompletableResultCode export(Collection<LogRecordData> logs) {
              return http.export(LogsRequestMarshaler.create(logs), logs.size());
            }

            @Override
            public CompletableResultCode flush() {
              return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
              return http.shutdown();
            }
          };
    } else {
      sdk =
          OtlpHttpLogRecordExporter.builder()
              .setEndpoint(endpoint + "/v1/logs")
              .addHeader("Authorization", "Bearer " + token)
              .setCompression(encoding.compression())
              .build();
    }
    LogRecordExporter delegate = sdk;
    return new LogRecordExporter() {
      @Override
      public CompletableResultCode export(Collection<LogRecordData> logs) {
        return record(delegate.export(logs));
      }

      @Override
      public CompletableResultCode flush() {
        return delegate.flush();
      }

      @Override
      public CompletableResultCode shutdown() {
        return delegate.shutdown();
      }
    };
  }

  MetricExporter metrics() {
    MetricExporter sdk;
    if (encoding.json()) {
      HttpExporter http =
          jsonExporter(
              StandardComponentId.ExporterType.OTLP_HTTP_JSON_METRIC_EXPORTER, "/v1/metrics");
      sdk =
          new MetricExporter() {
            @Override
            public AggregationTemporality getAggregationTemporality(InstrumentType type) {
              return AggregationTemporality.CUMULATIVE;
            }

            @Override
            public CompletableResultCode export(Collection<MetricData> metrics) {
              return http.export(MetricsRequestMarshaler.create(metrics), metrics.size());
            }

            @Override
            public CompletableResultCode flush() {
              return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
              return http.shutdown();
            }
          };
    } else {
      sdk =
          OtlpHttpMetricExporter.builder()
              .setEndpoint(endpoint + "/v1/metrics")
              .addHeader("Authorization", "Bearer " + token)
              .setCompression(encoding.compression())
              .build();
    }
    MetricExporter delegate = sdk;
    return new MetricExporter() {
      @Override
      public AggregationTemporality getAggregationTemporality(InstrumentType type) {
        return delegate.getAggregationTemporality(type);
      }

      @Override
      public CompletableResultCode export(Collection<MetricData> metrics) {
        return record(delegate.export(metrics));
      }

      @Override
      public CompletableResultCode flush() {
        return delegate.flush();
      }

      @Override
      public CompletableResultCode shutdown() {
        return delegate.shutdown();
      }
    };
  }
}
