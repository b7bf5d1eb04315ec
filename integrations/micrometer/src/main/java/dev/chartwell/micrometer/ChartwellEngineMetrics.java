package dev.chartwell.micrometer;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EngineStats;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.engine.SourceStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The engine's own figures as meters of any Micrometer registry (Prometheus, OTLP, or a {@link
 * ChartwellMeterRegistry} that stores them in the engine itself):
 *
 * <ul>
 *   <li>{@code chartwell.engine.events} (gauge): events held, in every source;
 *   <li>{@code chartwell.engine.events.appended} (counter): events appended since the engine
 *       opened;
 *   <li>{@code chartwell.engine.ingestion.rate} (gauge): events appended per second, over the last
 *       10 seconds;
 *   <li>{@code chartwell.engine.seal.backlog} (gauge): heads waiting to be sealed, and {@code
 *       chartwell.engine.seal.backlog.events} the events in them;
 *   <li>{@code chartwell.engine.appends.held.back} (counter): appends that waited for the backlog;
 *   <li>{@code chartwell.engine.memory.held} and {@code chartwell.engine.disk.used} (gauges,
 *       bytes): what the engine holds on the heap and its files on disk;
 *   <li>{@code chartwell.engine.sources} (gauge): sources defined;
 *   <li>{@code chartwell.engine.queries.running} (gauge) and {@code chartwell.engine.queries}
 *       (counter, tag {@code outcome}: {@code completed}, {@code timed_out}, {@code cancelled},
 *       {@code over_budget}, {@code refused}).
 * </ul>
 *
 * The engine's statistics are read at most once a second however many meters ask. A closed engine's
 * gauges read {@code NaN}.
 */
public final class ChartwellEngineMetrics implements MeterBinder {
  private static final long REFRESH_NANOS = 1_000_000_000L;

  private final Engine engine;
  private final Iterable<Tag> tags;
  private final Object lock = new Object();
  private EngineStats stats; // guarded by lock
  private long statsAt; // guarded by lock

  /**
   * @param engine the engine to observe
   */
  public ChartwellEngineMetrics(Engine engine) {
    this(engine, Tags.empty());
  }

  /**
   * @param engine the engine to observe
   * @param tags tags every meter carries (for example which engine, when there are several)
   */
  public ChartwellEngineMetrics(Engine engine, Iterable<Tag> tags) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.tags = Objects.requireNonNull(tags, "tags");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, "chartwell.engine.events", "events", "events held", s -> s.rows());
    counter(
        registry,
        "chartwell.engine.events.appended",
        "events",
        "events appended since the engine opened",
        s -> sum(s, SourceStats::acceptedEvents));
    gauge(
        registry,
        "chartwell.engine.ingestion.rate",
        "events/s",
        "events appended per second over the last 10 seconds",
        EngineStats::eventsPerSecond);
    gauge(
        registry,
        "chartwell.engine.seal.backlog",
        "heads",
        "heads waiting to be sealed",
        s -> sum(s, SourceStats::sealBacklog));
    gauge(
        registry,
        "chartwell.engine.seal.backlog.events",
        "events",
        "events in the heads waiting to be sealed",
        s -> sum(s, SourceStats::sealBacklogRows));
    counter(
        registry,
        "chartwell.engine.appends.held.back",
        "appends",
        "appends that waited because the seal backlog was full",
        s -> sum(s, SourceStats::appendsHeldBack));
    Gauge.builder("chartwell.engine.memory.held", engine, e -> safely(e::heldBytes))
        .tags(tags)
        .baseUnit("bytes")
        .description("bytes of events held on the heap")
        .register(registry);
    Gauge.builder("chartwell.engine.disk.used", engine, e -> safely(e::diskBytes))
        .tags(tags)
        .baseUnit("bytes")
        .description("bytes of the engine's segment files and logs")
        .register(registry);
    gauge(
        registry,
        "chartwell.engine.sources",
        "sources",
        "sources defined",
        s -> s.sources().size());
    Gauge.builder(
            "chartwell.engine.queries.running",
            engine,
            e -> safely(() -> e.queryCounters().running()))
        .tags(tags)
        .baseUnit("queries")
        .description("chart queries running now")
        .register(registry);
    queries(registry, "completed", QueryCounters::completed);
    queries(registry, "timed_out", QueryCounters::timedOut);
    queries(registry, "cancelled", QueryCounters::cancelled);
    queries(registry, "over_budget", QueryCounters::overBudget);
    queries(registry, "refused", QueryCounters::refused);
  }

  private void gauge(
      MeterRegistry registry,
      String name,
      String unit,
      String description,
      ToDoubleFunction<EngineStats> value) {
    // Micrometer holds a meter's object weakly: the object is the engine, which the application
    // holds; the function holds this binder, which may be gone from the application's hands.
    Gauge.builder(name, engine, e -> read(value))
        .tags(tags)
        .baseUnit(unit)
        .description(description)
        .register(registry);
  }

  private void counter(
      MeterRegistry registry,
      String name,
      String unit,
      String description,
      ToDoubleFunction<EngineStats> value) {
    FunctionCounter.builder(name, engine, e -> read(value))
        .tags(tags)
        .baseUnit(unit)
        .description(description)
        .register(registry);
  }

  private void queries(MeterRegistry registry, String outcome, ToLongFunction<QueryCounters> n) {
    FunctionCounter.builder(
            "chartwell.engine.queries",
            engine,
            e -> safely(() -> (double) n.applyAsLong(e.queryCounters())))
        .tags(tags)
        .tag("outcome", outcome)
        .baseUnit("queries")
        .description("chart queries by how they ended")
        .register(registry);
  }

  private static double sum(EngineStats s, ToDoubleFunction<SourceStats> f) {
    double total = 0;
    for (SourceStats x : s.sources()) {
      total += f.applyAsDouble(x);
    }
    return total;
  }

  private double read(ToDoubleFunction<EngineStats> value) {
    try {
      return value.applyAsDouble(stats());
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  private EngineStats stats() {
    synchronized (lock) {
      long now = System.nanoTime();
      if (stats == null || now - statsAt >= REFRESH_NANOS) {
        stats = engine.stats();
        statsAt = now;
      }
      return stats;
    }
  }

  private static double safely(java.util.function.DoubleSupplier f) {
    try {
      return f.getAsDouble();
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }
}
