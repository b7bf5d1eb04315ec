package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryAbortedException.Reason;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.engine.QueryLimits;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.agg.AggState;
import dev.chartwell.engine.internal.agg.GroupKeys;
import dev.chartwell.engine.internal.filter.Filter;
import dev.chartwell.engine.internal.filter.FilterCompiler;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WhereSyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Runs chart queries: validate, snapshot each source once, parse (cached) and compile each series'
 * where, prune segments by time, run one task per (series, segment) on the worker pool, merge the
 * partial states per (bucket, group) in result order ({@link PartialMerge}), then render rows
 * (ratio, limits).
 *
 * <p>Every query is governed by {@link QueryLimits}: it waits for one of a bounded number of turns
 * (or is refused as {@link Reason#BUSY}), runs under a deadline and a memory budget held by its
 * {@link QueryControl}, and keeps at most one task per worker in the pool's queue, so that a heavy
 * query delays a light one by at most one segment task per worker.
 */
public final class QueryEngine {
  /** Most rows a query may return. */
  public static final int MAX_ROWS = 100_000;

  /** Most distinct groups a query may return. */
  public static final int MAX_GROUPS = 10_000;

  /**
   * The bytes held by costly states to finish (the values of exact quantiles, the sets of distinct
   * counts), a measure of their work, from which workers share the finishing.
   */
  private static final long COSTLY_BYTES_IN_PARALLEL = 256 * 1024;

  private static final int AST_CACHE_SIZE = 4096;

  private final Function<String, Optional<SourceCore>> sources;
  private final TaskRunner runner;
  private final QueryLimits limits;
  private final ScheduledExecutorService timer;
  private final Semaphore turns;
  private final AtomicInteger waiting = new AtomicInteger();
  private final Set<QueryControl> running = ConcurrentHashMap.newKeySet();
  private final Map<Reason, LongAdder> aborted = new EnumMap<>(Reason.class);
  private final LongAdder completed = new LongAdder();
  private final Map<String, Expr> astCache = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param sources finds a source by id
   * @param workers the pool segment tasks run on
   * @param threads the pool's size (1 runs tasks on the calling thread)
   * @param limits what each query may take
   * @param timer fires the deadlines of queries
   */
  public QueryEngine(
      Function<String, Optional<SourceCore>> sources,
      ExecutorService workers,
      int threads,
      QueryLimits limits,
      ScheduledExecutorService timer) {
    this.sources = sources;
    this.runner = new TaskRunner(workers, threads);
    this.limits = limits;
    this.timer = timer;
    this.turns = new Semaphore(limits.maxRunning(), true);
    for (Reason r : Reason.values()) {
      aborted.put(r, new LongAdder());
    }
  }

  /**
   * @return queries waiting for a turn now (tests wait for this state)
   */
  int waiting() {
    return waiting.get();
  }

  /**
   * @return counts of the queries run, stopped and refused since the engine started
   */
  public QueryCounters counters() {
    return new QueryCounters(
        running.size(),
        completed.sum(),
        aborted.get(Reason.TIMEOUT).sum(),
        aborted.get(Reason.CANCELLED).sum(),
        aborted.get(Reason.MEMORY).sum(),
        aborted.get(Reason.BUSY).sum());
  }

  /**
   * @param query the query
   * @param options execution options
   * @return the result
   * @throws InvalidQueryException when the query is invalid or exceeds the row or group limits
   * @throws UnknownSourceException when a series names an unknown source
   * @throws QueryAbortedException when the query was refused (busy), ran past its deadline, was
   *     cancelled, needed more memory than its budget, or the engine closed
   */
  public ChartResult run(ChartQuery query, QueryOptions options) {
    QueryValidator.validate(query);
    return govern(options, control -> runAdmitted(query, options, control));
  }

  /**
   * Runs work that reads sources under the same rules as a chart query: it waits for a turn (or is
   * refused as {@link Reason#BUSY}), runs under the deadline and memory budget of its {@link
   * QueryControl}, is stopped when the engine closes, and is counted.
   *
   * @param options execution options (timeout, control)
   * @param work the work; it calls the control's checkpoints in its loops
   * @param <T> what the work answers
   * @return the work's answer
   * @throws QueryAbortedException when refused, past the deadline, cancelled, over budget or
   *     stopped by the engine closing
   */
  public <T> T govern(QueryOptions options, Function<QueryControl, T> work) {
    QueryControl control = options.control() != null ? options.control() : new QueryControl();
    control.budget(limits.memoryBytes());
    try {
      awaitTurn();
    } catch (QueryAbortedException e) {
      aborted.get(e.reason()).increment();
      throw e;
    }
    running.add(control);
    Duration timeout = options.timeout() != null ? options.timeout() : limits.timeout();
    ScheduledFuture<?> deadline =
        timer.schedule(
            () ->
                control.abort(
                    Reason.TIMEOUT,
                    "the query ran longer than its limit of "
                        + describe(timeout)
                        + "; narrow the time range or the where, or group by fewer fields"),
            timeout.toNanos(),
            TimeUnit.NANOSECONDS);
    try {
      if (closed) {
        control.abort(Reason.SHUTDOWN, "the engine is closing");
      }
      T result = work.apply(control);
      completed.increment();
      return result;
    } catch (QueryAbortedException e) {
      aborted.get(e.reason()).increment();
      throw e;
    } catch (UnknownSourceException e) {
      if (closed) {
        // The engine closed while this query looked its sources up: it dropped them.
        aborted.get(Reason.SHUTDOWN).increment();
        throw new QueryAbortedException(Reason.SHUTDOWN, "the engine is closing");
      }
      completed.increment();
      throw e;
    } catch (RuntimeException e) {
      completed.increment();
      throw e;
    } finally {
      deadline.cancel(false);
      running.remove(control);
      turns.release();
    }
  }

  /**
   * Stops every running query (they throw {@link QueryAbortedException} with reason {@link
   * Reason#SHUTDOWN}) and refuses new ones.
   */
  public void close() {
    closed = true;
    for (QueryControl c : running) {
      c.abort(Reason.SHUTDOWN, "the engine is closing");
    }
  }

  /**
   * Waits until no query runs (after {@link #close}, running queries end quickly), so that their
   * snapshots are released before the segments they read go away.
   *
   * @param timeout the longest wait
   * @return whether every query ended
   */
  public boolean awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!running.isEmpty()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  private void awaitTurn() {
    if (closed) {
      throw new QueryAbortedException(Reason.SHUTDOWN, "the engine is closing");
    }
    if (turns.tryAcquire()) {
      return;
    }
    if (waiting.incrementAndGet() > limits.maxWaiting()) {
      waiting.decrementAndGet();
      throw busy();
    }
    try {
      if (!turns.tryAcquire(limits.maxWait().toNanos(), TimeUnit.NANOSECONDS)) {
        throw busy();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryAbortedException(Reason.CANCELLED, "interrupted while waiting for a turn");
    } finally {
      waiting.decrementAndGet();
    }
  }

  private QueryAbortedException busy() {
    return new QueryAbortedException(
        Reason.BUSY,
        String.format(
            Locale.ROOT,
            "too many queries at once (%d running, %d waiting); retry shortly",
            limits.maxRunning(),
            limits.maxWaiting()));
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  private ChartResult runAdmitted(ChartQuery query, QueryOptions options, QueryControl control) {
    Map<String, SourceSnapshot> snapshots = new HashMap<>();
    try {
      return runOnSnapshots(query, options, control, snapshots);
    } finally {
      snapshots.values().forEach(SourceSnapshot::close);
    }
  }

  private ChartResult runOnSnapshots(
      ChartQuery query,
      QueryOptions options,
      QueryControl control,
      Map<String, SourceSnapshot> snapshots) {
    Granularity granularity = query.effectiveGranularity();
    List<SeriesPlan> plans = new ArrayList<>();
    List<List<Segment>> segments = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < query.series().size(); i++) {
      Series s = query.series().get(i);
      String path = "series[" + i + "]";
      SourceCore source =
          sources
              .apply(s.sourceId())
              .orElseThrow(() -> new UnknownSourceException(path + ".sourceId", s.sourceId()));
      SourceSnapshot snapshot = snapshots.computeIfAbsent(s.sourceId(), k -> source.snapshot());
      Filter filter;
      try {
        Expr where = parse(s.where(), Languages.parser(s.whereLanguage()));
        if (s.metric() != null) {
          where = MetricTasks.metricPoints(where, s.metric());
        }
        filter =
            FilterCompiler.compile(
                where, snapshot.schema(), source.spec().implicitColumn(), path + ".where");
      } catch (WhereSyntaxException e) {
        problems.add(path + ".where: " + e.getMessage());
        continue;
      } catch (InvalidQueryException e) {
        problems.addAll(e.problems());
        continue;
      }
      plans.add(
          new SeriesPlan(
              s.aggFn(),
              s.aggFn().quantileLevel(s.level()),
              s.field(),
              s.groupBy(),
              filter,
              granularity,
              query.startTime(),
              query.endTime(),
              options.useIndexes(),
              control));
      segments.add(snapshot.segments());
    }
    if (!problems.isEmpty()) {
      throw new InvalidQueryException(problems);
    }

    List<Callable<List<Partial>>> tasks = new ArrayList<>();
    List<Integer> taskSeries = new ArrayList<>();
    List<List<Segment>> read = new ArrayList<>(); // per series, null for a metric's
    for (int i = 0; i < plans.size(); i++) {
      MetricSpec metric = query.series().get(i).metric();
      if (metric != null) {
        read.add(null);
        // A metric series needs each time series' points in time order across segments: one
        // task reads them all.
        tasks.add(MetricTasks.metricTask(plans.get(i), metric, segments.get(i)));
        taskSeries.add(i);
        continue;
      }
      List<Segment> inRange = new ArrayList<>();
      for (Segment seg : segments.get(i)) {
        if (seg.maxTimestamp() >= query.startTime() && seg.minTimestamp() <= query.endTime()) {
          inRange.add(seg);
        }
      }
      read.add(inRange);
      // States that keep every value are finished in the task where no other segment shares
      // their bucket.
      SeriesPlan plan = plans.get(i);
      SharedBuckets shared =
          AggState.keepsValues(plan.fn())
              ? SharedBuckets.of(inRange, plan.startTime(), plan.endTime(), plan.granularity())
              : SharedBuckets.ALL;
      for (Segment seg : inRange) {
        tasks.add(new SegmentTask(plan, seg, shared));
        taskSeries.add(i);
      }
    }
    List<List<Partial>> partials = runner.execute(tasks, control);

    List<List<List<Partial>>> byTask = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      byTask.add(new ArrayList<>());
    }
    for (int t = 0; t < partials.size(); t++) {
      byTask.get(taskSeries.get(t)).add(partials.get(t));
    }
    // Asked only of a result with more rows than groups allowed, after its tasks built the columns
    LongSupplier groupsAtMost = () -> groupsAtMost(plans, read);
    List<List<Partial>> merged = new ArrayList<>();
    for (List<List<Partial>> tasksOfSeries : byTask) {
      merged.add(PartialMerge.series(tasksOfSeries, control));
    }
    boolean oneSeries = merged.size() == 1 && query.returnType() != SeriesReturnType.RATIO;
    // one series: its partials are its rows, each with the state finishAll would get
    long costly = oneSeries ? costlyBytes(merged.get(0), Partial::state) : -1;
    if (oneSeries && costly < COSTLY_BYTES_IN_PARALLEL) {
      // One series whose states are cheap to finish (or were finished in their tasks): each
      // partial is a row, finished as it is rendered.
      List<Partial> only = merged.get(0);
      PartialMerge.checkGroups(PartialMerge.groups(only, Partial::group), groupsAtMost);
      return ResultRows.ofOneSeries(granularity, only, control);
    }
    PartialMerge.Rows rows = PartialMerge.rows(merged, groupsAtMost, control);
    if (costly < 0) {
      costly = costlyBytes(rows.states(), PartialMerge.Finishing::state);
    }
    finishAll(rows.states(), granularity.millis(), costly >= COSTLY_BYTES_IN_PARALLEL, control);
    return ResultRows.renderOrdered(query, granularity, rows.keys(), rows.values());
  }

  /**
   * An upper bound of a result's distinct groups from its segments' dictionaries (rows hold one
   * group of any series), or {@link Long#MAX_VALUE} when one is not known cheaply.
   */
  private static long groupsAtMost(List<SeriesPlan> plans, List<List<Segment>> read) {
    long groups = 0;
    for (int i = 0; i < plans.size(); i++) {
      long bound =
          read.get(i) == null
              ? Long.MAX_VALUE
              : GroupKeys.atMost(read.get(i), plans.get(i).groupBy());
      groups = groups > Long.MAX_VALUE - bound ? Long.MAX_VALUE : groups + bound;
    }
    return groups;
  }

  /** The {@link AggState#finishingWork} of the states that are costly to finish. */
  private static <T> long costlyBytes(List<T> items, Function<T, AggState> stateOf) {
    long bytes = 0;
    for (T item : items) {
      AggState state = stateOf.apply(item);
      if (state.costlyToFinish()) {
        bytes += state.finishingWork();
      }
    }
    return bytes;
  }

  /**
   * @return the error of a query whose result would have more than {@link #MAX_GROUPS} groups
   */
  public static InvalidQueryException tooManyGroups() {
    return new InvalidQueryException(
        String.format(
            Locale.ROOT,
            "series: the query would produce more than %,d groups; group by fewer fields or"
                + " narrow the where",
            MAX_GROUPS));
  }

  /**
   * @return the error of a query whose result would have more than {@link #MAX_ROWS} rows
   */
  public static InvalidQueryException tooManyRows() {
    return new InvalidQueryException(
        String.format(
            Locale.ROOT,
            "series: the query would produce more than %,d rows; use a coarser granularity, a"
                + " shorter time range or fewer groups",
            MAX_ROWS));
  }

  /**
   * Finishes every state into its row's values. Exact quantiles and distinct counts do much of
   * their work here (selection, merging segments' dictionaries), so where they hold much they are
   * finished in one slice per worker; other states, and costly ones holding little (most quantiles
   * are finished in their segment's task), on this thread, as handing them over would cost more
   * than it saves.
   *
   * @param inParallel whether the costly states hold {@link #COSTLY_BYTES_IN_PARALLEL} or more
   */
  private void finishAll(
      List<PartialMerge.Finishing> all,
      long bucketMillis,
      boolean inParallel,
      QueryControl control) {
    int slices = all.isEmpty() ? 0 : inParallel ? Math.min(runner.threads(), all.size()) : 1;
    List<Callable<Void>> tasks = new ArrayList<>(slices);
    for (int t = 0; t < slices; t++) {
      List<PartialMerge.Finishing> slice =
          all.subList(all.size() * t / slices, all.size() * (t + 1) / slices);
      tasks.add(
          () -> {
            for (PartialMerge.Finishing f : slice) {
              control.checkpoint();
              f.values()[f.series()] = f.state().finish(bucketMillis);
            }
            return null;
          });
    }
    runner.execute(tasks, control);
  }

  private Expr parse(String where, WhereLanguage language) {
    if (where == null || where.isBlank()) {
      return new Expr.MatchAll();
    }
    String key = language.wireName() + ':' + where;
    Expr cached = astCache.get(key);
    if (cached != null) {
      return cached;
    }
    Expr parsed = WhereParser.parse(where, language);
    if (astCache.size() >= AST_CACHE_SIZE) {
      astCache.clear();
    }
    astCache.put(key, parsed);
    return parsed;
  }
}
