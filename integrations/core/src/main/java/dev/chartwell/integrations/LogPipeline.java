package dev.chartwell.integrations;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.Source;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The non-blocking path from a logging call to the engine, shared by the Logback and Log4j 2
 * appenders. The application's thread only {@linkplain #offer offers} an entry to a bounded queue
 * (waiting at most {@link Settings#offerWaitMillis()}, by default not at all); when the queue is
 * full the entry is dropped and counted. One background thread takes entries off the queue, fills
 * an {@link EventBatch} with rows of {@code otel_logs} ({@link LogRows}) and appends it when it
 * holds {@link Settings#batchSize()} entries or its first entry has waited {@link
 * Settings#batchDelayMillis()}, whichever comes first.
 *
 * <p>The thread starts once an engine is {@linkplain #attach attached}; until then entries wait in
 * the queue (a logging configuration is usually read before the application has built its engine).
 * {@link #flush} waits until everything offered before it is appended; {@link #close} appends what
 * is left and stops the thread. Entries the engine refused (a rejected event, writes refused for
 * memory, a failed disk) are counted apart from those dropped for a full queue; both are reported
 * through the warning callback, at most once per batch.
 */
public final class LogPipeline implements AutoCloseable {
  /**
   * How a pipeline queues, batches and labels its entries.
   *
   * @param queueSize the most entries waiting at once (at least 1)
   * @param batchSize the most entries appended at once (at least 1)
   * @param batchDelayMillis the longest an entry waits for its batch to fill (at least 1)
   * @param offerWaitMillis how long a logging thread may wait for room in a full queue before its
   *     entry is dropped ({@code 0}: never wait)
   * @param serviceName stored as {@code ServiceName} and {@code ResourceAttributes.service.name}
   * @param sourceId the engine source the entries go to, created shaped as {@code otel_logs} when
   *     missing
   */
  public record Settings(
      int queueSize,
      int batchSize,
      long batchDelayMillis,
      long offerWaitMillis,
      String serviceName,
      String sourceId) {
    /** The queue size unless configured. */
    public static final int DEFAULT_QUEUE_SIZE = 8192;

    /** The batch size unless configured. */
    public static final int DEFAULT_BATCH_SIZE = 1000;

    /** The batch delay unless configured. */
    public static final long DEFAULT_BATCH_DELAY_MILLIS = 1000;

    /** The service name unless configured: OpenTelemetry's default for a Java process. */
    public static final String DEFAULT_SERVICE_NAME = "unknown_service:java";

    /**
     * Checks the settings.
     *
     * @param queueSize the most entries waiting at once (at least 1)
     * @param batchSize the most entries appended at once (at least 1)
     * @param batchDelayMillis the longest an entry waits for its batch to fill (at least 1)
     * @param offerWaitMillis how long a logging thread may wait for room ({@code 0}: never)
     * @param serviceName the service the entries are labelled with
     * @param sourceId the engine source the entries go to
     */
    public Settings {
      if (queueSize < 1) {
        throw new IllegalArgumentException("queueSize must be at least 1, not " + queueSize);
      }
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be at least 1, not " + batchSize);
      }
      if (batchDelayMillis < 1) {
        throw new IllegalArgumentException(
            "batchDelayMillis must be at least 1, not " + batchDelayMillis);
      }
      if (offerWaitMillis < 0) {
        throw new IllegalArgumentException(
            "offerWaitMillis cannot be negative, not " + offerWaitMillis);
      }
      Objects.requireNonNull(serviceName, "serviceName");
      Objects.requireNonNull(sourceId, "sourceId");
    }

    /**
     * @return the defaults: 8192 entries queued, batches of 1000 or 1 second, no waiting, {@code
     *     unknown_service:java}, source {@code otel_logs}
     */
    public static Settings defaults() {
      return new Settings(
          DEFAULT_QUEUE_SIZE,
          DEFAULT_BATCH_SIZE,
          DEFAULT_BATCH_DELAY_MILLIS,
          0,
          DEFAULT_SERVICE_NAME,
          OtelTables.LOGS.tableName());
    }
  }

  /** Wakes the thread for a flush or the close; not an entry. */
  private static final Object WAKE = new Object();

  private final Settings settings;
  private final Consumer<String> warnings;
  private final String threadName;
  private final BlockingQueue<Object> queue;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final Object progress = new Object();
  private long done; // entries taken and handled (appended or refused); guarded by progress
  private long flushUpTo; // guarded by progress
  private final Object reporting = new Object();
  private long reportedDropped; // guarded by reporting
  private volatile boolean closing;
  private Engine engine; // guarded by this
  private volatile Source target;
  private volatile Thread worker;

  /**
   * @param settings queueing, batching and labels
   * @param warnings receives a line when entries were dropped or refused, and when appending fails
   * @param threadName the name of the background thread
   */
  public LogPipeline(Settings settings, Consumer<String> warnings, String threadName) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    this.threadName = Objects.requireNonNull(threadName, "threadName");
    this.queue = new ArrayBlockingQueue<>(settings.queueSize());
  }

  /**
   * Gives the pipeline its engine: creates the log source when it is missing and starts the
   * background thread, which appends what waited in the queue. Attaching the same engine again does
   * nothing; attaching another one (the application built a new engine) sends the batches appended
   * from then on to it.
   *
   * @param engine the engine
   * @throws IllegalStateException when the pipeline is closed
   */
  public synchronized void attach(Engine engine) {
    Objects.requireNonNull(engine, "engine");
    if (this.engine == engine) {
      return;
    }
    if (closing) {
      throw new IllegalStateException("the log pipeline is closed");
    }
    target = OtelTables.LOGS.ensure(engine, settings.sourceId());
    this.engine = engine;
    if (worker == null) {
      worker = new Thread(this::run, threadName);
      worker.setDaemon(true);
      worker.start();
    }
  }

  /**
   * @return whether an engine is attached
   */
  public synchronized boolean attached() {
    return engine != null;
  }

  /**
   * Queues an entry, waiting at most {@link Settings#offerWaitMillis()} for room.
   *
   * @param entry the entry
   * @return whether it was queued; when not, it was counted as dropped
   */
  public boolean offer(LogEntry entry) {
    if (closing || isWorkerThread()) {
      // Logging done while appending (the engine's own lines, routed back here) would wait for
      // itself; it is left out, as a closed pipeline's is.
      dropped.incrementAndGet();
      return false;
    }
    boolean queued;
    long wait = settings.offerWaitMillis();
    if (wait == 0) {
      queued = queue.offer(entry);
    } else {
      try {
        queued = queue.offer(entry, wait, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        queued = false;
      }
    }
    if (queued) {
      accepted.incrementAndGet();
    } else {
      dropped.incrementAndGet();
    }
    return queued;
  }

  /**
   * @return whether the calling thread is the pipeline's own
   */
  public boolean isWorkerThread() {
    return worker == Thread.currentThread();
  }

  /**
   * Waits until every entry queued before this call has been appended (or refused by the engine).
   *
   * @param timeout the longest to wait
   * @return whether they all were; {@code false} when the time ran out, or no engine is attached
   */
  public boolean flush(Duration timeout) {
    if (!attached()) {
      return false;
    }
    long target = accepted.get();
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      flushUpTo = Math.max(flushUpTo, target);
    }
    queue.offer(WAKE); // a full queue needs no waking: the thread is busy
    synchronized (progress) {
      while (done < target) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(progress, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Stops taking entries, appends what is queued (waiting at most 10 seconds) and stops the thread.
   * Entries still queued then, or queued without an engine ever attached, are counted as dropped.
   */
  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }

  /**
   * As {@link #close()}, waiting at most the given time.
   *
   * @param timeout the longest to wait for the queue to be appended
   */
  public void close(Duration timeout) {
    Thread w;
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
      w = worker;
    }
    if (w != null) {
      queue.offer(WAKE);
      try {
        w.join(Math.max(1, timeout.toMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    int left = 0;
    for (Object o; (o = queue.poll()) != null; ) {
      if (o != WAKE) {
        left++;
      }
    }
    dropped.addAndGet(left);
    report();
  }

  /**
   * @return entries dropped because the queue was full (or the pipeline closed)
   */
  public long droppedEvents() {
    return dropped.get();
  }

  /**
   * @return entries the engine refused: rejected events, writes refused for memory, failed appends
   */
  public long refusedEvents() {
    return refused.get();
  }

  /**
   * @return entries appended to the engine
   */
  public long writtenEvents() {
    return written.get();
  }

  // ------------------------------------------------------------------ the background thread

  private void run() {
    EventBatch batch = new EventBatch();
    LogRows rows = new LogRows(batch, settings.serviceName());
    List<LogEntry> pending = new ArrayList<>(Math.min(settings.batchSize(), 4096));
    long delay = TimeUnit.MILLISECONDS.toNanos(settings.batchDelayMillis());
    long taken = 0;
    try {
      while (true) {
        // Once closing, the close's wake-up has been offered: nothing more needs waiting for.
        Object first =
            closing ? queue.poll() : queue.poll(settings.batchDelayMillis(), TimeUnit.MILLISECONDS);
        if (first == null || first == WAKE) {
          if (closing && queue.isEmpty()) {
            break;
          }
          continue;
        }
        pending.add((LogEntry) first);
        taken++;
        long deadline = System.nanoTime() + delay;
        while (pending.size() < settings.batchSize()) {
          boolean hurry = closing || taken < flushTarget();
          long left = deadline - System.nanoTime();
          Object next =
              hurry ? queue.poll() : left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
          if (next == null) {
            break;
          }
          if (next != WAKE) {
            pending.add((LogEntry) next);
            taken++;
          }
        }
        write(batch, rows, pending);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      write(batch, rows, pending);
    }
  }

  private long flushTarget() {
    synchronized (progress) {
      return flushUpTo;
    }
  }

  private void write(EventBatch batch, LogRows rows, List<LogEntry> pending) {
    if (pending.isEmpty()) {
      return;
    }
    Source source = target;
    int n = pending.size();
    try {
      batch.clear();
      for (LogEntry e : pending) {
        rows.add(e);
      }
      AppendResult r = source.append(batch);
      written.addAndGet(r.accepted());
      if (!r.rejections().isEmpty()) {
        refused.addAndGet(r.rejections().size());
        warnings.accept(
            r.rejections().size()
                + " log events were rejected by source "
                + source.id()
                + ", the first: "
                + r.rejections().get(0).reason());
      }
    } catch (RuntimeException e) {
      refused.addAndGet(n);
      warnings.accept("could not append " + n + " log events to source " + source.id() + ": " + e);
    } finally {
      batch.clear();
      pending.clear();
      report(); // before the flush that waits for these returns
      synchronized (progress) {
        done += n;
        progress.notifyAll();
      }
    }
  }

  /** Says how many entries were dropped since it last said so. */
  private void report() {
    long d = dropped.get();
    long news;
    synchronized (reporting) {
      news = d - reportedDropped;
      reportedDropped = Math.max(reportedDropped, d);
    }
    if (news > 0) {
      warnings.accept(
          news
              + " log events were dropped because the queue of "
              + settings.queueSize()
              + " was full or the appender was stopping ("
              + d
              + " in all)");
    }
  }
}
