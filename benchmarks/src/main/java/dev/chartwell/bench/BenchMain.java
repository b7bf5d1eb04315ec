package dev.chartwell.bench;

import dev.chartwell.bench.http.HttpCommands;
import dev.chartwell.bench.http.PromSideBySide;
import dev.chartwell.bench.http.SideBySide;
import dev.chartwell.engine.Event;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code java -jar chartwell-bench.jar}: {@code generate} writes the bench-logs data set as NDJSON,
 * {@code load} sends such a file to a running server, {@code query} times Q1-Q6 over HTTP, {@code
 * sidebyside} compares Chartwell with a local ClickHouse in one run; {@code promsidebyside} with
 * the Debian Prometheus (remote write in, a PromQL range query out); {@code otlp} measures
 * OTLP/HTTP ingestion of a running server; {@code interleaved} times Q1-Q6 in the engine in turns,
 * as a server meets them; {@code scale} loads and queries a data set of any size (a billion events)
 * through the Java API; {@code builds} runs one benchmark on several builds in turn in one JVM;
 * {@code tenants} times a quiet service with and without a flooding neighbour; {@code mixed} times
 * dashboard queries alone and while the source is being filled; {@code duckdb} compares the engine
 * with DuckDB embedded in the same JVM (a build with {@code -Pduckdb}); any other arguments go to
 * JMH (for example {@code QueryBenchmark -p rows=10000000}).
 */
public final class BenchMain {
  private BenchMain() {}

  /**
   * @param args a command and its flags, or JMH arguments
   * @throws Exception when a command fails
   */
  public static void main(String[] args) throws Exception {
    String command = args.length == 0 ? "" : args[0];
    switch (command) {
      case "generate" -> generate(flags(args));
      case "load" -> HttpCommands.load(flags(args), System.out);
      case "query" -> HttpCommands.query(flags(args), System.out);
      case "sidebyside" -> {
        if (!SideBySide.run(flags(args), System.out)) {
          System.exit(1); // the answers differ: the figures must not be trusted
        }
      }
      case "promsidebyside" -> {
        if (!PromSideBySide.run(flags(args), System.out)) {
          System.exit(1); // the answers differ: the figures must not be trusted
        }
      }
      case "otlp" -> OtlpLoad.run(flags(args));
      case "interleaved" -> InterleavedQueries.run(flags(args), System.out);
      case "scale" -> ScaleRun.run(flags(args), System.out);
      case "builds" -> BuildsInTurn.run(flags(args), System.out);
      case "tenants" -> NeighbourFlood.run(flags(args), System.out);
      case "mixed" -> MixedLoad.run(flags(args), System.out);
      case "duckdb" -> {
        if (!duckDb(flags(args))) {
          System.exit(1); // the answers differ: the figures must not be trusted
        }
      }
      default -> org.openjdk.jmh.Main.main(args);
    }
  }

  /**
   * Runs {@code DuckDbSideBySide}, which is compiled (with DuckDB's driver) only when the
   * benchmarks are built with {@code -Pduckdb}.
   */
  private static boolean duckDb(Map<String, String> flags) throws Exception {
    Class<?> c;
    try {
      c = Class.forName("dev.chartwell.bench.DuckDbSideBySide");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "this chartwell-bench.jar was built without DuckDB: build it with"
              + " mvn -B -pl benchmarks -am -Pduckdb -DskipTests package",
          e);
    }
    var run = c.getDeclaredMethod("run", Map.class, java.io.PrintStream.class);
    run.setAccessible(true);
    try {
      return (Boolean) run.invoke(null, flags, System.out);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** The {@code --flag value} pairs after the command. */
  static Map<String, String> flags(String[] args) {
    Map<String, String> out = new HashMap<>();
    for (int i = 1; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --flag value, got '" + args[i] + "'");
      }
      out.put(args[i].substring(2), args[i + 1]);
    }
    return out;
  }

  static String required(Map<String, String> flags, String name) {
    String v = flags.get(name);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  /** {@code generate --rows N --seed S --out FILE}. */
  static void generate(Map<String, String> flags) throws IOException {
    int rows = Integer.parseInt(required(flags, "rows"));
    long seed = Long.parseLong(flags.getOrDefault("seed", "42"));
    Path out = Path.of(required(flags, "out"));
    long start = System.nanoTime();
    writeNdjson(rows, seed, out);
    System.out.printf(
        Locale.ROOT,
        "wrote %,d events to %s in %.1f s%n",
        rows,
        out,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Writes the {@code bench-logs} data set as NDJSON, one event per line.
   *
   * @param rows events
   * @param seed the seed (the same seed and rows give the same file)
   * @param out the file
   * @throws IOException when it cannot be written
   */
  public static void writeNdjson(int rows, long seed, Path out) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      BenchLogs gen = new BenchLogs(rows, seed);
      StringBuilder line = new StringBuilder(256);
      while (gen.hasNext()) {
        line.setLength(0);
        toJson(gen.next(), line);
        w.append(line).append('\n');
      }
    }
  }

  /** One event as a JSON object; dotted names become nested objects again. */
  static void toJson(Event e, StringBuilder sb) {
    sb.append("{\"Timestamp\":").append(e.timestamp());
    Map<String, Object> nested = new HashMap<>();
    for (Map.Entry<String, Object> f : e.fields().entrySet()) {
      if (f.getKey().startsWith("LogAttributes.")) {
        nested.put(f.getKey().substring("LogAttributes.".length()), f.getValue());
      } else {
        sb.append(",\"").append(f.getKey()).append("\":");
        value(f.getValue(), sb);
      }
    }
    if (!nested.isEmpty()) {
      sb.append(",\"LogAttributes\":{");
      boolean first = true;
      for (Map.Entry<String, Object> f : nested.entrySet()) {
        sb.append(first ? "" : ",").append('"').append(f.getKey()).append("\":");
        value(f.getValue(), sb);
        first = false;
      }
      sb.append('}');
    }
    sb.append('}');
  }

  private static void value(Object v, StringBuilder sb) {
    if (v instanceof String s) {
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '"' || c == '\\') {
          sb.append('\\');
        }
        sb.append(c);
      }
      sb.append('"');
    } else {
      sb.append(v);
    }
  }
}
