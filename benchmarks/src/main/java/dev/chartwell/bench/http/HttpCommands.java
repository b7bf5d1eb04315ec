package dev.chartwell.bench.http;

import dev.chartwell.bench.BenchLogs;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** The bench commands that talk to a running server: {@code load} and {@code query}. */
public final class HttpCommands {
  private HttpCommands() {}

  /**
   * {@code load --url URL --token TOKEN --source ID --file FILE [--connections 2] [--request-mb 4]
   * [--quiet true]}: sends the file and prints events/s.
   *
   * @param flags the flags
   * @param out where progress and the result go
   */
  public static void load(Map<String, String> flags, PrintStream out) throws Exception {
    Flags f = new Flags(flags);
    String url = f.required("url") + "/api/v2/sources/" + f.required("source") + "/events";
    Loader loader =
        new Loader(
            f.integer("connections", 2), f.integer("request-mb", Loader.DEFAULT_REQUEST_MB) << 20L);
    Loader.Result r =
        loader.load(
            url,
            f.required("token"),
            Path.of(f.required("file")),
            out,
            Boolean.parseBoolean(f.get("quiet", "false")));
    out.printf(
        Locale.ROOT,
        "loaded %,d events (%,.1f MB) in %.1f s: %,.0f events/s%n",
        r.events(),
        r.bytes() / 1e6,
        r.seconds(),
        r.eventsPerSecond());
  }

  /**
   * {@code query --url URL --token TOKEN --source ID [--runs 20] [--warmup 3]}: Q1–Q6 over HTTP,
   * with the client's time and the server's own timings.
   *
   * @param flags the flags
   * @param out where the table goes
   */
  public static void query(Map<String, String> flags, PrintStream out) throws Exception {
    Flags f = new Flags(flags);
    String url = f.required("url");
    String token = f.required("token");
    int runs = f.integer("runs", 20);
    int warmup = f.integer("warmup", 3);
    long end = Long.parseLong(f.get("end", Long.toString(BenchLogs.END)));
    out.println(
        "query  client median (min - max)          engine    read   write  server   client-engine"
            + "  runs     first      last");
    try (PlainHttp connection = new PlainHttp(URI.create(url))) {
      String only = f.get("only", null);
      for (BenchQueries.Query q : BenchQueries.all(f.required("source"), "-", end)) {
        if (only != null && !only.equalsIgnoreCase(q.name())) {
          continue;
        }
        Timings client = new Timings();
        Timings engine = new Timings();
        Timings read = new Timings();
        Timings write = new Timings();
        Timings server = new Timings();
        for (int i = 0; i < warmup + runs; i++) {
          ChartCall c = ChartCall.send(connection, token, q.chartBody());
          if (i >= warmup) { // the first runs warm the server and this client up
            client.add(c.clientMs());
            engine.add(c.engineMs());
            read.add(c.readMs());
            write.add(c.writeMs());
            server.add(c.serverMs());
          }
        }
        out.printf(
            Locale.ROOT,
            "%-5s  %9.2f ms (%8.2f - %8.2f)  %8.2f %7.2f %7.2f %7.2f  %13.2f  %4d  %8.2f  %8.2f%n",
            q.name(),
            client.median(),
            client.min(),
            client.max(),
            engine.median(),
            read.median(),
            write.median(),
            server.median(),
            client.median() - engine.median(),
            client.count(),
            client.first(),
            client.last());
      }
    }
    out.println(
        "(milliseconds; engine, read (the request body), write (the JSON answer) and server from"
            + " the Server-Timing header, medians; client-engine: what HTTP, JSON and the client"
            + " add to the engine; first and last: the client's time of the first and the last measured"
            + " run)");
  }
}
