package dev.chartwell.engine;

import dev.chartwell.engine.exec.QueryEngine;
import dev.chartwell.engine.query.ChartQuery;
import dev.chartwell.engine.query.ChartResult;
import dev.chartwell.engine.query.QueryCounters;
import dev.chartwell.engine.query.QueryLimits;
import dev.chartwell.engine.query.QueryOptions;
import dev.chartwell.engine.query.QueryValidationException;
import dev.chartwell.engine.query.UnknownSourceException;
import dev.chartwell.engine.segment.Segment;
import dev.chartwell.engine.source.Source;
import dev.chartwell.engine.source.SourceSpec;
import dev.chartwell.engine.source.SourceStats;
import dev.chartwell.engine.source.WritesRefusedException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embeddable chart engine: sources of events in columnar in-memory segments. Create one with
 * {@link #builder()}, define sources, append events, query; {@link #close()} releases everything.
 *
 * <pre>{@code
 * try (Engine engine = Engine.builder().workerThreads(4).build()) {
 *   Source logs = engine.createSource(SourceSpec.logs("app-logs"));
 *   logs.append(new Event(System.currentTimeMillis(), Map.of("Body", "GET /health 200")));
 * }
 * }</pre>
 *
 * <p>The engine is thread-safe. When the heap held by segments exceeds the memory limit, the sealed
 * segments holding the oldest events are evicted first (across sources), and counted.
 */
public final class Engine implements AutoCloseable {
  private final int segmentRows;
  private final long memoryLimitBytes;
  private final ExecutorService workers;
  private final int workerThreads;
  private final Map<String, Source> sources = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final Object evictionLock = new Object();

  /**
   * With {@link Builder#maxMemoryBytes}, a source's head is sealed once it holds this fraction of
   * the limit: sealing needs about as much again for a while, and several sources fill at once.
   */
  static final int HEAD_SHARE = 16;

  private final QueryEngine queries;
  private final ScheduledThreadPoolExecutor timer;
  private final long maxMemoryBytes;
  private final long maxHeadBytes;
  private final double maxHeapOccupancy;
  private final HeapWatch heap;
  private volatile boolean closed;

  private Engine(Builder b) {
    this.segmentRows = b.segmentRows;
    this.memoryLimitBytes = b.memoryLimitBytes;
    this.maxMemoryBytes = b.maxMemoryBytes;
    this.maxHeadBytes =
        b.maxMemoryBytes == Long.MAX_VALUE
            ? Long.MAX_VALUE
            : Math.max(1 << 20, b.maxMemoryBytes / HEAD_SHARE);
    this.maxHeapOccupancy = b.maxHeapOccupancy;
    this.heap = b.maxHeapOccupancy < 1 ? new HeapWatch() : null;
    this.workerThreads = b.workerThreads;
    AtomicInteger n = new AtomicInteger();
    this.workers =
        Executors.newFixedThreadPool(
            b.workerThreads,
            r -> {
              Thread t = new Thread(r, "chartwell-query-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "chartwell-query-deadlines");
              t.setDaemon(true);
              return t;
            });
    timer.setRemoveOnCancelPolicy(true);
    QueryLimits limits =
        b.queryLimits != null ? b.queryLimits : QueryLimits.defaults(b.workerThreads);
    this.queries = new QueryEngine(this::source, workers, b.workerThreads, limits, timer);
  }

  /**
   * @return a builder with the defaults: one worker per core, 262,144 rows per segment, no memory
   *     limit
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Configures an {@link Engine}. */
  public static final class Builder {
    private int workerThreads = Runtime.getRuntime().availableProcessors();
    private int segmentRows = 1 << 18;
    private long memoryLimitBytes = Long.MAX_VALUE;
    private long maxMemoryBytes = Long.MAX_VALUE;
    private double maxHeapOccupancy = 1;
    private QueryLimits queryLimits;

    private Builder() {}

    /**
     * @param n threads that run query work in parallel (at least 1)
     * @return this builder
     */
    public Builder workerThreads(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("workerThreads must be at least 1, got " + n);
      }
      this.workerThreads = n;
      return this;
    }

    /**
     * @param rows rows after which the head is sealed into a segment (at least 1)
     * @return this builder
     */
    public Builder segmentRows(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("segmentRows must be at least 1, got " + rows);
      }
      this.segmentRows = rows;
      return this;
    }

    /**
     * @param bytes heap bytes of event data beyond which the oldest sealed segments are evicted
     * @return this builder
     */
    public Builder memoryLimitBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("memoryLimitBytes must be positive, got " + bytes);
      }
      this.memoryLimitBytes = bytes;
      return this;
    }

    /**
     * Refuses appends ({@link WritesRefusedException}) while the events held in memory (unsealed
     * heads and sealed segments) exceed this many bytes. Unlike {@link #memoryLimitBytes}, nothing
     * is evicted: the caller is told to retry later. Without it, appends are never refused for
     * their size. It also bounds each source's unsealed head to a sixteenth of it (the head is
     * sealed early), since sealing a large head needs about as much memory again.
     *
     * @param bytes the most bytes of events held before appends are refused
     * @return this builder
     */
    public Builder maxMemoryBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxMemoryBytes must be positive, got " + bytes);
      }
      this.maxMemoryBytes = bytes;
      return this;
    }

    /**
     * Refuses appends ({@link WritesRefusedException}) while the heap in use after the latest
     * garbage collection is above this share of the maximum heap, so that the process says "full"
     * before it runs out of memory.
     *
     * @param share a share of the heap, above 0 and at most 1 (1: never refuse for this)
     * @return this builder
     */
    public Builder maxHeapOccupancy(double share) {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("maxHeapOccupancy must be in (0, 1], got " + share);
      }
      this.maxHeapOccupancy = share;
      return this;
    }

    /**
     * Limits every query: deadline, memory budget, how many run and wait at once. Without this,
     * {@link QueryLimits#defaults} for the worker threads.
     *
     * @param limits the limits
     * @return this builder
     */
    public Builder queryLimits(QueryLimits limits) {
      this.queryLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * @return the engine
     */
    public Engine build() {
      return new Engine(this);
    }
  }

  /**
   * Defines a source.
   *
   * @param spec the definition; without an id, a fresh 24-hex-digit id is generated
   * @return the source
   * @throws IllegalArgumentException when a source with that id exists
   */
  public Source createSource(SourceSpec spec) {
    requireOpen();
    String id = spec.id() != null ? spec.id() : newId();
    Source source =
        Source.create(
            id, spec, segmentRows, s -> enforceMemoryLimit(), this::admitWrite, maxHeadBytes);
    if (sources.putIfAbsent(id, source) != null) {
      throw new IllegalArgumentException("a source with id " + id + " exists");
    }
    return source;
  }

  /**
   * @param id a source id
   * @return the source, if defined
   */
  public Optional<Source> source(String id) {
    return Optional.ofNullable(sources.get(id));
  }

  /**
   * @return every source, in no particular order
   */
  public List<Source> sources() {
    return List.copyOf(sources.values());
  }

  /**
   * Drops a source and all its events.
   *
   * @param id a source id
   * @return whether it existed
   */
  public boolean dropSource(String id) {
    return sources.remove(id) != null;
  }

  /**
   * Runs a chart query over a consistent snapshot of each source it names.
   *
   * @param query the query
   * @return one row per (bucket, group) where a series matched
   * @throws QueryValidationException when the query is invalid (the message names the field path)
   *     or would exceed 100,000 rows or 10,000 groups
   * @throws UnknownSourceException when a series names an unknown source
   */
  public ChartResult query(ChartQuery query) {
    return query(query, QueryOptions.DEFAULT);
  }

  /**
   * Runs a chart query with explicit execution options (results do not depend on them).
   *
   * @param query the query
   * @param options execution options
   * @return the result
   * @throws dev.chartwell.engine.query.QueryAbortedException when the query was refused because too
   *     many run and wait, ran past its deadline, was cancelled through its control, needed more
   *     memory than its budget, or the engine closed
   */
  public ChartResult query(ChartQuery query, QueryOptions options) {
    requireOpen();
    return queries.run(query, options);
  }

  /**
   * @return how many queries run now, and how many completed, were stopped or refused so far
   */
  public QueryCounters queryCounters() {
    return queries.counters();
  }

  /**
   * @return memory and size of every source
   */
  public EngineStats stats() {
    List<SourceStats> all = new ArrayList<>();
    for (Source s : sources.values()) {
      all.add(s.stats());
    }
    return new EngineStats(all, memoryLimitBytes);
  }

  /**
   * @return the worker threads queries run on
   */
  public int workerThreads() {
    return workerThreads;
  }

  /** Evicts the sealed segments with the oldest events until the data fits the limit. */
  /**
   * Refuses a write while the events held exceed {@link Builder#maxMemoryBytes} or the heap after
   * collection is fuller than {@link Builder#maxHeapOccupancy}.
   */
  private void admitWrite() {
    if (closed) {
      throw new WritesRefusedException("the engine is closed");
    }
    if (maxMemoryBytes != Long.MAX_VALUE) {
      long held = heldBytes();
      if (held > maxMemoryBytes) {
        throw new WritesRefusedException(
            String.format(
                Locale.ROOT,
                "the events held in memory (%,d MB) reached the limit of %,d MB; retry later,"
                    + " raise the limit, or drop sources no longer needed",
                held >> 20,
                maxMemoryBytes >> 20));
      }
    }
    if (heap != null && heap.occupancyAfterGc() > maxHeapOccupancy) {
      throw new WritesRefusedException(
          String.format(
              Locale.ROOT,
              "the heap is %.1f%% full after garbage collection (limit %.0f%%); retry later",
              100 * heap.occupancyAfterGc(),
              100 * maxHeapOccupancy));
    }
  }

  /**
   * @return the bytes of events held in memory: unsealed heads and sealed segments
   */
  public long heldBytes() {
    long total = 0;
    for (Source s : sources.values()) {
      total += s.headBytes() + s.sealedBytes();
    }
    return total;
  }

  private void enforceMemoryLimit() {
    if (memoryLimitBytes == Long.MAX_VALUE) {
      return;
    }
    synchronized (evictionLock) {
      long total = totalBytes();
      while (total > memoryLimitBytes) {
        Source victimSource = null;
        Segment victim = null;
        for (Source s : sources.values()) {
          for (Segment seg : s.sealedSegments()) {
            if (victim == null || seg.maxTimestamp() < victim.maxTimestamp()) {
              victim = seg;
              victimSource = s;
            }
          }
        }
        if (victim == null) {
          return; // only heads are left; they are never evicted
        }
        if (victimSource.evict(victim)) {
          total -= victim.bytes();
        }
      }
    }
  }

  private long totalBytes() {
    long total = 0;
    for (Source s : sources.values()) {
      for (Segment seg : s.sealedSegments()) {
        total += seg.bytes();
      }
    }
    return total;
  }

  private String newId() {
    byte[] b = new byte[12];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("engine is closed");
    }
  }

  @Override
  public void close() {
    closed = true;
    queries.close();
    timer.shutdownNow();
    if (heap != null) {
      heap.close();
    }
    sources.clear();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
