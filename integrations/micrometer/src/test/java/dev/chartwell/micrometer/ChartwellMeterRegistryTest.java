package dev.chartwell.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.MetricType;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real Micrometer meters, stored in a real engine on disk, read back by metric series. */
class ChartwellMeterRegistryTest {
  /** A clock the test moves; it starts now, so that points are where queries look. */
  static final class TestClock implements Clock {
    final AtomicLong millis = new AtomicLong(System.currentTimeMillis());

    @Override
    public long wallTime() {
      return millis.get();
    }

    @Override
    public long monotonicTime() {
      return TimeUnit.MILLISECONDS.toNanos(millis.get());
    }
  }

  /** Publishes only when the test says so. */
  private static final ChartwellRegistryConfig MANUAL =
      key ->
          switch (key) {
            case "chartwell.enabled" -> "false";
            case "chartwell.serviceName" -> "shop";
            default -> null;
          };

  @TempDir Path dir;
  private Engine engine;
  private TestClock clock;
  private ChartwellMeterRegistry registry;

  @BeforeEach
  void open() {
    engine = Engine.builder().dataDirectory(dir).build();
    clock = new TestClock();
    registry = new ChartwellMeterRegistry(MANUAL, clock, engine);
  }

  @AfterEach
  void close() {
    registry.close();
    engine.close();
  }

  @Test
  void countersGaugesTimersAndSummariesAreReadByMetricSeries() {
    Counter orders = Counter.builder("orders.placed").tag("region", "eu").register(registry);
    AtomicInteger depth = registry.gauge("queue.depth", new AtomicInteger(7));
    Timer latency = Timer.builder("checkout.latency").register(registry);
    DistributionSummary size =
        DistributionSummary.builder("payload.size")
            .baseUnit("bytes")
            .serviceLevelObjectives(1000, 5000)
            .register(registry);

    orders.increment(3);
    for (int i = 0; i < 4; i++) {
      latency.record(Duration.ofMillis(20));
    }
    latency.record(Duration.ofMillis(300));
    size.record(100);
    size.record(2000);
    long t0 = clock.wallTime();
    registry.flush();

    clock.millis.addAndGet(60_000);
    orders.increment(5);
    depth.set(11);
    latency.record(Duration.ofMillis(8));
    latency.record(Duration.ofMillis(8));
    long t1 = clock.wallTime();
    registry.flush();

    // The counter: monotonic cumulative points 3 and 8; the sum series charts the increase.
    List<Map<String, Object>> sums =
        Queries.points(engine, "otel_metrics_sum", "MetricName:\"orders.placed\"", t0);
    assertEquals(2, sums.size());
    Map<String, Object> latest = sums.get(0);
    assertEquals(8.0, latest.get("Value"));
    assertEquals(true, latest.get("IsMonotonic"));
    assertEquals(2L, latest.get("AggregationTemporality"));
    assertEquals("eu", latest.get("Attributes.region"));
    assertEquals("shop", latest.get("ServiceName"));
    assertEquals(t1, latest.get("TimeUnix"));
    assertEquals(
        5.0,
        Queries.total(
            Queries.metric(
                engine, "otel_metrics_sum", "orders.placed", MetricType.SUM, AggFn.SUM, t0)));

    // The gauge: its last value per minute.
    List<ChartResult.Row> gauge =
        Queries.metric(
            engine, "otel_metrics_gauge", "queue.depth", MetricType.GAUGE, AggFn.MAX, t0);
    assertEquals(2, gauge.size());
    assertEquals(7.0, gauge.get(0).values().get(0).doubleValue());
    assertEquals(11.0, gauge.get(1).values().get(0).doubleValue());

    // The timer: a cumulative histogram in milliseconds over OpenTelemetry's default bounds.
    Map<String, Object> h =
        Queries.points(engine, "otel_metrics_histogram", "MetricName:\"checkout.latency\"", t0)
            .get(0);
    assertEquals(7L, h.get("Count"));
    assertEquals(396.0, h.get("Sum"));
    assertEquals("ms", h.get("MetricUnit"));
    assertEquals(
        "[0,5,10,25,50,75,100,250,500,750,1000,2500,5000,7500,10000]", h.get("ExplicitBounds"));
    assertEquals("[0,0,2,4,0,0,0,0,1,0,0,0,0,0,0,0]", h.get("BucketCounts"));
    // Charted: the second point adds two recordings, both in (5, 10].
    assertEquals(
        2.0,
        Queries.total(
            Queries.metric(
                engine,
                "otel_metrics_histogram",
                "checkout.latency",
                MetricType.HISTOGRAM,
                AggFn.COUNT,
                t0)));
    double median =
        Queries.total(
            Queries.metric(
                engine,
                "otel_metrics_histogram",
                "checkout.latency",
                MetricType.HISTOGRAM,
                AggFn.QUANTILE,
                t0));
    assertTrue(median > 5 && median <= 10, "median " + median);

    // The summary: its own service level objectives as bounds.
    Map<String, Object> s =
        Queries.points(engine, "otel_metrics_histogram", "MetricName:\"payload.size\"", t0).get(0);
    assertEquals("[1000,5000]", s.get("ExplicitBounds"));
    assertEquals("[1,1,0]", s.get("BucketCounts"));
    assertEquals("bytes", s.get("MetricUnit"));
  }

  @Test
  void closingStoresALastPoint() {
    // Enabled, with a step no test lasts: only the close publishes.
    ChartwellRegistryConfig hourly =
        key ->
            switch (key) {
              case "chartwell.step" -> "1h";
              case "chartwell.serviceName" -> "closing";
              default -> null;
            };
    ChartwellMeterRegistry r = new ChartwellMeterRegistry(hourly, clock, engine);
    Counter.builder("jobs.done").register(r).increment(4);
    r.close();
    List<Map<String, Object>> points =
        Queries.points(engine, "otel_metrics_sum", "ServiceName:closing", clock.wallTime());
    assertEquals(1, points.size());
    assertEquals(4.0, points.get(0).get("Value"));
  }

  @Test
  void aBinderNobodyHoldsStillReads() {
    SimpleMeterRegistry simple = new SimpleMeterRegistry();
    java.lang.ref.WeakReference<ChartwellEngineMetrics> binder = bindAndForget(simple);
    for (int i = 0; i < 5 && binder.get() != null; i++) {
      System.gc(); // Micrometer holds a meter's object weakly: the binder must not be that object
    }
    assertTrue(binder.get() != null, "the meters keep their binder");
    assertEquals(3.0, simple.get("chartwell.engine.sources").gauge().value());
  }

  private java.lang.ref.WeakReference<ChartwellEngineMetrics> bindAndForget(
      SimpleMeterRegistry simple) {
    ChartwellEngineMetrics b = new ChartwellEngineMetrics(engine);
    b.bindTo(simple);
    return new java.lang.ref.WeakReference<>(b);
  }

  @Test
  void theEngineFiguresAreMeters() {
    engine
        .source("otel_metrics_gauge")
        .orElseThrow()
        .append(new Event(clock.wallTime(), Map.of("MetricName", "by.hand", "Value", 1.0)));
    Queries.metric(
        engine, "otel_metrics_gauge", "by.hand", MetricType.GAUGE, AggFn.MAX, clock.wallTime());

    SimpleMeterRegistry simple = new SimpleMeterRegistry();
    new ChartwellEngineMetrics(engine).bindTo(simple);
    assertEquals(1.0, simple.get("chartwell.engine.events").gauge().value());
    assertEquals(1.0, simple.get("chartwell.engine.events.appended").functionCounter().count());
    assertEquals(3.0, simple.get("chartwell.engine.sources").gauge().value());
    assertTrue(simple.get("chartwell.engine.disk.used").gauge().value() > 0);
    assertTrue(simple.get("chartwell.engine.memory.held").gauge().value() > 0);
    assertEquals(
        1.0,
        simple
            .get("chartwell.engine.queries")
            .tag("outcome", "completed")
            .functionCounter()
            .count());
    assertEquals(0.0, simple.get("chartwell.engine.seal.backlog").gauge().value());

    // Bound to the engine's own registry, the figures become points in the engine.
    new ChartwellEngineMetrics(engine).bindTo(registry);
    registry.flush();
    Map<String, Object> held =
        Queries.points(
                engine,
                "otel_metrics_gauge",
                "MetricName:\"chartwell.engine.events\"",
                clock.wallTime())
            .get(0);
    assertEquals(1.0, held.get("Value"));
    assertEquals("events", held.get("MetricUnit"));
  }
}
