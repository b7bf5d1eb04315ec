package dev.chartwell.micrometer;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Source;
import dev.chartwell.integrations.OtelTables;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.core.instrument.cumulative.CumulativeCounter;
import io.micrometer.core.instrument.cumulative.CumulativeFunctionCounter;
import io.micrometer.core.instrument.cumulative.CumulativeFunctionTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.internal.DefaultGauge;
import io.micrometer.core.instrument.internal.DefaultLongTaskTimer;
import io.micrometer.core.instrument.internal.DefaultMeter;
import io.micrometer.core.instrument.push.PushMeterRegistry;
import io.micrometer.core.instrument.util.NamedThreadFactory;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A Micrometer registry that stores the application's meters in an embedded engine, every {@link
 * ChartwellRegistryConfig#step() step} (one minute by default) and once more when closed, as points
 * of the OpenTelemetry ClickHouse exporter's metric tables:
 *
 * <table>
 *   <caption>meters and points</caption>
 *   <tr><th>meter</th><th>source</th><th>point</th></tr>
 *   <tr><td>counter, function counter</td><td>{@code otel_metrics_sum}</td>
 *       <td>monotonic, cumulative ({@code AggregationTemporality} 2): the total since the start</td></tr>
 *   <tr><td>gauge, time gauge</td><td>{@code otel_metrics_gauge}</td><td>the value now</td></tr>
 *   <tr><td>timer, distribution summary</td><td>{@code otel_metrics_histogram}</td>
 *       <td>cumulative: {@code Count}, {@code Sum}, {@code Max} and explicit-bucket
 *       {@code BucketCounts} over {@code ExplicitBounds}: the meter's configured histogram
 *       buckets (service level objectives, percentile histogram), else OpenTelemetry's default
 *       bounds (0, 5, 10, 25, ... 10000); timers in milliseconds</td></tr>
 *   <tr><td>function timer</td><td>{@code otel_metrics_histogram}</td><td>count and sum, one
 *       bucket</td></tr>
 *   <tr><td>long task timer</td><td>{@code otel_metrics_gauge}</td>
 *       <td>{@code <name>.active} (tasks) and {@code <name>.duration} (milliseconds)</td></tr>
 *   <tr><td>other meters</td><td>sum for total and count statistics, else gauge</td>
 *       <td>{@code <name>.<statistic>}</td></tr>
 * </table>
 *
 * <p>Names are kept dotted ({@code http.server.requests}, Micrometer's {@code dot} convention, as
 * OpenTelemetry names metrics); tags become {@code Attributes.<key>}; every point carries {@code
 * ServiceName}. A chart series with {@code metricDataType} {@code sum} then charts a counter's
 * increase per bucket, {@code gauge} a gauge's last value, {@code histogram} a timer's quantiles.
 * The three sources are created with the tables' columns when missing, when the registry is made.
 *
 * <pre>{@code
 * ChartwellMeterRegistry registry = new ChartwellMeterRegistry(ChartwellRegistryConfig.DEFAULT,
 *     Clock.SYSTEM, engine);
 * Metrics.addRegistry(registry);              // or give it to your framework
 * new ChartwellEngineMetrics(engine).bindTo(registry);
 * }</pre>
 */
public final class ChartwellMeterRegistry extends PushMeterRegistry {
  /** The {@code ScopeName} of every point. */
  public static final String SCOPE_NAME = "io.micrometer";

  private final Engine engine;
  private final ChartwellRegistryConfig config;
  private final long startNanos;
  private final Consumer<String> warnings;
  private final Object publishing = new Object();
  private final Source gauges;
  private final Source sums;
  private final Source histograms;

  /**
   * Makes the registry and starts publishing (when the configuration is enabled).
   *
   * @param config step, enabled and service name
   * @param clock the clock points are timed by
   * @param engine the engine to store points in
   */
  public ChartwellMeterRegistry(ChartwellRegistryConfig config, Clock clock, Engine engine) {
    this(
        config,
        clock,
        engine,
        line ->
            System.getLogger(ChartwellMeterRegistry.class.getName())
                .log(System.Logger.Level.WARNING, line));
  }

  /**
   * As the other constructor, with a receiver of the lines that report points the engine refused.
   *
   * @param config step, enabled and service name
   * @param clock the clock points are timed by
   * @param engine the engine to store points in
   * @param warnings receives a line when points could not be stored
   */
  public ChartwellMeterRegistry(
      ChartwellRegistryConfig config, Clock clock, Engine engine, Consumer<String> warnings) {
    super(config, clock);
    this.config = Objects.requireNonNull(config, "config");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    this.startNanos = clock.wallTime() * 1_000_000L;
    this.gauges = OtelTables.GAUGE.ensure(engine, OtelTables.GAUGE.tableName());
    this.sums = OtelTables.SUM.ensure(engine, OtelTables.SUM.tableName());
    this.histograms = OtelTables.HISTOGRAM.ensure(engine, OtelTables.HISTOGRAM.tableName());
    config().namingConvention(NamingConvention.dot);
    start(new NamedThreadFactory("chartwell-metrics-publisher"));
  }

  /**
   * @return the engine the points go to
   */
  public Engine engine() {
    return engine;
  }

  /** Stores every meter's point now, as each step does (and waits for it). */
  public void flush() {
    publish();
  }

  @Override
  protected void publish() {
    synchronized (publishing) {
      long now = clock.wallTime() * 1_000_000L;
      MetricRows g = new MetricRows(config.serviceName());
      MetricRows s = new MetricRows(config.serviceName());
      MetricRows h = new MetricRows(config.serviceName());
      for (Meter m : getMeters()) {
        try {
          write(m, now, g, s, h);
        } catch (RuntimeException e) {
          warnings.accept("could not read meter " + m.getId().getName() + ": " + e);
        }
      }
      append(gauges, g);
      append(sums, s);
      append(histograms, h);
    }
  }

  private void write(Meter m, long now, MetricRows g, MetricRows s, MetricRows h) {
    Meter.Id id = m.getId();
    NamingConvention naming = config().namingConvention();
    List<Tag> tags = id.getConventionTags(naming);
    MetricRows.Point p =
        new MetricRows.Point(
            now,
            startNanos,
            id.getConventionName(naming),
            id.getDescription(),
            id.getBaseUnit(),
            tags);
    String ms = "ms";
    if (m instanceof TimeGauge tg) {
      g.gauge(p.named(p.name, ms), tg.value(TimeUnit.MILLISECONDS));
    } else if (m instanceof Gauge gauge) {
      g.gauge(p, gauge.value());
    } else if (m instanceof Counter c) {
      s.monotonicSum(p, c.count());
    } else if (m instanceof FunctionCounter c) {
      s.monotonicSum(p, c.count());
    } else if (m instanceof BucketedTimer t) {
      h.histogram(
          p.named(p.name, ms),
          t.count(),
          t.totalTime(TimeUnit.MILLISECONDS),
          t.max(TimeUnit.MILLISECONDS),
          t.buckets());
    } else if (m instanceof BucketedSummary d) {
      h.histogram(p, d.count(), d.totalAmount(), d.max(), d.buckets());
    } else if (m instanceof FunctionTimer t) {
      h.histogram(
          p.named(p.name, ms),
          (long) t.count(),
          t.totalTime(TimeUnit.MILLISECONDS),
          Double.NaN,
          null);
    } else if (m instanceof LongTaskTimer t) {
      g.gauge(p.named(p.name + ".active", "tasks"), t.activeTasks());
      g.gauge(p.named(p.name + ".duration", ms), t.duration(TimeUnit.MILLISECONDS));
    } else {
      for (Measurement x : m.measure()) {
        MetricRows.Point named =
            p.named(p.name + "." + x.getStatistic().getTagValueRepresentation(), p.unit);
        Statistic st = x.getStatistic();
        if (st == Statistic.COUNT || st == Statistic.TOTAL || st == Statistic.TOTAL_TIME) {
          s.monotonicSum(named, x.getValue());
        } else {
          g.gauge(named, x.getValue());
        }
      }
    }
  }

  private void append(Source source, MetricRows rows) {
    if (rows.batch.size() == 0) {
      return;
    }
    try {
      AppendResult r = source.append(rows.batch);
      if (!r.rejections().isEmpty()) {
        warnings.accept(
            r.rejections().size()
                + " metric points were rejected by source "
                + source.id()
                + ", the first: "
                + r.rejections().get(0).reason());
      }
    } catch (RuntimeException e) {
      warnings.accept(
          "could not store " + rows.batch.size() + " metric points in " + source.id() + ": " + e);
    }
  }

  @Override
  protected <T> Gauge newGauge(Meter.Id id, T obj, ToDoubleFunction<T> valueFunction) {
    return new DefaultGauge<>(id, obj, valueFunction);
  }

  @Override
  protected Counter newCounter(Meter.Id id) {
    return new CumulativeCounter(id);
  }

  @Override
  protected LongTaskTimer newLongTaskTimer(
      Meter.Id id, DistributionStatisticConfig distributionStatisticConfig) {
    return new DefaultLongTaskTimer(
        id, clock, getBaseTimeUnit(), distributionStatisticConfig, false);
  }

  @Override
  protected Timer newTimer(
      Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
    return new BucketedTimer(id, clock, config, pauseDetector, getBaseTimeUnit());
  }

  @Override
  protected DistributionSummary newDistributionSummary(
      Meter.Id id, DistributionStatisticConfig config, double scale) {
    return new BucketedSummary(id, clock, config, scale);
  }

  @Override
  protected Meter newMeter(Meter.Id id, Meter.Type type, Iterable<Measurement> measurements) {
    return new DefaultMeter(id, type, measurements);
  }

  @Override
  protected <T> FunctionTimer newFunctionTimer(
      Meter.Id id,
      T obj,
      ToLongFunction<T> countFunction,
      ToDoubleFunction<T> totalTimeFunction,
      TimeUnit totalTimeFunctionUnit) {
    return new CumulativeFunctionTimer<>(
        id, obj, countFunction, totalTimeFunction, totalTimeFunctionUnit, getBaseTimeUnit());
  }

  @Override
  protected <T> FunctionCounter newFunctionCounter(
      Meter.Id id, T obj, ToDoubleFunction<T> countFunction) {
    return new CumulativeFunctionCounter<>(id, obj, countFunction);
  }

  @Override
  protected TimeUnit getBaseTimeUnit() {
    return TimeUnit.MILLISECONDS;
  }

  @Override
  protected DistributionStatisticConfig defaultHistogramConfig() {
    return DistributionStatisticConfig.builder()
        .expiry(config.step())
        .build()
        .merge(DistributionStatisticConfig.DEFAULT);
  }
}
