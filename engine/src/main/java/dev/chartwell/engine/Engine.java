package dev.chartwell.engine;

import dev.chartwell.engine.internal.search.EventSearch;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.storage.EngineLog;
import dev.chartwell.engine.internal.warmup.EngineWarmUp;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The embeddable chart engine: sources of events in columnar segments. Create one with {@link
 * #builder()}, define sources, append events, query; {@link #close()} releases everything.
 *
 * <pre>{@code
 * try (Engine engine = Engine.builder().dataDirectory(Path.of("data")).build()) {
 *   Source logs = engine.source("app-logs")
 *       .orElseGet(() -> engine.createSource(SourceSpec.log("app-logs").build()));
 *   logs.append(Event.now(Map.of("Body", "GET /health 200")));
 *   ChartResult chart = engine.query(ChartQuery.last(Duration.ofHours(1))
 *       .source("app-logs").every(Granularity.MINUTE).series(Series.count()).build());
 * }
 * }</pre>
 *
 * <p>Without a data directory everything lives in memory and is gone when the engine closes. With
 * one ({@link Builder#dataDirectory}), every append acknowledged to the caller survives the process
 * (see {@link FsyncPolicy} for what each policy risks on a power cut): events are logged before an
 * append returns, sealed segments are written to checksummed files that queries read through memory
 * mappings, and {@link #builder()}{@code .build()} opens what an earlier engine stored.
 *
 * <p>The engine is thread-safe. After {@link #close()} every method that needs it open throws
 * {@link EngineClosedException}; {@code close()} itself may be called again. When the heap held by
 * in-memory segments exceeds the memory limit, the sealed segments holding the oldest events are
 * evicted first (across sources), and counted. Retention and a disk limit drop whole sealed
 * segments, oldest first ({@link Builder#retention}, {@link Builder#maxDiskBytes}).
 */
public final class Engine implements AutoCloseable {
  private final EngineParts parts;

  private Engine(Builder b) {
    this.parts = new EngineParts(this, b);
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
    // Package-private: EngineParts assembles the engine from them.
    int workerThreads = Runtime.getRuntime().availableProcessors();
    int segmentRows = 1 << 18;
    long memoryLimitBytes = Long.MAX_VALUE;
    long maxMemoryBytes = Long.MAX_VALUE;
    double maxHeapOccupancy = 1;
    QueryLimits queryLimits;
    Path dataDirectory;
    FsyncPolicy fsyncPolicy = FsyncPolicy.REQUEST;
    Duration retention;
    long maxDiskBytes = Long.MAX_VALUE;
    Clock clock = Clock.systemUTC();
    Consumer<String> reporter = new EngineLog();
    Function<String, String> tenantOf;
    ToLongFunction<String> diskQuotaOf;
    Duration sealIdle;
    boolean warmUp;
    EngineWarmUp.Budget warmUpBudget; // null: the one for the segment size

    private Builder() {}

    /**
     * Keeps events on disk under this directory: every acknowledged append survives the process,
     * and the next engine built on the directory answers with everything it holds. Without one,
     * events live in memory only.
     *
     * @param dir the directory (created when missing; one engine at a time)
     * @return this builder
     */
    public Builder dataDirectory(Path dir) {
      this.dataDirectory = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /**
     * @param policy when appends are forced to disk (default {@link FsyncPolicy#REQUEST}: before
     *     each append returns, shared by concurrent appends); only with a data directory
     * @return this builder
     */
    public Builder fsyncPolicy(FsyncPolicy policy) {
      this.fsyncPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Drops whole sealed segments whose newest event is older than this (checked after each seal
     * and every 10 seconds). The unsealed head is never dropped.
     *
     * @param age how long events are kept (positive)
     * @return this builder
     */
    public Builder retention(Duration age) {
      if (age.isNegative() || age.isZero()) {
        throw new IllegalArgumentException("retention must be positive, got " + age);
      }
      this.retention = age;
      return this;
    }

    /**
     * With a data directory: drops the sealed segments holding the oldest events (across sources;
     * with {@link #tenants}, of the tenant whose files take the most, while it holds more than the
     * limit divided by the tenants with files) while the sources' files take more than this many
     * bytes. The write-ahead logs count but are never dropped, so the limit should leave room for
     * them (each holds the events of up to a few unsealed segments).
     *
     * @param bytes the most bytes of segment files and logs
     * @return this builder
     */
    public Builder maxDiskBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxDiskBytes must be positive, got " + bytes);
      }
      this.maxDiskBytes = bytes;
      return this;
    }

    /**
     * Groups sources into tenants that share the memory and disk limits fairly: past {@link
     * #maxMemoryBytes}, a tenant is refused only while it holds more than the limit divided by the
     * tenants holding events in memory (so one tenant filling the memory never refuses another; the
     * total may then pass the limit, by at most one share per tenant under its share); past {@link
     * #maxDiskBytes}, the oldest segments of the tenant whose files take the most are dropped while
     * it holds more than its share of that limit; and {@link #diskQuota} bounds each tenant's files
     * on its own.
     *
     * @param tenantOf the tenant of a source, by source id (read often: keep it cheap); {@code
     *     null} puts a source with the sources of no tenant
     * @return this builder
     */
    public Builder tenants(Function<String, String> tenantOf) {
      this.tenantOf = Objects.requireNonNull(tenantOf, "tenantOf");
      return this;
    }

    /**
     * With a data directory: drops a tenant's sealed segments holding its oldest events while its
     * sources' files (segment files and logs) take more than its quota; only that tenant's events
     * are dropped. Applied after each seal and every 10 seconds.
     *
     * @param quotaOf the most bytes of a tenant ({@link #tenants}; {@code ""} for sources of no
     *     tenant), {@link Long#MAX_VALUE} for no quota; read at each check, so it may change
     * @return this builder
     */
    public Builder diskQuota(ToLongFunction<String> quotaOf) {
      this.diskQuotaOf = Objects.requireNonNull(quotaOf, "quotaOf");
      return this;
    }

    /**
     * Seals a source's head once no append changed it for this long, while the events held in
     * memory are more than half of {@link #maxMemoryBytes} (always, without that limit), so that
     * sources gone quiet give back the memory of their partly filled heads. Idleness is measured on
     * the {@link #clock}.
     *
     * @param idle how long a head stays unchanged before it is sealed (positive)
     * @return this builder
     */
    public Builder sealIdle(Duration idle) {
      if (idle.isNegative() || idle.isZero()) {
        throw new IllegalArgumentException("sealIdle must be positive, got " + idle);
      }
      this.sealIdle = idle;
      return this;
    }

    /**
     * @param clock what "now" is for retention and {@link #sealIdle} (default: the system clock)
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * @param reporter told, one line each, about start-up progress with a data directory and every
     *     storage problem: files that failed verification and were moved to quarantine, torn log
     *     tails that were cut, storage that failed (default: the {@link System.Logger} named {@code
     *     dev.chartwell.engine}, progress at {@code INFO} and problems at {@code WARNING}; the
     *     engine never prints to standard output or error)
     * @return this builder
     */
    public Builder reporter(Consumer<String> reporter) {
      this.reporter = Objects.requireNonNull(reporter, "reporter");
      return this;
    }

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
     * before it runs out of memory. A young collection's reading over the share, which can count
     * dead objects of the old generation, is confirmed by a full collection (at most one a second)
     * before a write is refused.
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
     * Warms the engine up after {@link #build()}, so that the application's first appends and
     * queries run nearly as fast as later ones instead of waiting for the JIT compiler: on one
     * daemon thread of low priority, a throwaway engine of the same kind (in memory, or in a
     * temporary directory with the same fsync policy) takes synthetic log events (three and a half
     * segments of {@link #segmentRows}) and the chart queries dashboards ask, in rounds until the
     * JIT compiler has settled (at most a minute), then is deleted; last, the engine's own sources
     * are asked chart queries built from their fields, until the compiler has settled on them too.
     * From then on, whenever the sources have grown to twice the events those rounds saw (and to at
     * least 262,144), the rounds over them run again once no event has arrived for a second: after
     * a bulk load, the first dashboards do not wait for the compiler either. This engine is not
     * touched; the warm-up gives way to its queries, reports a line through the {@link #reporter}
     * when it starts and ends (and for each warm-up over new data), ends alone on a failure, and
     * stops on {@link Engine#close()}. It costs about 30 CPU seconds and a few hundred MiB of heap
     * (skipped under 1 GiB), and a few CPU seconds per warm-up over new data; {@link
     * Engine#awaitWarmUp} waits for it. Default: off.
     *
     * @param on whether to warm up
     * @return this builder
     */
    public Builder warmUp(boolean on) {
      this.warmUp = on;
      return this;
    }

    /** A warm-up of another size (for tests). */
    Builder warmUp(EngineWarmUp.Budget budget) {
      this.warmUp = true;
      this.warmUpBudget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /**
     * Builds the engine; with a data directory, opens and recovers what it holds first (this reads
     * the manifests and replays the unsealed events; segment files are verified in the background).
     *
     * @return the engine
     * @throws StorageFailedException when the data directory cannot be opened (in use by another
     *     engine, in this process or another, named in the message; unreadable)
     */
    public Engine build() {
      return new Engine(this);
    }
  }

  /**
   * Defines a source; with a data directory its definition is on disk when this returns.
   *
   * @param spec the definition; without an id, a fresh 24-hex-digit id is generated
   * @return the source
   * @throws IllegalArgumentException when a source with that id exists, or (with a data directory)
   *     the id cannot name a folder
   * @throws StorageFailedException when its files cannot be created
   */
  public Source createSource(SourceSpec spec) {
    Objects.requireNonNull(spec, "spec");
    requireOpen();
    return parts.sources.create(spec);
  }

  /**
   * Applies retention and the disk limit now (they also run after each seal and every 10 seconds).
   *
   * @return how many segments were dropped
   */
  public int enforceStorageLimits() {
    requireOpen();
    return parts.maintenance.enforceStorageLimits();
  }

  /**
   * Merges the small sealed segments of every source now (also done after each seal).
   *
   * @return how many merges were done
   */
  int mergeSmallSegments() {
    return parts.maintenance.mergeSmallSegments();
  }

  /**
   * Seals the heads idle for {@link Builder#sealIdle} now (also done on a timer).
   *
   * @return how many heads were handed over for sealing
   */
  int sealIdleHeads() {
    return parts.maintenance.sealIdleHeads();
  }

  /**
   * @param id a source id
   * @return the source, if defined
   */
  public Optional<Source> source(String id) {
    Objects.requireNonNull(id, "id");
    requireOpen();
    return parts.sources.get(id);
  }

  /**
   * @return every source, in no particular order
   * @throws EngineClosedException when the engine is closed
   */
  public List<Source> sources() {
    requireOpen();
    return parts.sources.all();
  }

  /**
   * Drops a source and all its events.
   *
   * @param id a source id
   * @return whether it existed
   */
  public boolean dropSource(String id) {
    Objects.requireNonNull(id, "id");
    requireOpen();
    return parts.sources.drop(id);
  }

  /**
   * Runs a chart query over a consistent snapshot of each source it names.
   *
   * @param query the query
   * @return one row per (bucket, group) where a series matched
   * @throws InvalidQueryException when the query is invalid (the message names the field path) or
   *     would exceed 100,000 rows or 10,000 groups
   * @throws UnknownSourceException when a series names an unknown source
   */
  public ChartResult query(ChartQuery query) {
    return query(query, QueryOptions.DEFAULT);
  }

  /**
   * Finds the events of a source that match a where in a time range, newest (or oldest) first, with
   * the normal options.
   *
   * @param query the search
   * @return the page of events
   * @throws InvalidQueryException when the search is invalid (the message names the field)
   * @throws UnknownSourceException when the source does not exist
   * @throws QueryAbortedException as for {@link #query(ChartQuery, QueryOptions)}
   * @throws EngineClosedException when the engine is closed
   */
  public SearchResult search(SearchQuery query) {
    return search(query, QueryOptions.DEFAULT);
  }

  /**
   * Runs a chart query with explicit execution options (results do not depend on them).
   *
   * @param query the query
   * @param options execution options
   * @return the result
   * @throws dev.chartwell.engine.QueryAbortedException when the query was refused because too many
   *     run and wait, ran past its deadline, was cancelled through its control, needed more memory
   *     than its budget, or the engine closed
   */
  public ChartResult query(ChartQuery query, QueryOptions options) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(options, "options");
    requireOpen();
    return parts.queries.run(query, options);
  }

  /**
   * Finds the events of a source that match a where in a time range, newest (or oldest) first, from
   * the same snapshot, indexes and time order as chart queries, under the same turns, deadline and
   * memory budget.
   *
   * @param query the search
   * @param options execution options
   * @return the page of events
   * @throws dev.chartwell.engine.InvalidQueryException when the search is invalid (the message
   *     names the field)
   * @throws UnknownSourceException when the source does not exist
   * @throws dev.chartwell.engine.QueryAbortedException as for {@link #query(ChartQuery,
   *     QueryOptions)}
   */
  public SearchResult search(SearchQuery query, QueryOptions options) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(options, "options");
    requireOpen();
    SourceCore source =
        parts
            .sources
            .core(query.sourceId())
            .orElseThrow(() -> new UnknownSourceException("sourceId", query.sourceId()));
    return parts.queries.govern(
        options, control -> EventSearch.run(source, query, options.useIndexes(), control));
  }

  /**
   * @return how many queries run now, and how many completed, were stopped or refused so far
   */
  public QueryCounters queryCounters() {
    requireOpen();
    return parts.queries.counters();
  }

  /**
   * @return memory and size of every source
   */
  public EngineStats stats() {
    requireOpen();
    return new EngineStats(parts.sources.stats(), parts.memory.memoryLimitBytes());
  }

  /**
   * @return the worker threads queries run on
   */
  public int workerThreads() {
    return parts.workerThreads;
  }

  /**
   * @return the bytes of events held in memory: unsealed heads and sealed segments
   */
  public long heldBytes() {
    requireOpen();
    return parts.memory.heldBytes();
  }

  /**
   * @throws EngineClosedException once {@link #close()} was called
   */
  void requireOpen() {
    parts.requireOpen();
  }

  /**
   * @return bytes of the sources' files on disk: listed segment files and write-ahead logs (0
   *     without a data directory)
   */
  public long diskBytes() {
    requireOpen();
    return parts.sources.diskBytes();
  }

  /**
   * Waits for the start-up warm-up ({@link Builder#warmUp(boolean)}) to end, and then for a warm-up
   * over new data while one runs or is due (the sources have doubled since the last: it starts once
   * no event has arrived for a second, so this waits while events keep arriving).
   *
   * @param timeout the longest to wait
   * @return whether no warm-up runs or is due any more: the start-up warm-up ended (done, stopped
   *     or failed) and none over new data runs or waits, or none was asked for
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean awaitWarmUp(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    return parts.warmUp == null || parts.warmUp.await(timeout);
  }

  /**
   * Stops the start-up warm-up if it runs, then stops queries (running ones end with a shutdown
   * error), waits for them to let go of their segments, stops sealing (unsealed events stay in the
   * log and are replayed by the next engine), forces and closes the logs, and releases the data
   * directory.
   */
  @Override
  public void close() {
    parts.close();
  }
}
