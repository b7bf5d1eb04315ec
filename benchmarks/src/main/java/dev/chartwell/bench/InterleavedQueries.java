package dev.chartwell.bench;

import dev.chartwell.engine.ChartResult;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code interleaved}: Q1-Q6 of {@link QueryBenchmark} in the engine, one after another in rounds,
 * as a server meets them, with each query's median. JMH runs one query at a time, so its JIT
 * profile and the caches hold that query alone; here they hold all six, and a short query pays for
 * the long ones before it. {@code --only qN} runs one query in the same way, and {@code --evict-mb
 * M} walks an array of M MiB before each measured query, to tell the caches' share from the JIT's;
 * with {@code --warm-all true} the warm-up rounds run all six queries before {@code --only}'s is
 * measured alone, to tell the JIT's share (code compiled for all six) from the other queries'.
 */
final class InterleavedQueries {
  private InterleavedQueries() {}

  /**
   * {@code interleaved [--rows N] [--storage heap|disk] [--rounds R] [--warmup W] [--only qN]
   * [--evict-mb M] [--warm-all true]}.
   */
  static void run(Map<String, String> flags, PrintStream out) {
    QueryBenchmark b = new QueryBenchmark();
    b.rows = Integer.parseInt(flags.getOrDefault("rows", "10000000"));
    b.storage = flags.getOrDefault("storage", "disk");
    int rounds = Integer.parseInt(flags.getOrDefault("rounds", "300"));
    int warmup = Integer.parseInt(flags.getOrDefault("warmup", "300"));
    String only = flags.get("only");
    boolean warmAll = Boolean.parseBoolean(flags.getOrDefault("warm-all", "false"));
    long[] evict = new long[Integer.parseInt(flags.getOrDefault("evict-mb", "0")) << 17];
    if (only != null && !only.matches("q[1-6]")) {
      throw new IllegalArgumentException("--only takes q1 to q6, got '" + only + "'");
    }
    b.load();
    List<Supplier<ChartResult>> queries = List.of(b::q1, b::q2, b::q3, b::q4, b::q5, b::q6);
    long[][] nanos = new long[queries.size()][rounds];
    long sink = 0;
    for (int r = 0; r < warmup + rounds; r++) {
      for (int q = 0; q < queries.size(); q++) {
        boolean measured = r >= warmup;
        if (only != null && !only.equals("q" + (q + 1)) && (measured || !warmAll)) {
          continue;
        }
        for (int i = 0; i < evict.length; i += 8) { // one write per cache line
          evict[i]++;
        }
        long start = System.nanoTime();
        sink += queries.get(q).get().rows().size();
        long took = System.nanoTime() - start;
        if (measured) {
          nanos[q][r - warmup] = took;
        }
      }
    }
    out.printf(
        Locale.ROOT,
        "%,d events (%s), %d rounds after %d warm-up rounds, %s%s; medians:%n",
        b.rows,
        b.storage,
        rounds,
        warmup,
        only == null
            ? "Q1-Q6 in turn"
            : "only " + only.toUpperCase(Locale.ROOT) + (warmAll ? " (warmed on all six)" : ""),
        evict.length == 0 ? "" : ", " + (evict.length >> 17) + " MiB walked before each");
    for (int q = 0; q < queries.size(); q++) {
      if (only == null || only.equals("q" + (q + 1))) {
        long[] sorted = nanos[q].clone();
        Arrays.sort(sorted);
        out.printf(Locale.ROOT, "Q%d %10.3f ms%n", q + 1, sorted[rounds / 2] / 1e6);
      }
    }
    if (sink < 0) {
      out.println(sink); // keeps the answers alive
    }
  }
}
