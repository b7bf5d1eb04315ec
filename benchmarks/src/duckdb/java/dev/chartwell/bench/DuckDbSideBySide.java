package dev.chartwell.bench;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.FsyncPolicy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * {@code duckdb --rows N}: the embedded side-by-side with DuckDB in the same JVM. The same
 * generated {@code bench-logs} events are loaded into a DuckDB file database (JDBC, {@link
 * DuckDBAppender}, one transaction, then {@code CHECKPOINT}) and into Chartwell's Java API with a
 * durable data directory ({@link FsyncPolicy#REQUEST}: an fsync per batch of 10,000, then seal).
 * Both load times include generating the events. The engine is built with its start-up warm-up
 * ({@code Engine.Builder.warmUp}) and the harness waits for it before the load, as an application
 * that turns it on and waits for it does: Chartwell's load and query figures are then those after
 * the warm-up, whose own time is printed beside them ({@code --engine-warm-up false}: without it,
 * the load then also paying for the JIT compiler). After the load it waits as well for the engine's
 * warm-up over the new events (rounds of chart queries over them, once no event has arrived for a
 * second), before DuckDB's load and the queries, so that it runs beside neither. Then Q1–Q6 run on
 * both; their answers are compared first (the run fails when they differ), then each side is timed
 * in rounds of Q1–Q6 ({@link #inRounds}): warm-up rounds, then the median of each query over the
 * measured rounds.
 *
 * <p>Flags: {@code --rows} (2,000,000), {@code --warmup} (20), {@code --rounds} (11), {@code
 * --engine-warm-up} (true), {@code --warm-rows} (0: unmeasured loads into scratch databases first),
 * {@code --dir} (a parent directory for both databases; a temporary one by default, deleted at the
 * end).
 */
final class DuckDbSideBySide {
  private DuckDbSideBySide() {}

  /**
   * @param flags the command's flags
   * @param out where the table goes
   * @return whether every answer agreed (the figures are meaningless otherwise)
   * @throws Exception when a side fails
   */
  static boolean run(Map<String, String> flags, PrintStream out) throws Exception {
    int rows = Integer.parseInt(flags.getOrDefault("rows", "2000000"));
    int warmup = Integer.parseInt(flags.getOrDefault("warmup", "20"));
    int rounds = Integer.parseInt(flags.getOrDefault("rounds", "11"));
    int warmRows = Integer.parseInt(flags.getOrDefault("warm-rows", "0"));
    boolean engineWarmUp = Boolean.parseBoolean(flags.getOrDefault("engine-warm-up", "true"));
    if (rows <= 0 || warmup < 0 || rounds <= 0 || warmRows < 0) {
      throw new IllegalArgumentException(
          "--rows and --rounds must be positive, --warmup and --warm-rows not negative");
    }
    String given = flags.get("dir");
    Path parent =
        given != null
            ? Files.createDirectories(Path.of(given))
            : Files.createTempDirectory("chartwell-duckdb");
    Path duckFile = parent.resolve("bench-logs.duckdb");
    Path chartwellDir = parent.resolve("chartwell");
    Files.deleteIfExists(duckFile);
    Files.deleteIfExists(parent.resolve("bench-logs.duckdb.wal"));
    if (Files.exists(chartwellDir)) {
      BenchData.deleteTree(chartwellDir);
    }
    int cores = Runtime.getRuntime().availableProcessors();
    out.printf(
        Locale.ROOT,
        "bench-logs %,d events; Chartwell %d query workers (its default: the cores); %d warm-up"
            + " rounds, medians of %d (each round Q1..Q6; Chartwell's rounds, then DuckDB's); load"
            + " average %s; in %s%n",
        rows,
        cores,
        warmup,
        rounds,
        loadAverage(),
        parent);
    try (DuckDBConnection duck =
        (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
      out.printf(
          Locale.ROOT,
          "DuckDB %s, %s threads (its default: the cores)%n",
          setting(duck, "version()"),
          setting(duck, "current_setting('threads')"));
      warmGenerator();
      if (warmRows > 0) {
        warmLoads(parent, warmRows, out);
      }
      long w0 = System.nanoTime();
      try (Engine engine = BenchData.open(chartwellDir, FsyncPolicy.REQUEST, engineWarmUp)) {
        if (!engine.awaitWarmUp(Duration.ofMinutes(10))) {
          throw new IllegalStateException("the engine's warm-up did not end in 10 minutes");
        }
        double warmUpSeconds = (System.nanoTime() - w0) / 1e9;
        if (engineWarmUp) {
          out.printf(
              Locale.ROOT,
              "Chartwell: the engine's start-up warm-up (Engine.Builder.warmUp) took %.1f s before"
                  + " the load; the load and queries below come after it%n",
              warmUpSeconds);
        }
        long t0 = System.nanoTime();
        BenchData.Counts counts = BenchData.append(engine.createSource(BenchData.spec()), rows);
        double chartwellLoad = (System.nanoTime() - t0) / 1e9;
        long chartwellBytes = treeBytes(chartwellDir);
        double newDataSeconds = awaitWarmUpOverNewData(engine, engineWarmUp);
        out.printf(
            Locale.ROOT,
            "Chartwell: loaded in %.2f s (generator included; fsync per batch of 10,000, then seal),"
                + " %,d bytes on disk%n",
            chartwellLoad,
            chartwellBytes);
        if (engineWarmUp) {
          out.printf(
              Locale.ROOT,
              "Chartwell: the engine's warm-up over the new events took %.1f s after the load (not"
                  + " counted in it); DuckDB's load and the queries come after it%n",
              newDataSeconds);
        }
        long t1 = System.nanoTime();
        loadDuckDb(duck, rows);
        double duckAppend = (System.nanoTime() - t1) / 1e9;
        long t2 = System.nanoTime();
        try (Statement s = duck.createStatement()) {
          s.execute("CHECKPOINT");
        }
        double duckLoad = (System.nanoTime() - t1) / 1e9;
        long duckBytes = Files.size(duckFile) + walBytes(parent);
        out.printf(
            Locale.ROOT,
            "DuckDB: appended and committed in %.2f s, CHECKPOINT %.2f s (generator included),"
                + " %,d bytes on disk after CHECKPOINT%n",
            duckAppend,
            (System.nanoTime() - t2) / 1e9,
            duckBytes);

        List<ChartQuery> ours = QueryBenchmark.queries();
        List<DuckDbQueries.Sql> theirs = DuckDbQueries.all();
        if (!answersAgree(engine, duck, ours, theirs, counts, out)) {
          return false;
        }
        List<Callable<?>> ourCalls = new ArrayList<>();
        List<Callable<?>> duckCalls = new ArrayList<>();
        for (int q = 0; q < ours.size(); q++) {
          ChartQuery query = ours.get(q);
          DuckDbQueries.Sql sql = theirs.get(q);
          ourCalls.add(() -> engine.query(query));
          duckCalls.add(() -> DuckDbQueries.run(duck, sql));
        }
        double[] ourMedians = inRounds(ourCalls, warmup, rounds);
        double[] duckMedians = inRounds(duckCalls, warmup, rounds);
        table(
            out, rows, chartwellLoad, duckLoad, chartwellBytes, duckBytes, ourMedians, duckMedians);
        if (engineWarmUp) {
          out.printf(
              Locale.ROOT,
              "(Chartwell's figures after its start-up warm-up of %.1f s, not counted in its load)%n",
              warmUpSeconds);
        }
        out.printf(Locale.ROOT, "load average at the end: %s%n", loadAverage());
        return true;
      }
    } finally {
      if (given == null) {
        BenchData.deleteTree(parent);
      }
    }
  }

  /**
   * Runs the generator, unmeasured, until the JIT has compiled it: both loads include generating
   * their events, and the first would otherwise also pay for compiling the generator.
   */
  static void warmGenerator() {
    BenchLogs gen = new BenchLogs(1_000_000, 7);
    BenchLogs.Row row = new BenchLogs.Row();
    long sum = 0;
    while (gen.hasNext()) {
      gen.next(row);
      sum += row.body.length();
    }
    if (sum == 0) {
      throw new IllegalStateException("the generator made empty bodies");
    }
  }

  /**
   * Loads {@code rows} events into a scratch Chartwell data directory and a scratch DuckDB file,
   * unmeasured, and deletes both: the measured loads then run on compiled code, as in an
   * application that has been up for a while, instead of paying for the JIT (Chartwell's whole
   * engine, DuckDB's JDBC side).
   */
  static void warmLoads(Path parent, int rows, PrintStream out) throws Exception {
    long t0 = System.nanoTime();
    Path dir = parent.resolve("warm-up-chartwell");
    try (Engine engine = BenchData.open(dir, FsyncPolicy.REQUEST)) {
      BenchData.append(engine.createSource(BenchData.spec()), rows);
    }
    BenchData.deleteTree(dir);
    Path file = parent.resolve("warm-up.duckdb");
    try (DuckDBConnection duck =
        (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + file)) {
      loadDuckDb(duck, rows);
    }
    Files.deleteIfExists(file);
    Files.deleteIfExists(parent.resolve("warm-up.duckdb.wal"));
    out.printf(
        Locale.ROOT,
        "warm-up loads (unmeasured): %,d events into each, in %.1f s%n",
        rows,
        (System.nanoTime() - t0) / 1e9);
  }

  /** Generates the events (the same seed as {@link BenchData#append}) and appends them. */
  /**
   * Waits, after the load, for the engine's warm-up over the new events (it runs once no event has
   * arrived for a second), so that it neither runs beside DuckDB's load nor beside the queries.
   *
   * @return the seconds waited
   */
  private static double awaitWarmUpOverNewData(Engine engine, boolean on)
      throws InterruptedException {
    long t0 = System.nanoTime();
    if (on && !engine.awaitWarmUp(Duration.ofMinutes(10))) {
      throw new IllegalStateException(
          "the engine's warm-up over new data did not end in 10 minutes");
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static void loadDuckDb(DuckDBConnection duck, int rows) throws SQLException {
    try (Statement s = duck.createStatement()) {
      s.execute(DuckDbQueries.CREATE);
    }
    BenchLogs gen = new BenchLogs(rows, 42);
    try (DuckDBAppender a = duck.createAppender("main", DuckDbQueries.TABLE)) {
      BenchLogs.Row row = new BenchLogs.Row();
      while (gen.hasNext()) {
        gen.next(row);
        a.beginRow()
            .append(row.timestamp)
            .append(row.serviceName())
            .append(row.severityText())
            .append(row.host)
            .append(row.status)
            .append(row.duration)
            .append(row.traceId)
            .append(row.method)
            .append(row.body)
            .endRow();
      }
    }
  }

  /**
   * Compares each query's answers, and the answers of Q1, Q4 and Q5 with the counts kept while
   * generating.
   */
  private static boolean answersAgree(
      Engine engine,
      Connection duck,
      List<ChartQuery> ours,
      List<DuckDbQueries.Sql> theirs,
      BenchData.Counts counts,
      PrintStream out)
      throws SQLException {
    long[] expectedTotals = {
      counts.errors(), -1, counts.rows(), counts.svc3Failures(), counts.timeouts(), counts.rows()
    };
    boolean ok = true;
    for (int q = 0; q < ours.size(); q++) {
      var result = engine.query(ours.get(q));
      DuckDbQueries.Answer cw = DuckDbQueries.Answer.of(result);
      DuckDbQueries.Answer dd = DuckDbQueries.run(duck, theirs.get(q));
      List<String> diff =
          new ArrayList<>(DuckDbQueries.differences(cw, dd, theirs.get(q).series()));
      long total = QueryBenchmark.total(result, 0);
      if (expectedTotals[q] >= 0 && total != expectedTotals[q]) {
        diff.add(
            "Chartwell's total " + total + " differs from the generator's " + expectedTotals[q]);
      }
      if (cw.rows() == 0) {
        diff.add("Chartwell answered no rows");
      }
      out.printf(
          Locale.ROOT,
          "Q%d answers: %s (%d rows)%n",
          q + 1,
          diff.isEmpty() ? "equal" : "DIFFER",
          cw.rows());
      diff.forEach(d -> out.println("  " + d));
      ok &= diff.isEmpty();
    }
    if (!ok) {
      out.println("the answers differ: no timings are reported");
    }
    return ok;
  }

  /**
   * Times one side's queries in rounds: each round runs every query once, in order, as a dashboard
   * asks its charts; {@code warmup} untimed rounds, then {@code rounds} timed ones. Each side is
   * timed this way on its own (Chartwell's rounds, then DuckDB's), so that each query follows the
   * same side's previous one, as it does for a user of that side: right after a DuckDB query, the
   * processor's caches hold what DuckDB scanned and Chartwell's short queries pay to bring their
   * own data back (benchmarks/HISTORY.md, issue 38 item 2).
   *
   * @param calls the side's call of each query
   * @param warmup untimed rounds
   * @param rounds timed rounds
   * @return each query's median, in milliseconds
   * @throws Exception when a call fails
   */
  static double[] inRounds(List<Callable<?>> calls, int warmup, int rounds) throws Exception {
    int queries = calls.size();
    double[][] ms = new double[queries][rounds];
    for (int round = 0; round < warmup + rounds; round++) {
      for (int q = 0; q < queries; q++) {
        long t = System.nanoTime();
        calls.get(q).call();
        if (round >= warmup) {
          ms[q][round - warmup] = (System.nanoTime() - t) / 1e6;
        }
      }
    }
    double[] medians = new double[queries];
    for (int q = 0; q < queries; q++) {
      medians[q] = median(ms[q]);
    }
    return medians;
  }

  /** The median of some durations (sorts them). */
  static double median(double[] ms) {
    Arrays.sort(ms);
    int n = ms.length;
    return n % 2 == 1 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  }

  private static void table(
      PrintStream out,
      int rows,
      double chartwellLoad,
      double duckLoad,
      long chartwellBytes,
      long duckBytes,
      double[] ours,
      double[] duck) {
    out.println();
    out.printf(Locale.ROOT, "%-22s %14s %14s %10s%n", "", "Chartwell", "DuckDB", "ratio");
    out.printf(
        Locale.ROOT,
        "%-22s %,14.0f %,14.0f %9.2fx%n",
        "load events/s",
        rows / chartwellLoad,
        rows / duckLoad,
        duckLoad / chartwellLoad);
    out.printf(
        Locale.ROOT,
        "%-22s %14.1f %14.1f %9.2fx%n",
        "bytes/event",
        (double) chartwellBytes / rows,
        (double) duckBytes / rows,
        (double) chartwellBytes / duckBytes);
    for (int q = 0; q < ours.length; q++) {
      out.printf(
          Locale.ROOT,
          "%-22s %14.2f %14.2f %9.1fx%n",
          "Q" + (q + 1) + " median ms",
          ours[q],
          duck[q],
          duck[q] / ours[q]);
    }
    out.println(
        "(load ratio: DuckDB's time / ours; bytes ratio: ours / DuckDB's; query ratio: DuckDB's"
            + " median / ours)");
  }

  private static String setting(Connection c, String expr) throws SQLException {
    try (Statement s = c.createStatement();
        var rs = s.executeQuery("SELECT " + expr)) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The machine's load averages (1, 5, 15 minutes) from Linux's /proc, "-" elsewhere. */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "-";
    }
  }

  private static long walBytes(Path parent) throws IOException {
    Path wal = parent.resolve("bench-logs.duckdb.wal");
    return Files.exists(wal) ? Files.size(wal) : 0;
  }

  private static long treeBytes(Path root) throws IOException {
    try (var walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .sum();
    }
  }
}
