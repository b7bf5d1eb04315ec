package dev.chartwell.bench;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.WhereLanguage;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Event search ({@code POST /api/v2/search} in the engine) over the {@code bench-logs} data set
 * held in one engine: the newest 100 events of a selective where, of a very selective one, and of
 * no where at all. Setup checks each answer once (its size, its order, every event matching), so a
 * broken search is never timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms16g", "-Xmx16g", "-XX:+UseParallelGC"})
public class SearchBenchmark {
  private static final List<String> COLUMNS =
      List.of("Timestamp", "ServiceName", "SeverityText", "host", "status", "Body");

  /** Events in the data set. */
  @Param({"10000000"})
  public int rows;

  /** {@code heap} or {@code disk} (mapped segment files), as in {@link QueryBenchmark#storage}. */
  @Param({"heap"})
  public String storage;

  private Engine engine;
  private SearchQuery s1;
  private SearchQuery s2;
  private SearchQuery s3;

  /** Loads and checks. */
  @Setup(Level.Trial)
  public void load() {
    BenchData.Loaded loaded = BenchData.load(rows, storage);
    engine = loaded.engine();
    long start = BenchLogs.END - BenchLogs.SPAN;
    long q4Start = start + 6 * 3_600_000L;
    s1 = newest(q4Start, q4Start + 6 * 3_600_000L, "ServiceName:\"svc-3\" AND status:>=500");
    s2 = newest(start, BenchLogs.END, "host:\"host-42\" AND SeverityText:error");
    s3 = newest(start, BenchLogs.END, "");
    check(
        "S1",
        s1(),
        (int) Math.min(100, loaded.counts().svc3Failures()),
        r -> "svc-3".equals(r.get("ServiceName")) && ((Long) r.get("status")) >= 500);
    check(
        "S2",
        s2(),
        -1,
        r -> "host-42".equals(r.get("host")) && "error".equals(r.get("SeverityText")));
    check("S3", s3(), (int) Math.min(100, rows), r -> true);
  }

  /** Closes the engine. */
  @TearDown(Level.Trial)
  public void close() {
    engine.close();
  }

  private static SearchQuery newest(long start, long end, String where) {
    return new SearchQuery(
        BenchData.SOURCE,
        start,
        end,
        where,
        WhereLanguage.LUCENE,
        COLUMNS,
        SearchOrder.NEWEST_FIRST,
        100,
        0);
  }

  private static void check(
      String what,
      SearchResult r,
      int expectedRows,
      java.util.function.Predicate<Map<String, Object>> matches) {
    if (expectedRows >= 0 && r.rows().size() != expectedRows) {
      throw new IllegalStateException(
          what + ": expected " + expectedRows + " events, got " + r.rows().size());
    }
    if (r.rows().isEmpty()) {
      throw new IllegalStateException(what + " found nothing");
    }
    long previous = Long.MAX_VALUE;
    for (Map<String, Object> row : r.rows()) {
      long ts = (Long) row.get("Timestamp");
      if (ts > previous || !matches.test(row)) {
        throw new IllegalStateException(what + ": out of order or not matching: " + row);
      }
      previous = ts;
    }
  }

  /**
   * @return S1: the newest 100 of svc-3 with status >= 500 in a 6-hour window
   */
  @Benchmark
  public SearchResult s1() {
    return engine.search(s1, QueryOptions.DEFAULT);
  }

  /**
   * @return S2: the newest 100 errors of one host of 1,000 over 24 hours (very selective)
   */
  @Benchmark
  public SearchResult s2() {
    return engine.search(s2, QueryOptions.DEFAULT);
  }

  /**
   * @return S3: the newest 100 events of 24 hours, no where
   */
  @Benchmark
  public SearchResult s3() {
    return engine.search(s3, QueryOptions.DEFAULT);
  }
}
