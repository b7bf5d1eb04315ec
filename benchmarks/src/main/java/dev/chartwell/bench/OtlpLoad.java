package dev.chartwell.bench;

import dev.chartwell.otlp.Signal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPOutputStream;

/**
 * {@code otlp --url URL --token TOKEN [--requests N] [--warmup N] [--records N] [--clients N]
 * [--gzip true]}: OTLP/HTTP ingestion speed of a running server, in records per second, for each
 * signal in protobuf and in JSON. The requests (SDK-like batches, see {@link OtlpRequests}) are
 * built and compressed before the clock starts; {@code --warmup} other requests go first,
 * unmeasured; then {@code --clients} connections send the requests at once, and the time runs until
 * the last answer (every one must be a 200 without rejected records).
 */
final class OtlpLoad {
  private OtlpLoad() {}

  static void run(Map<String, String> flags) throws Exception {
    String url = flags.get("url");
    String token = flags.get("token");
    if (url == null || token == null) {
      throw new IllegalArgumentException("--url and --token are required");
    }
    int requests = Integer.parseInt(flags.getOrDefault("requests", "50"));
    int warmup = Integer.parseInt(flags.getOrDefault("warmup", "10"));
    int records = Integer.parseInt(flags.getOrDefault("records", "2000"));
    int clients = Integer.parseInt(flags.getOrDefault("clients", "2"));
    boolean gzip = Boolean.parseBoolean(flags.getOrDefault("gzip", "true"));
    HttpClient client = HttpClient.newHttpClient();
    long t0 = (System.currentTimeMillis() - 3_600_000L) * 1_000_000L;
    System.out.printf(
        Locale.ROOT,
        "%d requests of %,d records per signal and encoding, %d clients, gzip %s%n",
        requests,
        records,
        clients,
        gzip);
    for (Signal signal : Signal.values()) {
      for (boolean json : new boolean[] {false, true}) {
        List<byte[]> bodies = new ArrayList<>();
        List<byte[]> warm = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < warmup + requests; i++) {
          var m = OtlpRequests.request(signal, records, i, t0 + i * records * 1_000_000L);
          byte[] body =
              json ? OtlpRequests.json(m).getBytes(StandardCharsets.UTF_8) : m.toByteArray();
          if (i < warmup) {
            warm.add(gzip ? gzip(body) : body);
          } else {
            bytes += body.length;
            bodies.add(gzip ? gzip(body) : body);
          }
        }
        send(client, url + signal.path(), token, json, gzip, warm, clients);
        long start = System.nanoTime();
        send(client, url + signal.path(), token, json, gzip, bodies, clients);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "%-8s %-8s %,10.0f records/s  (%,d records, %.1f MB decoded, %.2f s)%n",
            signal.name().toLowerCase(Locale.ROOT),
            json ? "json" : "protobuf",
            (double) requests * records / seconds,
            (long) requests * records,
            bytes / 1e6,
            seconds);
      }
    }
  }

  /** Sends the bodies over {@code clients} connections at once. */
  private static void send(
      HttpClient client,
      String url,
      String token,
      boolean json,
      boolean gzip,
      List<byte[]> bodies,
      int clients)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> sent = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int me = c;
        sent.add(
            pool.submit(
                () -> {
                  for (int i = me; i < bodies.size(); i += clients) {
                    HttpRequest.Builder b =
                        HttpRequest.newBuilder(URI.create(url))
                            .header("Authorization", "Bearer " + token)
                            .header(
                                "Content-Type",
                                json ? "application/json" : "application/x-protobuf")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i)));
                    if (gzip) {
                      b.header("Content-Encoding", "gzip");
                    }
                    HttpResponse<byte[]> r =
                        client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                    boolean clean = json ? new String(r.body()).equals("{}") : r.body().length == 0;
                    if (r.statusCode() != 200 || !clean) {
                      throw new IllegalStateException(
                          "OTLP request failed: " + r.statusCode() + " " + new String(r.body()));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : sent) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4);
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(body);
    }
    return out.toByteArray();
  }
}
