package dev.chartwell.server.shippers;

import dev.chartwell.server.shippers.logproto.Push;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.SplittableRandom;
import org.xerial.snappy.Snappy;

/**
 * Not a test: measures the server CPU per event (process CPU, sender included, alike for all three)
 * of our NDJSON route, Elasticsearch {@code _bulk} and Loki protobuf push, on the same
 * bench-logs-shaped events (10,000 per request), in turns, four rounds; BENCHMARKS.md has the
 * figures and the command. Argument: requests per route and round.
 */
public final class ShipperCpuMeasure {
  private ShipperCpuMeasure() {}

  static final String[] SERVICES = {
    "api", "web", "auth", "cart", "search", "pay", "mail", "img", "geo", "ads"
  };
  static final String[] SEV = {"debug", "info", "warn", "error"};
  static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};

  /**
   * @param a requests per route and round
   */
  public static void main(String[] a) throws Exception {
    int perRequest = 10_000, requests = Integer.parseInt(a[0]);
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (ShipperServer s = new ShipperServer(Files.createTempDirectory("bulkcpu"))) {
      s.send("PUT", "/elasticsearch/bench_nd", null, "Authorization", s.bearer());
      String src = s.sources().get("bench_nd").get("id").textValue();
      SplittableRandom r = new SplittableRandom(1);
      byte[][] nd = new byte[requests][], bulk = new byte[requests][], loki = new byte[requests][];
      long t = 1_767_000_000_000L;
      for (int q = 0; q < requests; q++) {
        StringBuilder n = new StringBuilder(), b = new StringBuilder();
        Push.PushRequest.Builder pr = Push.PushRequest.newBuilder();
        java.util.Map<String, Push.Stream.Builder> streams = new java.util.HashMap<>();
        for (int i = 0; i < perRequest; i++) {
          t += 7;
          String svc = SERVICES[r.nextInt(10)], sev = SEV[r.nextInt(4)];
          String doc =
              "{\"@timestamp\":\""
                  + java.time.Instant.ofEpochMilli(t)
                  + "\",\"ServiceName\":\""
                  + svc
                  + "\",\"SeverityText\":\""
                  + sev
                  + "\",\"host\":\"host-"
                  + r.nextInt(1000)
                  + "\",\"status\":"
                  + (200 + r.nextInt(4))
                  + ",\"Duration\":"
                  + Math.exp(r.nextGaussian() * 1.2 + 3.0)
                  + ",\"TraceId\":\""
                  + Long.toHexString(r.nextLong())
                  + Long.toHexString(r.nextLong())
                  + "\",\"LogAttributes\":{\"http\":{\"method\":\""
                  + METHODS[r.nextInt(5)]
                  + "\"}},\"message\":\"GET /api/v1/items/"
                  + r.nextInt(100000)
                  + " took "
                  + r.nextInt(1000)
                  + " ms\"}";
          n.append(doc).append('\n');
          b.append("{\"create\":{}}\n").append(doc).append('\n');
          Push.Stream.Builder sb =
              streams.computeIfAbsent(
                  svc + sev,
                  k ->
                      pr.addStreamsBuilder()
                          .setLabels("{service_name=\"" + svc + "\", level=\"" + sev + "\"}"));
          long ns = t * 1_000_000L;
          sb.addEntriesBuilder()
              .setTimestamp(
                  Push.Timestamp.newBuilder()
                      .setSeconds(ns / 1_000_000_000L)
                      .setNanos((int) (ns % 1_000_000_000L)))
              .setLine(
                  "GET /api/v1/items/" + r.nextInt(100000) + " took " + r.nextInt(1000) + " ms")
              .addStructuredMetadata(
                  Push.LabelPair.newBuilder().setName("host").setValue("host-" + r.nextInt(1000)))
              .addStructuredMetadata(
                  Push.LabelPair.newBuilder()
                      .setName("trace_id")
                      .setValue(Long.toHexString(r.nextLong())));
        }
        nd[q] = n.toString().getBytes(StandardCharsets.UTF_8);
        bulk[q] = b.toString().getBytes(StandardCharsets.UTF_8);
        loki[q] = Snappy.compress(pr.build().toByteArray());
      }
      for (int round = 0; round < 4; round++) {
        for (String route : new String[] {"ndjson", "bulk", "loki"}) {
          long c0 = os.getProcessCpuTime(), w0 = System.nanoTime();
          for (int q = 0; q < requests; q++) {
            HttpResponse<byte[]> resp =
                switch (route) {
                  case "ndjson" ->
                      s.send(
                          "POST",
                          "/api/v2/sources/" + src + "/events",
                          nd[q],
                          "Authorization",
                          s.bearer(),
                          "Content-Type",
                          "application/x-ndjson");
                  case "bulk" ->
                      s.send(
                          "POST",
                          "/elasticsearch/bench_bulk/_bulk",
                          bulk[q],
                          "Authorization",
                          s.bearer(),
                          "Content-Type",
                          "application/x-ndjson");
                  default ->
                      s.send(
                          "POST",
                          "/loki/api/v1/push",
                          loki[q],
                          "Authorization",
                          s.bearer(),
                          "Content-Type",
                          "application/x-protobuf");
                };
            if (resp.statusCode() / 100 != 2)
              throw new IllegalStateException(
                  route + " " + resp.statusCode() + new String(resp.body()));
          }
          long events = (long) requests * perRequest;
          System.out.printf(
              "round %d %-6s %.2f us CPU/event, %.0f events/s%n",
              round,
              route,
              (os.getProcessCpuTime() - c0) / 1000.0 / events,
              events / ((System.nanoTime() - w0) / 1e9));
        }
      }
    }
  }
}
