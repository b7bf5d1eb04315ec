package dev.chartwell.bench;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code mixed}: dashboard queries while the source they read is being filled, as an observability
 * store always is. An engine on a data directory holds {@code --rows} events of the last hour;
 * three chart queries (a count with a where, the p95 of a field by service, a bare term; 1-minute
 * buckets over the hour) run at a fixed {@code --qps}, first alone, then beside ingestion at {@code
 * --rate} events/s, then beside ingestion at half of what one appending thread sustains (measured
 * on a scratch source), then alone again over the data the ingestion left (more events than the
 * first phase read: an ingesting phase's queries read between the two). Each phase prints the
 * queries' p50 and p99 (each query's own time, from when it started), the ingestion rate reached,
 * and the CPU time the phase's threads used: the queries' (the calling thread and the engine's
 * query workers), the sealing pool's (sealing and head parts built ahead) and the appending
 * thread's, per million events appended for the last two. On a machine shared with other work the
 * latencies move with its load; the CPU times much less, so that they compare code.
 */
final class MixedLoad {
  private static final long HOUR = 3_600_000L;
  private static final int BATCH = 1_000;

  private final Engine engine;
  private final Source source;
  private final List<Event> pool;
  private final List<ChartQuery> queries;

  private MixedLoad(Engine engine, Source source, List<Event> pool, long now) {
    this.engine = engine;
    this.source = source;
    this.pool = pool;
    Granularity m1 = Granularity.named("1m").orElseThrow();
    long start = now - HOUR;
    long end = now + HOUR; // events arriving during the run stay in range
    String id = BenchData.SOURCE;
    Series p95 =
        new Series(id, AggFn.QUANTILE, "Duration", 0.95, null, null, List.of("ServiceName"));
    this.queries =
        List.of(
            new ChartQuery(
                start,
                end,
                m1,
                List.of(Series.of(id, AggFn.COUNT, null, "SeverityText:error")),
                null),
            new ChartQuery(start, end, m1, List.of(p95), null),
            new ChartQuery(
                start, end, m1, List.of(Series.of(id, AggFn.COUNT, null, "timeout")), null));
  }

  /** {@code mixed [--rows N] [--rate EVENTS_PER_S] [--qps Q] [--seconds S]}. */
  static void run(Map<String, String> flags, PrintStream out) throws Exception {
    int rows = Integer.parseInt(flags.getOrDefault("rows", "6200000"));
    int rate = Integer.parseInt(flags.getOrDefault("rate", "40000"));
    int qps = Integer.parseInt(flags.getOrDefault("qps", "8"));
    int seconds = Integer.parseInt(flags.getOrDefault("seconds", "30"));
    Path dir = Files.createTempDirectory("chartwell-mixed");
    try (Engine engine = BenchData.open(dir, FsyncPolicy.REQUEST)) {
      Source source = engine.createSource(BenchData.spec());
      long now = System.currentTimeMillis();
      out.printf(Locale.ROOT, "loading %,d events over the last hour...%n", rows);
      fill(source, rows, now);
      List<Event> pool = new ArrayList<>();
      BenchLogs gen = new BenchLogs(100_000, 7);
      while (gen.hasNext()) {
        pool.add(gen.next());
      }
      MixedLoad m = new MixedLoad(engine, source, pool, now);
      m.phase(qps, seconds, 0); // warm-up, not reported
      int capacity = m.capacity(Math.max(5, seconds / 3));
      out.printf(
          Locale.ROOT,
          "%,d events, %d queries/s for %d s per phase; one appending thread alone: %,d events/s%n",
          rows,
          qps,
          seconds,
          capacity);
      m.report(out, "alone", m.phase(qps, seconds, 0), 0);
      m.report(out, "ingesting " + rate + "/s", m.phase(qps, seconds, rate), rate);
      m.report(out, "ingesting half capacity", m.phase(qps, seconds, capacity / 2), capacity / 2);
      // The ingesting phases added events (most in the last minute, the p95's heaviest bucket):
      // the same queries alone over the data as they left it tell that cost from ingestion's.
      m.report(out, "alone, data as left", m.phase(qps, seconds, 0), 0);
    } finally {
      BenchData.deleteTree(dir);
    }
  }

  /** Appends {@code rows} bench-logs events spread over the hour before {@code now}. */
  private static void fill(Source source, int rows, long now) {
    BenchLogs gen = new BenchLogs(rows, 42);
    long from = BenchLogs.END - BenchLogs.SPAN;
    List<Event> batch = new ArrayList<>(10_000);
    while (gen.hasNext()) {
      Event e = gen.next();
      long ts = now - HOUR + (e.timestamp() - from) / 24;
      batch.add(new Event(ts, e.fields()));
      if (batch.size() == 10_000) {
        source.appendBatch(batch);
        batch.clear();
      }
    }
    source.appendBatch(batch);
  }

  /**
   * Events per second one thread appends, stamped now, in batches of {@link #BATCH}: into a source
   * of the same kind that is dropped afterwards, so that the queried source holds {@code --rows}
   * events when the queries first run alone.
   */
  private int capacity(int seconds) {
    String id = "mixed-capacity";
    Source probe =
        engine.createSource(
            new SourceSpec(id, id, SourceKind.LOG, "Timestamp", "Body", "Body", List.of()));
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long start = System.nanoTime();
    long n = 0;
    while (System.nanoTime() < deadline) {
      n += appendOne(probe, n);
    }
    int perSecond = (int) (n * 1e9 / (System.nanoTime() - start));
    engine.dropSource(id);
    return perSecond;
  }

  private int appendOne(Source target, long offset) {
    long ts = System.currentTimeMillis();
    List<Event> batch = new ArrayList<>(BATCH);
    for (int i = 0; i < BATCH; i++) {
      batch.add(new Event(ts, pool.get((int) ((offset + i) % pool.size())).fields()));
    }
    return target.appendBatch(batch).accepted();
  }

  /** What one phase measured. */
  private record Phase(long[] latencyNanos, long appended, long nanos, Cpu cpu) {}

  /**
   * CPU nanoseconds of the threads of a phase, by role.
   *
   * @param queries the calling thread's and the engine's query workers'
   * @param sealing the engine's sealing pool's (seals and head parts built ahead)
   * @param writer the appending thread's
   */
  record Cpu(long queries, long sealing, long writer) {
    /**
     * @param before the reading at the phase's start
     * @param writer the appending thread's CPU time, which it read itself as it ended (a thread
     *     that has ended has none to read: read from outside, it raced with the thread's end)
     * @return the phase's CPU by role
     */
    Cpu since(Cpu before, long writer) {
      return new Cpu(queries - before.queries, sealing - before.sealing, writer);
    }

    /** The CPU time of the queries' and sealing threads of the JVM so far. */
    static Cpu now() {
      java.lang.management.ThreadMXBean mx =
          java.lang.management.ManagementFactory.getThreadMXBean();
      long q = 0;
      long s = 0;
      for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
        if (t == null) {
          continue;
        }
        long cpu = Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
        String name = t.getThreadName();
        if (name.equals("main") || name.startsWith("chartwell-query-")) {
          q += cpu;
        } else if (name.startsWith("chartwell-sealer-")) {
          s += cpu;
        }
      }
      return new Cpu(q, s, 0);
    }
  }

  /**
   * Runs queries at {@code qps} for {@code seconds}, with an appending thread at {@code rate}
   * events/s when it is above 0.
   */
  private Phase phase(int qps, int seconds, int rate) throws InterruptedException {
    source.awaitSealing();
    Cpu before = Cpu.now();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong appended = new AtomicLong();
    AtomicLong writerCpu = new AtomicLong();
    Thread writer = null;
    long start = System.nanoTime();
    if (rate > 0) {
      writer =
          new Thread(
              () -> {
                long period = BATCH * 1_000_000_000L / rate;
                long due = System.nanoTime();
                while (!stop.get()) {
                  appended.addAndGet(appendOne(source, appended.get()));
                  due += period;
                  sleepUntil(due);
                }
                writerCpu.set(
                    java.lang.management.ManagementFactory.getThreadMXBean()
                        .getCurrentThreadCpuTime());
              },
              "mixed-writer");
      writer.start();
    }
    int total = qps * seconds;
    long[] latency = new long[total];
    long period = 1_000_000_000L / qps;
    long sink = 0;
    for (int i = 0; i < total; i++) {
      long due = start + i * period;
      sleepUntil(due);
      long began = System.nanoTime();
      sink += engine.query(queries.get(i % queries.size())).rows().size();
      latency[i] = System.nanoTime() - began;
    }
    Cpu after = Cpu.now();
    stop.set(true);
    if (writer != null) {
      writer.join(); // its own reading of its CPU time is then visible here
    }
    Cpu used = after.since(before, writerCpu.get());
    if (sink < 0) {
      throw new AssertionError();
    }
    return new Phase(latency, appended.get(), System.nanoTime() - start, used);
  }

  private static void sleepUntil(long due) {
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(wait);
    }
  }

  private void report(PrintStream out, String name, Phase p, int target) {
    long[] all = p.latencyNanos();
    StringBuilder each = new StringBuilder();
    for (int q = 0; q < queries.size(); q++) {
      long[] one = new long[(all.length - q + queries.size() - 1) / queries.size()];
      for (int i = q, k = 0; i < all.length; i += queries.size()) {
        one[k++] = all[i];
      }
      each.append(String.format(Locale.ROOT, "  q%d p50 %.2f", q + 1, percentile(one, 0.5) / 1e6));
    }
    Cpu cpu = p.cpu();
    String perMillion =
        p.appended() == 0
            ? ""
            : String.format(
                Locale.ROOT,
                " (per million events: sealing %.2f s, appending %.2f s)",
                cpu.sealing() / 1e3 / p.appended(),
                cpu.writer() / 1e3 / p.appended());
    out.printf(
        Locale.ROOT,
        "%-26s p50 %7.2f ms  p99 %7.1f ms  ingestion %,9.0f events/s (asked %,d);%s%n"
            + "%-26s CPU: queries %.2f s, sealing pool %.2f s, appending %.2f s%s%n",
        name,
        percentile(all, 0.5) / 1e6,
        percentile(all, 0.99) / 1e6,
        p.appended() * 1e9 / p.nanos(),
        target,
        each,
        "",
        cpu.queries() / 1e9,
        cpu.sealing() / 1e9,
        cpu.writer() / 1e9,
        perMillion);
  }

  private static long percentile(long[] values, double p) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.max(0, Math.ceil(sorted.length * p) - 1)];
  }
}
