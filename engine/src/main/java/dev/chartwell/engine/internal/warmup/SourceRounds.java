package dev.chartwell.engine.internal.warmup;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryLimits;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.exec.QueryEngine;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A warm-up's last phase: rounds of {@link SourceQueries} over the real sources with the most
 * events, until the JIT compiler has settled on them. The queries run on a query engine of the
 * warm-up's own (its own worker threads and counters) over the sources' snapshots: they only read,
 * and no query count, metric or cache of the real engine's query path changes. Between queries it
 * gives way to the real engine's queries ({@link Pacing}).
 */
public final class SourceRounds {
  /** The most sources warmed up on: those with the most events. */
  static final int MAX_SOURCES = 4;

  /** Rounds always run (when time allows), whether or not the compiler settled sooner. */
  static final int LEAST_ROUNDS = JitSettle.QUIET_ROUNDS;

  /**
   * What the phase did.
   *
   * @param sources how many real sources it queried
   * @param queries how many queries a round asks
   * @param rounds how many rounds ran
   * @param settled whether the JIT compiler settled
   */
  public record Outcome(int sources, int queries, int rounds, boolean settled) {
    /**
     * @param sources what the warm-up's line calls the real sources
     * @return the part of the warm-up's last line about this phase, empty when it asked nothing
     */
    public String then(String sources) {
      return this.sources == 0
          ? ""
          : String.format(
              Locale.ROOT,
              ", then %d query shapes over the events of %d %s × %d rounds",
              queries,
              this.sources,
              sources,
              rounds);
    }
  }

  private SourceRounds() {}

  /**
   * @param sources the real engine's sources
   * @param threads the worker threads of the warm-up's query engine (the real engine's count)
   * @param pacing the warm-up's pacing
   * @param deadline when the phase ends at the latest, on {@link System#nanoTime}
   * @param maxRounds the most rounds
   * @return what it did
   * @throws InterruptedException when the warm-up was stopped
   */
  public static Outcome run(
      List<Source> sources, int threads, Pacing pacing, long deadline, int maxRounds)
      throws InterruptedException {
    return run(sources, threads, pacing, deadline, LEAST_ROUNDS, maxRounds);
  }

  /**
   * @param sources the real engine's sources
   * @param threads the worker threads of the warm-up's query engine (the real engine's count)
   * @param pacing the warm-up's pacing
   * @param deadline when the phase ends at the latest, on {@link System#nanoTime}
   * @param leastRounds the rounds run (when time allows) whether or not the compiler settled sooner
   * @param maxRounds the most rounds
   * @return what it did
   * @throws InterruptedException when the warm-up was stopped
   */
  public static Outcome run(
      List<Source> sources,
      int threads,
      Pacing pacing,
      long deadline,
      int leastRounds,
      int maxRounds)
      throws InterruptedException {
    Map<String, SourceCore> cores = new HashMap<>();
    List<ChartQuery> queries = new ArrayList<>();
    for (Source source : largest(sources)) {
      try (SourceSnapshot snapshot = Snapshots.of(source)) {
        List<ChartQuery> own = SourceQueries.of(source.id(), snapshot);
        if (!own.isEmpty()) {
          cores.put(source.id(), Snapshots.core(source));
          queries.addAll(own);
        }
      } catch (EngineClosedException | IllegalStateException e) {
        // dropped or closed meanwhile: nothing to ask
      }
    }
    if (queries.isEmpty()) {
      return new Outcome(0, 0, 0, false);
    }
    ExecutorService workers = Executors.newFixedThreadPool(threads, daemons("chartwell-warm-up-q"));
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(daemons("chartwell-warm-up-deadlines"));
    QueryEngine engine =
        new QueryEngine(
            id -> Optional.ofNullable(cores.get(id)),
            workers,
            threads,
            QueryLimits.defaults(threads),
            timer);
    try {
      JitSettle jit = JitSettle.ofThisJvm();
      int round = 0;
      boolean settled = false;
      rounds:
      while (round < maxRounds && !(settled && round >= leastRounds)) {
        for (ChartQuery q : queries) {
          if (!pacing.next(deadline)) {
            break rounds;
          }
          try {
            engine.run(q, QueryOptions.DEFAULT);
          } catch (InvalidQueryException
              | QueryAbortedException
              | UnknownSourceException
              | EngineClosedException
              | IllegalStateException e) {
            // a field's type changed, a source went away, or the query was too large: skip it
          }
        }
        round++;
        settled = jit.roundEnded();
      }
      return new Outcome(cores.size(), queries.size(), round, settled);
    } finally {
      engine.close();
      engine.awaitIdle(Duration.ofSeconds(30));
      workers.shutdownNow();
      timer.shutdownNow();
    }
  }

  /**
   * @param sources sources
   * @return their events, those of sources dropped or closed meanwhile left out
   */
  static long events(List<Source> sources) {
    long total = 0;
    for (Source s : sources) {
      total += Math.max(0, rows(s));
    }
    return total;
  }

  /** A source's events, or -1 when it was dropped or closed meanwhile. */
  private static long rows(Source s) {
    try {
      return s.stats().rows();
    } catch (EngineClosedException | IllegalStateException e) {
      return -1;
    }
  }

  private static List<Source> largest(List<Source> sources) {
    record Held(Source source, long rows) {}
    List<Held> held = new ArrayList<>();
    for (Source s : sources) {
      long rows = rows(s);
      if (rows > 0) {
        held.add(new Held(s, rows));
      }
    }
    held.sort(Comparator.comparingLong(Held::rows).reversed());
    return held.stream().limit(MAX_SOURCES).map(Held::source).toList();
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
