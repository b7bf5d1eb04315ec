package dev.chartwell.log4j2;

import dev.chartwell.engine.Engine;
import dev.chartwell.integrations.LogEntry;
import dev.chartwell.integrations.LogPipeline;
import dev.chartwell.integrations.Severity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
import org.apache.logging.log4j.core.time.Instant;

/**
 * Stores log events in an embedded engine's {@code otel_logs} source without blocking the logging
 * thread. Each event becomes one row: {@code Timestamp} (and {@code TimestampNanos}), {@code
 * SeverityText} (the level, {@code INFO}) and {@code SeverityNumber} (OpenTelemetry's number for
 * it: TRACE 1, DEBUG 5, INFO 9, WARN 13, ERROR 17, FATAL 21), {@code Body} (the formatted message),
 * {@code ScopeName} (the logger), {@code ServiceName}, {@code LogAttributes.thread.name} and {@code
 * thread.id}, the thread context as {@code LogAttributes.<key>}, and an exception as {@code
 * LogAttributes.exception.type}, {@code exception.message} and {@code exception.stacktrace}.
 *
 * <p>Configured in {@code log4j2.xml}:
 *
 * <pre>{@code
 * <Appenders>
 *   <Chartwell name="CHARTWELL" serviceName="checkout" queueSize="8192" batchSize="1000"
 *              batchDelayMillis="1000" maxWaitMillis="0"/>
 * </Appenders>
 * }</pre>
 *
 * and given its engine once the application has built it: {@code ChartwellAppender.attach(engine)}
 * (every appender of this class in the current configuration), or {@link #setEngine} on one. Events
 * logged before wait in the queue. The source ({@code otel_logs} unless {@code sourceId} says
 * otherwise) is created with the columns of {@code otel_logs} when missing. {@link #flush} waits
 * until what was logged is stored; stopping the appender (Log4j's shutdown, or a reconfiguration)
 * stores what is queued. Events dropped for a full queue are counted ({@link #droppedEvents()}) and
 * reported as warnings of Log4j's status logger.
 */
@Plugin(
    name = "Chartwell",
    category = Core.CATEGORY_NAME,
    elementType = Appender.ELEMENT_TYPE,
    printObject = true)
public final class ChartwellAppender extends AbstractAppender {
  private final LogPipeline pipeline;

  private ChartwellAppender(String name, LogPipeline.Settings settings) {
    super(name, null, null, true, Property.EMPTY_ARRAY);
    this.pipeline = new LogPipeline(settings, LOGGER::warn, "chartwell-log4j2-" + name);
  }

  /**
   * @return a builder; Log4j calls it for each {@code <Chartwell>} element
   */
  @PluginBuilderFactory
  public static Builder newBuilder() {
    return new Builder();
  }

  /** Builds the appender from the element's attributes, or from code. */
  public static final class Builder
      implements org.apache.logging.log4j.core.util.Builder<ChartwellAppender> {
    @PluginBuilderAttribute private String name;

    @PluginBuilderAttribute private int queueSize = LogPipeline.Settings.DEFAULT_QUEUE_SIZE;

    @PluginBuilderAttribute private int batchSize = LogPipeline.Settings.DEFAULT_BATCH_SIZE;

    @PluginBuilderAttribute
    private long batchDelayMillis = LogPipeline.Settings.DEFAULT_BATCH_DELAY_MILLIS;

    @PluginBuilderAttribute private long maxWaitMillis;

    @PluginBuilderAttribute private String serviceName = LogPipeline.Settings.DEFAULT_SERVICE_NAME;

    @PluginBuilderAttribute private String sourceId = "otel_logs";

    private Builder() {}

    /**
     * @param name the appender's name
     * @return this
     */
    public Builder setName(String name) {
      this.name = name;
      return this;
    }

    /**
     * @param queueSize the most events waiting to be stored (default 8192); more are dropped
     * @return this
     */
    public Builder setQueueSize(int queueSize) {
      this.queueSize = queueSize;
      return this;
    }

    /**
     * @param batchSize the most events appended to the engine at once (default 1000)
     * @return this
     */
    public Builder setBatchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    /**
     * @param batchDelayMillis the longest an event waits for its batch to fill (default 1000)
     * @return this
     */
    public Builder setBatchDelayMillis(long batchDelayMillis) {
      this.batchDelayMillis = batchDelayMillis;
      return this;
    }

    /**
     * @param maxWaitMillis how long a logging thread may wait for room in a full queue before its
     *     event is dropped (default 0: never wait)
     * @return this
     */
    public Builder setMaxWaitMillis(long maxWaitMillis) {
      this.maxWaitMillis = maxWaitMillis;
      return this;
    }

    /**
     * @param serviceName stored as {@code ServiceName} (default {@code unknown_service:java})
     * @return this
     */
    public Builder setServiceName(String serviceName) {
      this.serviceName = serviceName;
      return this;
    }

    /**
     * @param sourceId the engine source to store events in (default {@code otel_logs})
     * @return this
     */
    public Builder setSourceId(String sourceId) {
      this.sourceId = sourceId;
      return this;
    }

    /**
     * @return the appender, or {@code null} (Log4j's way) when a setting is not usable
     */
    @Override
    public ChartwellAppender build() {
      if (name == null) {
        LOGGER.error("a Chartwell appender needs a name");
        return null;
      }
      try {
        return new ChartwellAppender(
            name,
            new LogPipeline.Settings(
                queueSize, batchSize, batchDelayMillis, maxWaitMillis, serviceName, sourceId));
      } catch (RuntimeException e) {
        LOGGER.error("Chartwell appender {}: {}", name, e.getMessage());
        return null;
      }
    }
  }

  /**
   * Gives every {@code ChartwellAppender} of the current Log4j configuration this engine.
   *
   * @param engine the engine
   * @return how many appenders were given it
   */
  public static int attach(Engine engine) {
    if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
      return 0;
    }
    return attach(context, engine);
  }

  /**
   * Gives every {@code ChartwellAppender} of a Log4j context's configuration this engine.
   *
   * @param context the Log4j context
   * @param engine the engine
   * @return how many appenders were given it
   */
  public static int attach(LoggerContext context, Engine engine) {
    Objects.requireNonNull(engine, "engine");
    List<ChartwellAppender> all = appenders(context);
    all.forEach(a -> a.setEngine(engine));
    return all.size();
  }

  /**
   * Flushes every {@code ChartwellAppender} of the current configuration: waits until every event
   * logged before this call is stored.
   *
   * @param timeout the longest to wait for each appender
   * @return whether every one stored them all in time
   */
  public static boolean flushAll(Duration timeout) {
    if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
      return true;
    }
    boolean all = true;
    for (ChartwellAppender a : appenders(context)) {
      all &= a.flush(timeout);
    }
    return all;
  }

  private static List<ChartwellAppender> appenders(LoggerContext context) {
    Objects.requireNonNull(context, "context");
    List<ChartwellAppender> out = new ArrayList<>();
    for (Appender a : context.getConfiguration().getAppenders().values()) {
      if (a instanceof ChartwellAppender c) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * @param engine the engine to store events in; events queued so far are stored at once
   */
  public void setEngine(Engine engine) {
    pipeline.attach(engine);
  }

  @Override
  public void append(LogEvent event) {
    if (pipeline.isWorkerThread()) {
      return;
    }
    pipeline.offer(entry(event));
  }

  @Override
  public boolean stop(long timeout, TimeUnit unit) {
    setStopping();
    // Log4j stops with a timeout of 0 when it sets none (LoggerContext.stop()): our own bound then.
    pipeline.close(
        timeout <= 0 ? Duration.ofSeconds(10) : Duration.ofMillis(unit.toMillis(timeout)));
    if (pipeline.droppedEvents() > 0 || pipeline.refusedEvents() > 0) {
      LOGGER.info(
          "Chartwell appender {} stopped: {} events stored, {} dropped, {} refused by the engine",
          getName(),
          pipeline.writtenEvents(),
          pipeline.droppedEvents(),
          pipeline.refusedEvents());
    }
    setStopped();
    return true;
  }

  /**
   * Waits until every event logged before this call is stored (at most 10 seconds).
   *
   * @return whether they all were; {@code false} when the time ran out or no engine is attached
   */
  public boolean flush() {
    return flush(Duration.ofSeconds(10));
  }

  /**
   * Waits until every event logged before this call is stored.
   *
   * @param timeout the longest to wait
   * @return whether they all were; {@code false} when the time ran out or no engine is attached
   */
  public boolean flush(Duration timeout) {
    return pipeline.flush(timeout);
  }

  /**
   * @return events dropped because the queue was full (or the appender was stopping)
   */
  public long droppedEvents() {
    return pipeline.droppedEvents();
  }

  /**
   * @return events the engine refused (rejected, writes refused for memory, a failed append)
   */
  public long refusedEvents() {
    return pipeline.refusedEvents();
  }

  /**
   * @return events stored in the engine
   */
  public long writtenEvents() {
    return pipeline.writtenEvents();
  }

  /** The event in OpenTelemetry's terms; runs on the logging thread, so it only gathers. */
  private static LogEntry entry(LogEvent event) {
    Instant t = event.getInstant();
    long nanos = t.getEpochSecond() * 1_000_000_000L + t.getNanoOfSecond();
    return new LogEntry(
        nanos,
        event.getLevel().name(),
        severity(event.getLevel()),
        event.getLoggerName(),
        event.getThreadName(),
        event.getThreadId(),
        event.getMessage() == null ? "" : event.getMessage().getFormattedMessage(),
        event.getContextData() == null ? null : event.getContextData().toMap(),
        event.getThrown());
  }

  /**
   * @param level a Log4j level, standard or custom
   * @return OpenTelemetry's severity number for it, by the range its number falls in
   */
  static int severity(Level level) {
    int n = level.intLevel();
    if (n == Level.OFF.intLevel()) {
      return Severity.UNDEFINED;
    } else if (n <= Level.FATAL.intLevel()) {
      return Severity.FATAL;
    } else if (n <= Level.ERROR.intLevel()) {
      return Severity.ERROR;
    } else if (n <= Level.WARN.intLevel()) {
      return Severity.WARN;
    } else if (n <= Level.INFO.intLevel()) {
      return Severity.INFO;
    } else if (n <= Level.DEBUG.intLevel()) {
      return Severity.DEBUG;
    }
    return Severity.TRACE;
  }
}
