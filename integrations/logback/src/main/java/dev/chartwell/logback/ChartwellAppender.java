package dev.chartwell.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import dev.chartwell.engine.Engine;
import dev.chartwell.integrations.LogEntry;
import dev.chartwell.integrations.LogPipeline;
import dev.chartwell.integrations.Severity;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * Stores log events in an embedded engine's {@code otel_logs} source without blocking the logging
 * thread. Each event becomes one row: {@code Timestamp} (and {@code TimestampNanos}), {@code
 * SeverityText} (the level, {@code INFO}) and {@code SeverityNumber} (OpenTelemetry's number for
 * it: TRACE 1, DEBUG 5, INFO 9, WARN 13, ERROR 17), {@code Body} (the formatted message), {@code
 * ScopeName} (the logger), {@code ServiceName}, {@code LogAttributes.thread.name} and {@code
 * thread.id}, the MDC and the event's key-value pairs as {@code LogAttributes.<key>}, and an
 * exception as {@code LogAttributes.exception.type}, {@code exception.message} and {@code
 * exception.stacktrace}.
 *
 * <p>Configured in {@code logback.xml}:
 *
 * <pre>{@code
 * <appender name="CHARTWELL" class="dev.chartwell.logback.ChartwellAppender">
 *   <serviceName>checkout</serviceName>
 *   <queueSize>8192</queueSize>        <!-- events waiting at most; more are dropped -->
 *   <batchSize>1000</batchSize>        <!-- events appended at once -->
 *   <batchDelayMillis>1000</batchDelayMillis>
 *   <maxWaitMillis>0</maxWaitMillis>   <!-- how long a logging thread may wait for room -->
 * </appender>
 * }</pre>
 *
 * and given its engine once the application has built it: {@code ChartwellAppender.attach(engine)}
 * (every appender of this class in Logback's context), or {@link #setEngine} on one. Events logged
 * before wait in the queue. The source ({@code otel_logs} unless {@link #setSourceId} says
 * otherwise) is created with the columns of {@code otel_logs} when missing. {@link #flush} waits
 * until what was logged is stored; stopping the appender (Logback's shutdown) stores what is
 * queued. Events dropped for a full queue are counted ({@link #droppedEvents()}) and reported as
 * Logback status warnings.
 */
public final class ChartwellAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
  private int queueSize = LogPipeline.Settings.DEFAULT_QUEUE_SIZE;
  private int batchSize = LogPipeline.Settings.DEFAULT_BATCH_SIZE;
  private long batchDelayMillis = LogPipeline.Settings.DEFAULT_BATCH_DELAY_MILLIS;
  private long maxWaitMillis;
  private String serviceName = LogPipeline.Settings.DEFAULT_SERVICE_NAME;
  private String sourceId = "otel_logs";
  private volatile Engine engine;
  private volatile LogPipeline pipeline;

  /** An appender with the default settings; configure it, then {@link #start()} it. */
  public ChartwellAppender() {}

  /**
   * Gives every started {@code ChartwellAppender} of Logback's default context this engine.
   *
   * @param engine the engine
   * @return how many appenders were given it
   */
  public static int attach(Engine engine) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return 0;
    }
    return attach(context, engine);
  }

  /**
   * Gives every {@code ChartwellAppender} of a Logback context this engine.
   *
   * @param context the Logback context
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
   * Flushes every {@code ChartwellAppender} of Logback's default context: waits until every event
   * logged before this call is stored.
   *
   * @param timeout the longest to wait for each appender
   * @return whether every one stored them all in time
   */
  public static boolean flushAll(Duration timeout) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return true;
    }
    boolean all = true;
    for (ChartwellAppender a : appenders(context)) {
      all &= a.flush(timeout);
    }
    return all;
  }

  /** Every appender of this class attached to a logger of the context, once each. */
  private static List<ChartwellAppender> appenders(LoggerContext context) {
    Objects.requireNonNull(context, "context");
    Set<ChartwellAppender> found = new LinkedHashSet<>();
    for (Logger logger : context.getLoggerList()) {
      for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
        if (it.next() instanceof ChartwellAppender a) {
          found.add(a);
        }
      }
    }
    return List.copyOf(found);
  }

  /**
   * @param engine the engine to store events in; a started appender starts writing at once
   */
  public void setEngine(Engine engine) {
    this.engine = Objects.requireNonNull(engine, "engine");
    LogPipeline p = pipeline;
    if (p != null) {
      p.attach(engine);
    }
  }

  /**
   * @param queueSize the most events waiting to be stored (default 8192); more are dropped
   */
  public void setQueueSize(int queueSize) {
    this.queueSize = queueSize;
  }

  /**
   * @param batchSize the most events appended to the engine at once (default 1000)
   */
  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  /**
   * @param batchDelayMillis the longest an event waits for its batch to fill (default 1000)
   */
  public void setBatchDelayMillis(long batchDelayMillis) {
    this.batchDelayMillis = batchDelayMillis;
  }

  /**
   * @param maxWaitMillis how long a logging thread may wait for room in a full queue before its
   *     event is dropped (default 0: never wait)
   */
  public void setMaxWaitMillis(long maxWaitMillis) {
    this.maxWaitMillis = maxWaitMillis;
  }

  /**
   * @param serviceName stored as {@code ServiceName} (default {@code unknown_service:java})
   */
  public void setServiceName(String serviceName) {
    this.serviceName = serviceName;
  }

  /**
   * @param sourceId the engine source to store events in (default {@code otel_logs})
   */
  public void setSourceId(String sourceId) {
    this.sourceId = sourceId;
  }

  @Override
  public void start() {
    if (isStarted()) {
      return;
    }
    LogPipeline p;
    try {
      p =
          new LogPipeline(
              new LogPipeline.Settings(
                  queueSize, batchSize, batchDelayMillis, maxWaitMillis, serviceName, sourceId),
              this::addWarn,
              "chartwell-logback-" + getName());
    } catch (RuntimeException e) {
      addError("not started: " + e.getMessage());
      return;
    }
    pipeline = p;
    Engine e = engine;
    if (e != null) {
      try {
        p.attach(e);
      } catch (RuntimeException ex) {
        addError("cannot write to the engine: " + ex, ex);
        return;
      }
    }
    super.start();
  }

  @Override
  public void stop() {
    if (!isStarted()) {
      return;
    }
    super.stop();
    LogPipeline p = pipeline;
    if (p != null) {
      p.close();
      if (p.droppedEvents() > 0 || p.refusedEvents() > 0) {
        addInfo(
            "stopped: "
                + p.writtenEvents()
                + " events stored, "
                + p.droppedEvents()
                + " dropped, "
                + p.refusedEvents()
                + " refused by the engine");
      }
    }
  }

  @Override
  protected void append(ILoggingEvent event) {
    LogPipeline p = pipeline;
    if (p == null || p.isWorkerThread()) {
      return;
    }
    p.offer(entry(event));
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
    LogPipeline p = pipeline;
    return p != null && p.flush(timeout);
  }

  /**
   * @return events dropped because the queue was full (or the appender was stopping)
   */
  public long droppedEvents() {
    LogPipeline p = pipeline;
    return p == null ? 0 : p.droppedEvents();
  }

  /**
   * @return events the engine refused (rejected, writes refused for memory, a failed append)
   */
  public long refusedEvents() {
    LogPipeline p = pipeline;
    return p == null ? 0 : p.refusedEvents();
  }

  /**
   * @return events stored in the engine
   */
  public long writtenEvents() {
    LogPipeline p = pipeline;
    return p == null ? 0 : p.writtenEvents();
  }

  /** The event in OpenTelemetry's terms; runs on the logging thread, so it only gathers. */
  private static LogEntry entry(ILoggingEvent event) {
    Instant t = event.getInstant();
    long nanos =
        t == null
            ? event.getTimeStamp() * 1_000_000L
            : t.getEpochSecond() * 1_000_000_000L + t.getNano();
    Throwable thrown = null;
    IThrowableProxy proxy = event.getThrowableProxy();
    if (proxy instanceof ThrowableProxy tp) {
      thrown = tp.getThrowable();
    }
    Thread current = Thread.currentThread();
    String threadName = event.getThreadName();
    // Logback records the thread's name only: its id is known when the logging thread is this one.
    long threadId = current.getName().equals(threadName) ? current.getId() : -1;
    return new LogEntry(
        nanos,
        event.getLevel().toString(),
        severity(event.getLevel()),
        event.getLoggerName(),
        threadName,
        threadId,
        event.getFormattedMessage(),
        attributes(event),
        thrown);
  }

  private static Map<String, String> attributes(ILoggingEvent event) {
    Map<String, String> mdc = event.getMDCPropertyMap();
    List<KeyValuePair> pairs = event.getKeyValuePairs();
    if (pairs == null || pairs.isEmpty()) {
      return mdc;
    }
    Map<String, String> all = mdc == null ? new HashMap<>() : new HashMap<>(mdc);
    for (KeyValuePair kv : pairs) {
      if (kv.key != null && kv.value != null) {
        all.put(kv.key, String.valueOf(kv.value));
      }
    }
    return all;
  }

  /**
   * @param level a Logback level
   * @return OpenTelemetry's severity number for it
   */
  static int severity(Level level) {
    return switch (level.toInt()) {
      case Level.TRACE_INT -> Severity.TRACE;
      case Level.DEBUG_INT -> Severity.DEBUG;
      case Level.INFO_INT -> Severity.INFO;
      case Level.WARN_INT -> Severity.WARN;
      case Level.ERROR_INT -> Severity.ERROR;
      default -> Severity.UNDEFINED;
    };
  }
}
