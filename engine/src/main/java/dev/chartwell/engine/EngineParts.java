package dev.chartwell.engine;

import dev.chartwell.engine.internal.exec.QueryEngine;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.source.SourceStorage;
import dev.chartwell.engine.internal.storage.EngineFiles;
import dev.chartwell.engine.internal.storage.EngineLog;
import dev.chartwell.engine.internal.storage.SourceFiles;
import dev.chartwell.engine.internal.warmup.EngineWarmUp;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The running parts of an {@link Engine}, assembled from its {@link Engine.Builder} in the order
 * they depend on each other and shut down in reverse: the data directory, the sources, the memory
 * guard, the threads, the query engine, maintenance and the start-up warm-up. {@link Engine} is the
 * public face over them: it checks arguments and that it is open, and hands each call to a part.
 */
final class EngineParts {
  /**
   * With {@link Engine.Builder#maxMemoryBytes}, a source's head is sealed once it holds this
   * fraction of the limit: sealing needs about as much again for a while, and several sources fill
   * at once.
   */
  static final int HEAD_SHARE = 16;

  /** The largest head, whatever the limits: its segment file must stay well below 2 GiB. */
  static final long MAX_HEAD_BYTES = 512L << 20;

  final SourceRegistry sources;
  final MemoryGuard memory;
  final EngineThreads threads;
  final int workerThreads;
  final QueryEngine queries;
  final EngineMaintenance maintenance;
  final EngineWarmUp warmUp; // null: not asked for
  private final EngineFiles files; // null: in memory
  private final Consumer<String> reporter;
  private final int segmentRows;
  private final long maxHeadBytes;
  private volatile boolean closed;

  EngineParts(Engine engine, Engine.Builder b) {
    this.segmentRows = b.segmentRows;
    this.maxHeadBytes =
        b.maxMemoryBytes == Long.MAX_VALUE
            ? MAX_HEAD_BYTES
            : Math.min(MAX_HEAD_BYTES, Math.max(1 << 20, b.maxMemoryBytes / HEAD_SHARE));
    this.reporter = b.reporter;
    try {
      this.files =
          b.dataDirectory == null
              ? null
              : EngineFiles.open(b.dataDirectory, b.fsyncPolicy, reporter);
    } catch (IOException e) {
      throw cannotOpen(b.dataDirectory, e);
    }
    this.sources = new SourceRegistry(engine, files, this::setup, this::watch);
    this.memory =
        new MemoryGuard(
            b.memoryLimitBytes,
            b.maxMemoryBytes,
            b.maxHeapOccupancy,
            sources.byId(),
            sources::cores,
            b.tenantOf);
    this.workerThreads = b.workerThreads;
    this.threads = new EngineThreads(b.workerThreads);
    QueryLimits queryLimits =
        b.queryLimits != null ? b.queryLimits : QueryLimits.defaults(b.workerThreads);
    this.queries =
        new QueryEngine(
            sources::core, threads.workers, b.workerThreads, queryLimits, threads.deadlines);
    this.maintenance =
        new EngineMaintenance(
            threads.maintenance,
            new StorageLimits(
                b.retention,
                b.maxDiskBytes,
                b.clock,
                sources::cores,
                memory::tenant,
                b.diskQuotaOf),
            b.sealIdle == null
                ? null
                : new IdleSeals(
                    b.sealIdle, b.clock, sources::cores, memory::heldBytes, b.maxMemoryBytes),
            memory,
            sources::cores,
            reporter);
    try {
      if (files != null) {
        sources.loadAll(reporter);
      }
    } catch (IOException e) {
      closeQuietly();
      throw cannotOpen(b.dataDirectory, e);
    } catch (RuntimeException | Error e) {
      closeQuietly();
      throw e;
    }
    maintenance.schedule();
    this.warmUp =
        !b.warmUp
            ? null
            : EngineWarmUp.start(
                b.workerThreads,
                b.fsyncPolicy,
                files != null,
                () -> queries.counters().running() > 0,
                reporter,
                b.warmUpBudget,
                b.segmentRows,
                sources::all);
  }

  private static StorageFailedException cannotOpen(Path dir, IOException e) {
    return StorageFailedException.cannot(dir, "open the data directory", e);
  }

  private SourceCore.Setup setup(SourceSpec spec, SourceStorage storage) {
    return new SourceCore.Setup(
        spec.id(),
        spec,
        segmentRows,
        maxHeadBytes,
        maintenance::afterSeal,
        () -> admitWrite(spec.id()),
        storage,
        threads.sealers);
  }

  /** A segment found damaged is dropped into quarantine, away from the query that found it. */
  private void watch(SourceCore source, SourceFiles storage) {
    maintenance.watch(source, storage);
  }

  /**
   * Refuses a write while the events held exceed {@link Engine.Builder#maxMemoryBytes} or the heap
   * after collection is fuller than {@link Engine.Builder#maxHeapOccupancy}.
   */
  void admitWrite(String sourceId) {
    if (closed) {
      throw new EngineClosedException("the engine is closed; appends are refused");
    }
    memory.admit(sourceId);
  }

  /**
   * @throws EngineClosedException once {@link #close()} was called
   */
  void requireOpen() {
    if (closed) {
      throw new EngineClosedException("the engine is closed");
    }
  }

  /** Shuts the parts down, as {@link Engine#close()} says. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (warmUp != null) {
      warmUp.close();
    }
    queries.close();
    queries.awaitIdle(Duration.ofSeconds(30));
    closeQuietly();
  }

  private void closeQuietly() {
    closed = true;
    threads.stopTimers();
    memory.close();
    sources.shutdownAll();
    threads.stopPools();
    EngineFiles f = files;
    if (f != null) {
      try {
        f.close();
      } catch (IOException e) {
        EngineLog.problem(reporter, "releasing the data directory failed: " + e);
      }
    }
  }
}
