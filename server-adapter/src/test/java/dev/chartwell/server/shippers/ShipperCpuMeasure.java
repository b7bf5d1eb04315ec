package dev.chartwell.server.shippers;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._helpers.bulk.BulkIngester;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import dev.chartwell.engine.Source;
import dev.chartwell.server.shippers.logproto.Push;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;
import org.xerial.snappy.Snappy;

/**
 * Not a test: measures the server's CPU per event of each way in, on the same bench-logs-shaped
 * events (10,000 per request, ISO-8601 {@code @timestamp} as shippers write it): our NDJSON route,
 * Elasticsearch {@code _bulk} sent raw and through the official Java client's {@code BulkIngester},
 * and Loki push in protobuf and JSON. The server runs in this process; its CPU is the process's CPU
 * less that of the sending threads (this one, the JDK HTTP client's and the Elasticsearch
 * client's), so garbage collection and compilation count as the server's: the {@code bulk-client}
 * figure thus carries the collection of the client's own serialization garbage (its server work is
 * that of {@code bulk}, the same bodies). Each round ends by sealing what it wrote, so that every
 * route pays for its own segments. Routes take turns; the figure is the median over the rounds
 * after the first two (warm-up). BENCHMARKS.md has the figures and the command. Arguments: requests
 * per route and round, rounds (default 7), routes (default all, comma-separated). With {@code
 * -Dchartwell.shipper.child=true} the server runs in a child JVM and its figure is that process's
 * whole CPU ({@link ChildServer}): the clean comparison for the Java client's route; with {@code
 * -Dchartwell.shipper.nagle=true} that client's connections leave Nagle's algorithm on, so that its
 * small chunks share TCP packets, and with {@code -Dchartwell.shipper.gzip=true} it compresses its
 * bodies ({@code setCompressionEnabled}), which it then writes in large pieces. In the child, where
 * a table seals once per 262,144 of its events rather than once per round, the mean over the rounds
 * after warm-up is printed too (each route's seals shared out over its rounds); each round also
 * splits the CPU by kind of thread (request handling, sealing, compilation, collection); {@code
 * -Dchartwell.shipper.childJvm="..."} adds JVM flags to the child (e.g. for {@code perf}), and
 * {@code -Dchartwell.shipper.chunkedBuffered=true} sends the {@code bulk-chunked} bodies in large
 * writes, so that the cost of HTTP chunks is seen without that of their packets.
 */
public final class ShipperCpuMeasure {
  private ShipperCpuMeasure() {}

  static final int PER_REQUEST = 10_000;
  static final String[] SERVICES = {
    "api", "web", "auth", "cart", "search", "pay", "mail", "img", "geo", "ads"
  };
  static final String[] SEV = {"debug", "info", "warn", "error"};
  static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  static final String[] ROUTES = {
    "ndjson", "bulk", "bulk-client", "bulk-chunked", "loki-proto", "loki-json"
  };

  /** Names of the sending threads, whose CPU is not the server's. */
  private static boolean sender(String thread) {
    return thread.equals("main")
        || thread.startsWith("HttpClient-")
        || thread.startsWith("I/O dispatcher")
        || thread.startsWith("elasticsearch-rest-client")
        || thread.startsWith("bulk-ingester");
  }

  /**
   * @param a requests per route and round; rounds (default 7); routes (default all)
   */
  public static void main(String[] a) throws Exception {
    int requests = Integer.parseInt(a[0]);
    int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 7;
    String[] routes = a.length > 2 ? a[2].split(",") : ROUTES;
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ChildServer child = CHILD ? ChildServer.start(Files.createTempDirectory("bulkcpu")) : null;
    try (ShipperServer s =
            child != null
                ? ShipperServer.of(child.port, child)
                : new ShipperServer(Files.createTempDirectory("bulkcpu"));
        RestClient rest =
            RestClient.builder(HttpHost.create(s.url()))
                .setPathPrefix("/elasticsearch")
                .setHttpClientConfigCallback(
                    b ->
                        Boolean.getBoolean("chartwell.shipper.nagle")
                            ? b.setDefaultIOReactorConfig(
                                org.apache.http.impl.nio.reactor.IOReactorConfig.custom()
                                    .setTcpNoDelay(false)
                                    .build())
                            : b)
                .setCompressionEnabled(Boolean.getBoolean("chartwell.shipper.gzip"))
                .setDefaultHeaders(
                    new org.apache.http.Header[] {new BasicHeader("Authorization", s.apiKey())})
                .build()) {
      ElasticsearchClient es =
          new ElasticsearchClient(new RestClientTransport(rest, new JacksonJsonpMapper()));
      s.send("PUT", "/elasticsearch/bench_nd", null, "Authorization", s.bearer());
      String src = s.sources().get("bench_nd").get("id").textValue();
      String warehouse = child != null ? null : s.server.catalog().warehouseOf(src).orElseThrow();
      SplittableRandom r = new SplittableRandom(1);
      byte[][] nd = new byte[requests][];
      byte[][] bulk = new byte[requests][];
      byte[][] lokiProto = new byte[requests][];
      byte[][] lokiJson = new byte[requests][];
      List<List<Map<String, Object>>> docs = new ArrayList<>();
      long t = 1_767_000_000_000L;
      for (int q = 0; q < requests; q++) {
        StringBuilder n = new StringBuilder();
        StringBuilder b = new StringBuilder();
        Push.PushRequest.Builder pr = Push.PushRequest.newBuilder();
        Map<String, Push.Stream.Builder> streams = new LinkedHashMap<>();
        List<Map<String, Object>> maps = new ArrayList<>();
        for (int i = 0; i < PER_REQUEST; i++) {
          t += 7;
          String svc = SERVICES[r.nextInt(10)];
          String sev = SEV[r.nextInt(4)];
          String host = "host-" + r.nextInt(1000);
          String trace = Long.toHexString(r.nextLong()) + Long.toHexString(r.nextLong());
          String message = "GET /api/v1/items/" + r.nextInt(100000) + " took " + r.nextInt(1000);
          Map<String, Object> doc = new LinkedHashMap<>();
          doc.put("@timestamp", java.time.Instant.ofEpochMilli(t).toString());
          doc.put("ServiceName", svc);
          doc.put("SeverityText", sev);
          doc.put("host", host);
          doc.put("status", 200 + r.nextInt(4));
          doc.put("Duration", Math.exp(r.nextGaussian() * 1.2 + 3.0));
          doc.put("TraceId", trace);
          doc.put("LogAttributes", Map.of("http", Map.of("method", METHODS[r.nextInt(5)])));
          doc.put("message", message);
          maps.add(doc);
          String json = ShipperServer.MAPPER.writeValueAsString(doc);
          n.append(json).append('\n');
          b.append("{\"create\":{}}\n").append(json).append('\n');
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
              .setLine(message)
              .addStructuredMetadata(Push.LabelPair.newBuilder().setName("host").setValue(host))
              .addStructuredMetadata(
                  Push.LabelPair.newBuilder().setName("trace_id").setValue(trace));
        }
        docs.add(maps);
        nd[q] = n.toString().getBytes(StandardCharsets.UTF_8);
        bulk[q] = b.toString().getBytes(StandardCharsets.UTF_8);
        Push.PushRequest push = pr.build();
        lokiProto[q] = Snappy.compress(push.toByteArray());
        lokiJson[q] = lokiJson(push);
      }
      Map<String, List<Double>> server = new LinkedHashMap<>();
      Map<String, List<Double>> process = new LinkedHashMap<>();
      // child: every round's figure, so that seals (one per 262,144 events of a table, not one per
      // round) are shared out over the rounds after warm-up instead of landing in some rounds
      Map<String, List<Double>> totals = new LinkedHashMap<>();
      Map<String, List<Double>> kernelTotals = new LinkedHashMap<>();
      // the request-handling threads alone: steadier than the process, whose seals, collections
      // and compilations land in some rounds and not others
      Map<String, List<Double>> httpTotals = new LinkedHashMap<>();
      TreeSet<String> senders = new TreeSet<>();
      for (int round = 0; round < rounds; round++) {
        for (String route : routes) {
          Map<Long, Long> before = threadCpu(threads);
          long c0 = child != null ? child.cpuNanos() : os.getProcessCpuTime();
          Map<String, Long> kinds0 = child != null ? child.cpuByKind() : Map.of();
          long k0 = child != null ? child.systemNanos() : 0;
          long w0 = System.nanoTime();
          String table =
              switch (route) {
                case "ndjson" -> {
                  for (byte[] body : nd) {
                    ok(
                        route,
                        s.send(
                            "POST",
                            "/api/v2/sources/" + src + "/events",
                            body,
                            "Authorization",
                            s.bearer(),
                            "Content-Type",
                            "application/x-ndjson"));
                  }
                  yield "bench_nd";
                }
                case "bulk" -> {
                  for (byte[] body : bulk) {
                    ok(
                        route,
                        s.send(
                            "POST",
                            "/elasticsearch/bench_bulk/_bulk",
                            body,
                            "Authorization",
                            s.bearer(),
                            "Content-Type",
                            "application/x-ndjson"));
                  }
                  yield "bench_bulk";
                }
                case "bulk-client" -> {
                  ingest(es, docs);
                  yield "bench_client";
                }
                case "bulk-chunked" -> {
                  for (byte[] body : bulk) {
                    sendChunked(s, "/elasticsearch/bench_chunked/_bulk", body);
                  }
                  yield "bench_chunked";
                }
                case "loki-proto" -> {
                  for (byte[] body : lokiProto) {
                    ok(
                        route,
                        s.send(
                            "POST",
                            "/loki/api/v1/push",
                            body,
                            "Authorization",
                            s.bearer(),
                            "Content-Type",
                            "application/x-protobuf"));
                  }
                  yield LokiRoutes.TABLE;
                }
                default -> {
                  for (byte[] body : lokiJson) {
                    ok(
                        route,
                        s.send(
                            "POST",
                            "/loki/api/v1/push",
                            body,
                            "Authorization",
                            s.bearer(),
                            "Content-Type",
                            "application/json",
                            LokiRoutes.TENANT, // a table of its own, which seals its own events
                            "json"));
                  }
                  yield LokiRoutes.tenantTable(LokiRoutes.TABLE, "json");
                }
              };
          long senderNanos = 0;
          if (child != null) {
            double events = (double) requests * PER_REQUEST;
            double serverUs = (child.cpuNanos() - c0) / 1000.0 / events;
            double kernelUs = (child.systemNanos() - k0) / 1000.0 / events;
            StringBuilder kinds = new StringBuilder();
            double[] httpUs = {0};
            child
                .cpuByKind()
                .forEach(
                    (kind, nanos) -> {
                      double us = (nanos - kinds0.getOrDefault(kind, 0L)) / 1000.0 / events;
                      kinds.append(String.format(Locale.ROOT, " %s %.2f", kind, us));
                      if (kind.equals("http")) {
                        httpUs[0] = us;
                      }
                    });
            System.out.printf(
                Locale.ROOT,
                "round %d %-12s server process %.2f us CPU/event (kernel %.2f;%s), %.0f events/s%n",
                round,
                route,
                serverUs,
                kernelUs,
                kinds,
                events / ((System.nanoTime() - w0) / 1e9));
            if (round >= 2) {
              server.computeIfAbsent(route, k -> new ArrayList<>()).add(serverUs);
              process.computeIfAbsent(route, k -> new ArrayList<>()).add(serverUs);
              totals.computeIfAbsent(route, k -> new ArrayList<>()).add(serverUs);
              kernelTotals.computeIfAbsent(route, k -> new ArrayList<>()).add(kernelUs);
              httpTotals.computeIfAbsent(route, k -> new ArrayList<>()).add(httpUs[0]);
            }
            continue;
          }
          Source written =
              s.server.catalog().engineTable(warehouse, "default", table).orElseThrow();
          written.seal();
          long processNanos = os.getProcessCpuTime() - c0;
          for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && sender(info.getThreadName())) {
              long cpu = threads.getThreadCpuTime(info.getThreadId());
              if (cpu > 0) {
                senderNanos += cpu - before.getOrDefault(info.getThreadId(), 0L);
                senders.add(info.getThreadName().replaceAll("\\d+", "N"));
              }
            }
          }
          double events = (double) requests * PER_REQUEST;
          double serverUs = (processNanos - senderNanos) / 1000.0 / events;
          double processUs = processNanos / 1000.0 / events;
          System.out.printf(
              Locale.ROOT,
              "round %d %-11s server %.2f us CPU/event (process %.2f), %.0f events/s%n",
              round,
              route,
              serverUs,
              processUs,
              events / ((System.nanoTime() - w0) / 1e9));
          if (round >= 2) {
            server.computeIfAbsent(route, k -> new ArrayList<>()).add(serverUs);
            process.computeIfAbsent(route, k -> new ArrayList<>()).add(processUs);
          }
        }
      }
      System.out.println("sending threads: " + senders);
      for (String route : routes) {
        System.out.printf(
            Locale.ROOT,
            "median %-11s server %.2f us CPU/event (process %.2f)%n",
            route,
            median(server.get(route)),
            median(process.get(route)));
      }
      for (String route : totals.keySet()) {
        System.out.printf(
            Locale.ROOT,
            "mean of rounds 2+ %-12s server process %.2f us CPU/event (kernel %.2f),"
                + " request handling %.2f%n",
            route,
            mean(totals.get(route)),
            mean(kernelTotals.get(route)),
            mean(httpTotals.get(route)));
      }
    }
  }

  /** With {@code -Dchartwell.shipper.child=true} the server runs in a child JVM of its own. */
  private static final boolean CHILD = Boolean.getBoolean("chartwell.shipper.child");

  /**
   * Sends a {@code _bulk} body as the Java client does on the wire: every action line, document and
   * newline an HTTP chunk of its own, each written (and sent, {@code TCP_NODELAY}) at once.
   */
  private static void sendChunked(ShipperServer s, String path, byte[] body) throws Exception {
    java.net.URI url = java.net.URI.create(s.url());
    try (java.net.Socket socket = new java.net.Socket(url.getHost(), url.getPort())) {
      socket.setTcpNoDelay(true);
      java.io.OutputStream out =
          Boolean.getBoolean("chartwell.shipper.chunkedBuffered")
              ? new java.io.BufferedOutputStream(socket.getOutputStream(), 1 << 16)
              : socket.getOutputStream();
      out.write(
          ("POST "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                  + s.bearer()
                  + "\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n"
                  + "Connection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      int line = 0;
      for (int from = 0; from < body.length; ) {
        int nl = from;
        while (body[nl] != '\n') {
          nl++;
        }
        // the action line with its newline; the document, then its newline apart
        boolean action = line++ % 2 == 0;
        chunk(out, body, from, action ? nl + 1 : nl);
        if (!action) {
          chunk(out, body, nl, nl + 1);
        }
        from = nl + 1;
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      var reply = dev.chartwell.server.http.RawHttp.read(socket.getInputStream());
      if (reply.status() != 200 || reply.body().contains("\"errors\":true")) {
        throw new IllegalStateException("bulk-chunked " + reply.status() + " " + reply.body());
      }
    }
  }

  private static void chunk(java.io.OutputStream out, byte[] b, int from, int to)
      throws java.io.IOException {
    out.write((Integer.toHexString(to - from) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(b, from, to - from);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void ok(String route, HttpResponse<byte[]> resp) {
    if (resp.statusCode() / 100 != 2) {
      throw new IllegalStateException(route + " " + resp.statusCode() + new String(resp.body()));
    }
  }

  /** Every request's documents through a {@code BulkIngester}, 10,000 a request, all answered. */
  private static void ingest(ElasticsearchClient es, List<List<Map<String, Object>>> docs)
      throws Exception {
    AtomicLong failed = new AtomicLong();
    try (BulkIngester<Void> ingester =
        BulkIngester.of(
            b ->
                b.client(es)
                    .maxOperations(PER_REQUEST)
                    .maxSize(64L << 20)
                    .maxConcurrentRequests(1)
                    .flushInterval(60, TimeUnit.SECONDS)
                    .listener(
                        new co.elastic.clients.elasticsearch._helpers.bulk.BulkListener<Void>() {
                          @Override
                          public void beforeBulk(
                              long id,
                              co.elastic.clients.elasticsearch.core.BulkRequest request,
                              List<Void> contexts) {}

                          @Override
                          public void afterBulk(
                              long id,
                              co.elastic.clients.elasticsearch.core.BulkRequest request,
                              List<Void> contexts,
                              co.elastic.clients.elasticsearch.core.BulkResponse response) {
                            if (response.errors()) {
                              failed.incrementAndGet();
                            }
                          }

                          @Override
                          public void afterBulk(
                              long id,
                              co.elastic.clients.elasticsearch.core.BulkRequest request,
                              List<Void> contexts,
                              Throwable failure) {
                            failed.incrementAndGet();
                          }
                        }))) {
      for (List<Map<String, Object>> request : docs) {
        for (Map<String, Object> doc : request) {
          ingester.add(op -> op.create(c -> c.index("bench_client").document(doc)));
        }
      }
    }
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " bulk requests of the Java client failed");
    }
  }

  /** The same push in Loki's JSON encoding. */
  private static byte[] lokiJson(Push.PushRequest push) throws Exception {
    var root = ShipperServer.MAPPER.createObjectNode();
    var streams = root.putArray("streams");
    for (Push.Stream st : push.getStreamsList()) {
      var o = streams.addObject();
      var labels = o.putObject("stream");
      LokiLabels.parse(st.getLabels()).forEach(labels::put);
      var values = o.putArray("values");
      for (Push.Entry e : st.getEntriesList()) {
        var v = values.addArray();
        v.add(
            Long.toString(
                e.getTimestamp().getSeconds() * 1_000_000_000L + e.getTimestamp().getNanos()));
        v.add(e.getLine());
        var meta = v.addObject();
        for (Push.LabelPair p : e.getStructuredMetadataList()) {
          meta.put(p.getName(), p.getValue());
        }
      }
    }
    return ShipperServer.MAPPER.writeValueAsBytes(root);
  }

  private static Map<Long, Long> threadCpu(ThreadMXBean threads) {
    Map<Long, Long> out = new HashMap<>();
    for (long id : threads.getAllThreadIds()) {
      out.put(id, threads.getThreadCpuTime(id));
    }
    return out;
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
