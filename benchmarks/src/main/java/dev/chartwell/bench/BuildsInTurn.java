package dev.chartwell.bench;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code builds}: one benchmark on several builds in turn, in one JVM: each build's bench jar in a
 * class loader of its own, then round after round one run of each. On a shared machine whose speed
 * drifts from minute to minute (this project's 2-core VM: the same build measured 10% apart ten
 * minutes later), separate JMH runs compare the minutes as much as the builds; runs in turn meet
 * the same drift.
 *
 * <ul>
 *   <li>{@code seal}: {@link SealBenchmark#seal()}, one head of 262,144 events built into a
 *       segment.
 *   <li>{@code ingest}: {@link IngestBenchmark#oneThread()} with {@code storage=disk}, {@code
 *       fsync=request} and {@code api=batch}: sixteen segments' worth appended and sealed.
 *   <li>{@code q1} to {@code q6}: that query of {@link QueryBenchmark} with {@code storage=disk},
 *       over the data directory {@code DATA/N} for the N-th build (from 0), each build's engine on
 *       its own copy (an engine locks its directory). A directory that does not exist is loaded
 *       first, as {@code -Dchartwell.bench.dir} is; copy one kept directory to save the time.
 * </ul>
 */
final class BuildsInTurn {
  private BuildsInTurn() {}

  /**
   * {@code builds --benchmark seal|ingest|q1..q6 --jars A.jar,B.jar[,...] [--rounds R] [--warmup W]
   * [--data DIR] [--rows N]}; a build may also be a class path (entries joined by the path
   * separator).
   */
  static void run(Map<String, String> flags, PrintStream out) throws Exception {
    String benchmark = BenchMain.required(flags, "benchmark");
    boolean query = benchmark.matches("q[1-6]");
    if (!benchmark.equals("seal") && !benchmark.equals("ingest") && !query) {
      throw new IllegalArgumentException(
          "--benchmark takes seal, ingest or q1 to q6, got '" + benchmark + "'");
    }
    boolean seal = benchmark.equals("seal");
    boolean timed = seal || query;
    int rounds = Integer.parseInt(flags.getOrDefault("rounds", seal ? "40" : query ? "200" : "8"));
    int warmup = Integer.parseInt(flags.getOrDefault("warmup", seal ? "8" : query ? "200" : "2"));
    List<String> jars = Arrays.asList(BenchMain.required(flags, "jars").split(","));
    List<Build> runs = new ArrayList<>();
    for (String jar : jars) {
      List<URL> urls = new ArrayList<>();
      for (String entry : jar.split(java.io.File.pathSeparator)) {
        Path path = Path.of(entry);
        if (!Files.exists(path)) {
          throw new IllegalArgumentException("no bench jar at " + entry);
        }
        urls.add(path.toUri().toURL());
      }
      ClassLoader loader =
          new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
      if (query) {
        Path data = Path.of(BenchMain.required(flags, "data"), Integer.toString(runs.size()));
        int rows = Integer.parseInt(flags.getOrDefault("rows", "10000000"));
        runs.add(queryRun(loader, benchmark, data, rows));
      } else {
        runs.add(seal ? sealRun(loader) : ingestRun(loader));
      }
    }
    long[][] nanos = new long[jars.size()][rounds];
    try {
      for (int r = 0; r < warmup + rounds; r++) {
        for (int b = 0; b < runs.size(); b++) {
          long start = System.nanoTime();
          runs.get(b).run().run();
          if (r >= warmup) {
            nanos[b][r - warmup] = System.nanoTime() - start;
          }
        }
      }
    } finally {
      for (Build b : runs) {
        b.tearDown().run();
      }
    }
    out.printf(
        Locale.ROOT,
        "%s, %d builds in turn, %d rounds after %d warm-up rounds:%n",
        benchmark,
        jars.size(),
        rounds,
        warmup);
    for (int b = 0; b < jars.size(); b++) {
      long[] t = nanos[b];
      Arrays.sort(t);
      if (timed) {
        out.printf(
            Locale.ROOT,
            "%-60s median %8.2f ms  p25 %8.2f  min %8.2f%n",
            jars.get(b),
            t[rounds / 2] / 1e6,
            t[rounds / 4] / 1e6,
            t[0] / 1e6);
      } else {
        double events = IngestBenchmark.EVENTS * 1e9;
        out.printf(
            Locale.ROOT,
            "%-60s median %,10.0f events/s  best %,10.0f  worst %,10.0f%n",
            jars.get(b),
            events / t[rounds / 2],
            events / t[0],
            events / t[rounds - 1]);
      }
    }
  }

  /** One build's benchmark, set up: what one run calls, and what frees it at the end. */
  private record Build(Runnable run, Runnable tearDown) {}

  private static Build sealRun(ClassLoader loader) throws Exception {
    Class<?> type = loader.loadClass(SealBenchmark.class.getName());
    Object benchmark = type.getConstructor().newInstance();
    type.getMethod("setUp").invoke(benchmark);
    return new Build(call(type.getMethod("seal"), benchmark), () -> {});
  }

  private static Build ingestRun(ClassLoader loader) throws Exception {
    Class<?> type = loader.loadClass(IngestBenchmark.class.getName());
    Object benchmark = type.getConstructor().newInstance();
    type.getField("storage").set(benchmark, "disk");
    type.getField("fsync").set(benchmark, "request");
    type.getField("api").set(benchmark, "batch");
    type.getMethod("setUp").invoke(benchmark);
    return new Build(
        call(type.getMethod("oneThread"), benchmark), call(type.getMethod("tearDown"), benchmark));
  }

  private static Build queryRun(ClassLoader loader, String query, Path data, int rows)
      throws Exception {
    Class<?> type = loader.loadClass(QueryBenchmark.class.getName());
    Object benchmark = type.getConstructor().newInstance();
    type.getField("rows").set(benchmark, rows);
    type.getField("storage").set(benchmark, "disk");
    String before = System.getProperty("chartwell.bench.dir");
    System.setProperty("chartwell.bench.dir", data.toString());
    try {
      type.getMethod("load").invoke(benchmark);
    } finally {
      if (before == null) {
        System.clearProperty("chartwell.bench.dir");
      } else {
        System.setProperty("chartwell.bench.dir", before);
      }
    }
    return new Build(call(type.getMethod(query), benchmark), () -> {});
  }

  private static Runnable call(Method method, Object target) {
    return () -> {
      try {
        method.invoke(target);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(method + " failed", e);
      }
    };
  }
}
