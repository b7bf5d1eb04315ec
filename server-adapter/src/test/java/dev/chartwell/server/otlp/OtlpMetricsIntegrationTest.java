package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleGauge;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongUpDownCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Metrics sent by the OpenTelemetry Java SDK's OTLP/HTTP exporter, in both encodings: the first
 * write creates the five metric tables and the {@code Metrics} source, and gauges, sums (with
 * temporality and monotonicity), histograms and exponential histograms read back through chart
 * queries on that source, by {@code metricDataType} and {@code metricName}.
 */
class OtlpMetricsIntegrationTest {
  @TempDir Path dataDir;
  OtlpServerFixture fx;

  @AfterEach
  void tearDown() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = SdkExporters.Encoding.class,
      names = {"PROTOBUF", "JSON_GZIP"})
  void gaugesSumsAndHistogramsReadBack(SdkExporters.Encoding encoding) throws Exception {
    fx = new OtlpServerFixture(dataDir);
    SdkExporters exporters = new SdkExporters(encoding, fx.endpoint(true), fx.token);
    long before = System.currentTimeMillis();
    try (SdkMeterProvider provider =
        SdkMeterProvider.builder()
            .setResource(
                Resource.create(Attributes.builder().put("service.name", "inventory").build()))
            .registerView(
                InstrumentSelector.builder().setName("latency.exp").build(),
                View.builder()
                    .setAggregation(Aggregation.base2ExponentialBucketHistogram(20, 20))
                    .build())
            .registerMetricReader(
                PeriodicMetricReader.builder(exporters.metrics())
                    .setInterval(Duration.ofHours(1))
                    .build())
            .build()) {
      Meter meter = provider.meterBuilder("chartwell.test").setInstrumentationVersion("2").build();
      LongCounter requests =
          meter.counterBuilder("requests").setDescription("served").setUnit("{request}").build();
      requests.add(5, Attributes.builder().put("route", "/a").build());
      requests.add(2, Attributes.builder().put("route", "/a").build());
      requests.add(4, Attributes.builder().put("route", "/b").build());
      LongUpDownCounter queue = meter.upDownCounterBuilder("queue.depth").build();
      queue.add(10);
      queue.add(-3);
      DoubleGauge temperature = meter.gaugeBuilder("temperature").setUnit("Cel").build();
      temperature.set(21.5, Attributes.builder().put("room", "lab").build());
      DoubleHistogram latency =
          meter
              .histogramBuilder("latency")
              .setUnit("ms")
              .setExplicitBucketBoundariesAdvice(List.of(10.0, 100.0))
              .build();
      for (double v : new double[] {5, 50, 500, 70}) {
        latency.record(v);
      }
      DoubleHistogram exp = meter.histogramBuilder("latency.exp").build();
      exp.record(1.0);
      exp.record(4.0);
    } // closing the provider exports once (a flush before would export the cumulative points twice)
    exporters.assertAllSucceeded();
    long after = System.currentTimeMillis();

    JsonNode metrics = fx.sources().get("Metrics");
    assertEquals("metric", metrics.get("kind").textValue());
    assertEquals("TimeUnix", metrics.get("timestampValueExpression").textValue());
    assertEquals(
        "{\"gauge\":\"otel_metrics_gauge\",\"sum\":\"otel_metrics_sum\","
            + "\"histogram\":\"otel_metrics_histogram\","
            + "\"exponential histogram\":\"otel_metrics_exponential_histogram\","
            + "\"summary\":\"otel_metrics_summary\"}",
        metrics.get("metricTables").toString());
    Map<String, JsonNode> tables = fx.tables();
    assertEquals(3, tables.get("otel_metrics_sum").get("rows").asLong());
    assertEquals(1, tables.get("otel_metrics_gauge").get("rows").asLong());
    assertEquals(1, tables.get("otel_metrics_histogram").get("rows").asLong());
    assertEquals(1, tables.get("otel_metrics_exponential_histogram").get("rows").asLong());
    assertEquals(0, tables.get("otel_metrics_summary").get("rows").asLong());

    String id = metrics.get("id").textValue();
    long from = before - 60_000;
    long to = after + 60_000;
    Map<String, Map<String, Long>> sum =
        Map.of(
            "MetricName", Map.of("requests", 2L, "queue.depth", 1L),
            "MetricDescription", Map.of("served", 2L),
            "MetricUnit", Map.of("{request}", 2L),
            "Value", Map.of("7", 2L, "4", 1L),
            "IsMonotonic", Map.of("true", 2L, "false", 1L),
            "AggregationTemporality", Map.of("2", 3L),
            "Attributes.route", Map.of("/a", 1L, "/b", 1L),
            "ServiceName", Map.of("inventory", 3L),
            "ScopeName", Map.of("chartwell.test", 3L),
            "ScopeVersion", Map.of("2", 3L));
    for (Map.Entry<String, Map<String, Long>> e : sum.entrySet()) {
      assertEquals(
          e.getValue(),
          fx.values(id, e.getKey(), from, to, Map.of("metricDataType", "sum")),
          e.getKey());
    }
    // metricName keeps one metric's points; metricDataType picks the table.
    assertEquals(
        Map.of("7", 1L),
        fx.values(
            id, "Value", from, to, Map.of("metricDataType", "sum", "metricName", "queue.depth")));
    assertEquals(
        Map.of("21.5", 1L),
        fx.values(
            id, "Value", from, to, Map.of("metricDataType", "gauge", "metricName", "temperature")));
    assertEquals(
        Map.of("lab", 1L),
        fx.values(id, "Attributes.room", from, to, Map.of("metricDataType", "gauge")));
    Map<String, String> histogram = Map.of("metricDataType", "histogram", "metricName", "latency");
    assertEquals(Map.of("4", 1L), fx.values(id, "Count", from, to, histogram));
    assertEquals(Map.of("625", 1L), fx.values(id, "Sum", from, to, histogram));
    assertEquals(Map.of("5", 1L), fx.values(id, "Min", from, to, histogram));
    assertEquals(Map.of("500", 1L), fx.values(id, "Max", from, to, histogram));
    assertEquals(Map.of("[1,2,1]", 1L), fx.values(id, "BucketCounts", from, to, histogram));
    assertEquals(Map.of("[10.0,100.0]", 1L), fx.values(id, "ExplicitBounds", from, to, histogram));
    assertEquals(Map.of("ms", 1L), fx.values(id, "MetricUnit", from, to, histogram));
    Map<String, String> exponential = Map.of("metricDataType", "exponential histogram");
    assertEquals(Map.of("2", 1L), fx.values(id, "Count", from, to, exponential));
    assertEquals(Map.of("5", 1L), fx.values(id, "Sum", from, to, exponential));
    assertEquals(1, fx.values(id, "Scale", from, to, exponential).size());
    assertEquals(Map.of("0", 1L), fx.values(id, "ZeroCount", from, to, exponential));
    String buckets =
        fx.values(id, "PositiveBucketCounts", from, to, exponential).keySet().iterator().next();
    long counted = 0;
    for (JsonNode n : OtlpServerFixture.MAPPER.readTree(buckets)) {
      counted += n.asLong();
    }
    assertEquals(2, counted, buckets);
    // The chart API follows HyperDX's metric semantics on the metric source: a gauge's last value.
    JsonNode gauge =
        fx.chart(
            OtlpServerFixture.MAPPER.readTree(
                "{\"startTime\":"
                    + from
                    + ",\"endTime\":"
                    + to
                    + ",\"granularity\":\"30d\",\"series\":[{\"sourceId\":\""
                    + id
                    + "\",\"aggFn\":\"avg\",\"metricDataType\":\"gauge\","
                    + "\"metricName\":\"temperature\"}]}"));
    assertEquals(21.5, gauge.get("data").get(0).get("series_0.data").asDouble());
    // Nanosecond times beside the millisecond one.
    Map<String, Long> nanos =
        fx.values(id, "TimeUnixNanos", from, to, Map.of("metricDataType", "gauge"));
    long ns = Long.parseLong(nanos.keySet().iterator().next());
    assertEquals(true, ns / 1_000_000 >= before && ns / 1_000_000 <= after, nanos.toString());
  }
}
