package dev.chartwell.bench;

import dev.chartwell.engine.source.Event;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code java -jar chartwell-bench.jar}: {@code generate} writes the bench-logs data set as NDJSON,
 * {@code load} sends such a file to a running server, {@code query} times Q1-Q6 over HTTP, {@code
 * otlp} measures OTLP/HTTP ingestion of a running server; any other arguments go to JMH (for
 * example {@code QueryBenchmark -p rows=10000000}).
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
      case "load" -> load(flags(args));
      case "query" -> query(flags(args));
      case "otlp" -> OtlpLoad.run(flags(args));
      default -> org.openjdk.jmh.Main.main(args);
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

  private static String required(Map<String, String> flags, String name) {
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
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      BenchLogs gen = new BenchLogs(rows, seed);
      StringBuilder line = new StringBuilder(256);
      while (gen.hasNext()) {
        line.setLength(0);
        toJson(gen.next(), line);
        w.append(line).append('\n');
      }
    }
    System.out.printf(
        Locale.ROOT,
        "wrote %,d events to %s in %.1f s%n",
        rows,
        out,
        (System.nanoTime() - start) / 1e9);
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

  /** {@code load --url URL --token TOKEN --source ID --file FILE [--lines-per-request N]}. */
  static void load(Map<String, String> flags) throws Exception {
    String url =
        required(flags, "url") + "/api/v2/sources/" + required(flags, "source") + "/events";
    String token = required(flags, "token");
    int perRequest = Integer.parseInt(flags.getOrDefault("lines-per-request", "200000"));
    HttpClient client = HttpClient.newHttpClient();
    long lines = 0;
    long start = System.nanoTime();
    try (BufferedReader r = Files.newBufferedReader(Path.of(required(flags, "file")))) {
      StringBuilder chunk = new StringBuilder(perRequest * 300);
      String line;
      int n = 0;
      while (true) {
        line = r.readLine();
        if (line != null) {
          chunk.append(line).append('\n');
          n++;
        }
        if ((line == null && n > 0) || n == perRequest) {
          HttpResponse<String> resp =
              client.send(
                  HttpRequest.newBuilder(URI.create(url))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/x-ndjson")
                      .POST(HttpRequest.BodyPublishers.ofString(chunk.toString()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          if (resp.statusCode() != 200 || !resp.body().contains("\"rejected\":0,")) {
            throw new IllegalStateException(
                "ingestion failed: " + resp.statusCode() + " " + resp.body());
          }
          lines += n;
          n = 0;
          chunk.setLength(0);
        }
        if (line == null) {
          break;
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "loaded %,d events in %.1f s: %,.0f events/s%n",
        lines,
        seconds,
        lines / seconds);
  }

  /** {@code query --url URL --token TOKEN --source ID [--runs N] [--warmup N]}: Q1-Q6 over HTTP. */
  static void query(Map<String, String> flags) throws Exception {
    String url = required(flags, "url") + "/api/v2/charts/series";
    String token = required(flags, "token");
    String id = required(flags, "source");
    int runs = Integer.parseInt(flags.getOrDefault("runs", "20"));
    int warmup = Integer.parseInt(flags.getOrDefault("warmup", "3"));
    long end = Long.parseLong(flags.getOrDefault("end", Long.toString(BenchLogs.END)));
    long start = end - BenchLogs.SPAN;
    long q4Start = start + 6 * 3_600_000L;
    Map<String, String> queries = new java.util.LinkedHashMap<>();
    queries.put("Q1", body(start, end, "1m", series(id, "count", null, "SeverityText:error", "")));
    queries.put(
        "Q2",
        body(
            start,
            end,
            "1m",
            series(
                id,
                "quantile",
                "Duration",
                "SeverityText:(warn OR error)",
                ",\"level\":0.95,\"groupBy\":[\"ServiceName\"]")));
    queries.put(
        "Q3",
        body(
            start,
            end,
            "5m",
            series(id, "count", null, null, ""),
            series(id, "count", null, "SeverityText:error", ""),
            series(id, "avg", "Duration", null, ""),
            series(id, "max", "Duration", null, ""),
            series(id, "count_distinct", "host", null, "")));
    queries.put(
        "Q4",
        body(
            q4Start,
            q4Start + 6 * 3_600_000L,
            "1m",
            series(id, "count", null, "ServiceName:\"svc-3\" AND status:>=500", "")));
    queries.put("Q5", body(start, end, "30m", series(id, "count", null, "timeout", "")));
    queries.put("Q6", body(start, end, "1h", series(id, "count_distinct", "TraceId", null, "")));
    HttpClient client = HttpClient.newHttpClient();
    for (Map.Entry<String, String> q : queries.entrySet()) {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(q.getValue()))
              .build();
      List<Long> times = new ArrayList<>();
      for (int i = 0; i < warmup + runs; i++) {
        long t = System.nanoTime();
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
        long took = System.nanoTime() - t;
        if (r.statusCode() != 200 || r.body().equals("{\"data\":[]}")) {
          throw new IllegalStateException(
              q.getKey() + " failed: " + r.statusCode() + " " + r.body());
        }
        if (i >= warmup) { // the first runs warm the server and this client up
          times.add(took);
        }
      }
      times.sort(null);
      System.out.printf(
          Locale.ROOT,
          "%s median %.2f ms (min %.2f, max %.2f, %d runs)%n",
          q.getKey(),
          times.get(times.size() / 2) / 1e6,
          times.get(0) / 1e6,
          times.get(times.size() - 1) / 1e6,
          times.size());
    }
  }

  private static String series(String id, String fn, String field, String where, String extra) {
    return "{\"sourceId\":\""
        + id
        + "\",\"aggFn\":\""
        + fn
        + "\""
        + (field == null ? "" : ",\"field\":\"" + field + "\"")
        + (where == null ? "" : ",\"where\":\"" + where.replace("\"", "\\\"") + "\"")
        + extra
        + "}";
  }

  private static String body(long start, long end, String g, String... series) {
    return "{\"startTime\":"
        + start
        + ",\"endTime\":"
        + end
        + ",\"granularity\":\""
        + g
        + "\",\"series\":["
        + String.join(",", series)
        + "]}";
  }
}
