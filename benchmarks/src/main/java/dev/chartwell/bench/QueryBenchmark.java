package dev.chartwell.bench;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The chart queries Q1-Q6 over the {@code bench-logs} data set held in one engine. Setup loads the
 * events, seals them, and checks each query's answer once against counts kept while generating, so
 * a broken query can never be timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms16g", "-Xmx16g", "-XX:+UseParallelGC"})
public class QueryBenchmark {
  /** Events in the data set. */
  @Param({"10000000"})
  public int rows;

  /**
   * Where the events live: {@code heap} (an in-memory engine) or {@code disk} (a data directory:
   * segment files mapped into memory). The directory is {@code -Dchartwell.bench.dir} when given
   * (kept, and opened as it is by a later run with the same rows: a restart), else a temporary one.
   */
  @Param({"heap"})
  public String storage;

  /**
   * The loaded data set, kept for the life of the JVM: with {@code -f 0} all six queries share one
   * load instead of generating the events six times.
   */
  private static BenchData.Loaded shared;

  private static String sharedKey;

  private Engine engine;
  private ChartQuery q1;
  private ChartQuery q2;
  private ChartQuery q3;
  private ChartQuery q4;
  private ChartQuery q5;
  private ChartQuery q6;

  /** Loads (once per JVM, size and storage) and checks. */
  @Setup(Level.Trial)
  public void load() {
    synchronized (QueryBenchmark.class) {
      String key = rows + "/" + storage;
      if (shared == null || !key.equals(sharedKey)) {
        if (shared != null) {
          shared.engine().close();
        }
        shared = BenchData.load(rows, storage);
        sharedKey = key;
      }
    }
    engine = shared.engine();
    List<ChartQuery> queries = queries();
    q1 = queries.get(0);
    q2 = queries.get(1);
    q3 = queries.get(2);
    q4 = queries.get(3);
    q5 = queries.get(4);
    q6 = queries.get(5);
    long errors = shared.counts().errors();
    long timeouts = shared.counts().timeouts();
    long svc3Failures = shared.counts().svc3Failures();

    check("Q1", total(q1(), 0), errors);
    check("Q3 count", total(q3(), 0), rows);
    check("Q3 errors", total(q3(), 1), errors);
    check("Q4", total(q4(), 0), svc3Failures);
    check("Q5", total(q5(), 0), timeouts);
    check("Q6", total(q6(), 0), rows); // trace ids are unique, so distinct per hour sums to all
    if (q2().rows().isEmpty()) {
      throw new IllegalStateException("Q2 returned nothing");
    }
  }

  /**
   * @return Q1 to Q6 over the whole {@code bench-logs} day
   */
  static List<ChartQuery> queries() {
    long start = BenchLogs.END - BenchLogs.SPAN;
    long end = BenchLogs.END;
    long q4Start = start + 6 * 3_600_000L;
    long q4End = q4Start + 6 * 3_600_000L;
    String id = BenchData.SOURCE;
    Granularity m1 = Granularity.named("1m").orElseThrow();
    Granularity m5 = Granularity.named("5m").orElseThrow();
    ChartQuery q1 = query(start, end, m1, Series.of(id, AggFn.COUNT, null, "SeverityText:error"));
    ChartQuery q2 =
        query(
            start,
            end,
            m1,
            new Series(
                id,
                AggFn.QUANTILE,
                "Duration",
                0.95,
                "SeverityText:(warn OR error)",
                null,
                List.of("ServiceName")));
    ChartQuery q3 =
        query(
            start,
            end,
            m5,
            Series.of(id, AggFn.COUNT, null, null),
            Series.of(id, AggFn.COUNT, null, "SeverityText:error"),
            Series.of(id, AggFn.AVG, "Duration", null),
            Series.of(id, AggFn.MAX, "Duration", null),
            Series.of(id, AggFn.COUNT_DISTINCT, "host", null));
    ChartQuery q4 =
        query(
            q4Start,
            q4End,
            m1,
            Series.of(id, AggFn.COUNT, null, "ServiceName:\"svc-3\" AND status:>=500"));
    ChartQuery q5 =
        query(
            start,
            end,
            Granularity.named("30m").orElseThrow(),
            Series.of(id, AggFn.COUNT, null, "timeout"));
    ChartQuery q6 =
        query(
            start,
            end,
            Granularity.named("1h").orElseThrow(),
            Series.of(id, AggFn.COUNT_DISTINCT, "TraceId", null));
    return List.of(q1, q2, q3, q4, q5, q6);
  }

  private static ChartQuery query(long start, long end, Granularity g, Series... series) {
    return new ChartQuery(start, end, g, List.of(series), null);
  }

  static long total(ChartResult r, int series) {
    long sum = 0;
    for (ChartResult.Row row : r.rows()) {
      Number v = row.values().get(series);
      sum += v == null ? 0 : v.longValue();
    }
    return sum;
  }

  private static void check(String what, long actual, long expected) {
    if (actual != expected) {
      throw new IllegalStateException(what + ": expected " + expected + " but got " + actual);
    }
  }

  /**
   * @return Q1: count where {@code SeverityText:error} per 1m over 24 h
   */
  @Benchmark
  public ChartResult q1() {
    return engine.query(q1);
  }

  /**
   * @return Q2: p95 of Duration where {@code SeverityText:(warn OR error)} per 1m by service
   */
  @Benchmark
  public ChartResult q2() {
    return engine.query(q2);
  }

  /**
   * @return Q3: five series per 5m
   */
  @Benchmark
  public ChartResult q3() {
    return engine.query(q3);
  }

  /**
   * @return Q4: 6 h window, string and numeric filter, per 1m
   */
  @Benchmark
  public ChartResult q4() {
    return engine.query(q4);
  }

  /**
   * @return Q5: bare term {@code timeout} per 30m
   */
  @Benchmark
  public ChartResult q5() {
    return engine.query(q5);
  }

  /**
   * @return Q6: count_distinct of TraceId per 1h
   */
  @Benchmark
  public ChartResult q6() {
    return engine.query(q6);
  }
}
