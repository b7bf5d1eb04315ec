package dev.chartwell.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code tenants}: a quiet service's latency with and without a neighbour flooding the same server.
 * Starts a server in this JVM on a free loopback port, with two services. The quiet one, in rounds,
 * sends ten events and then a count chart query, timing each request; first alone, then while the
 * other floods: ingestion threads filling many sources (refused once over its memory share) and a
 * stream of queries on an external "ClickHouse" (a loopback server that never answers) that stop at
 * {@code --query-timeout}. Prints the quiet service's p50 and p99 for both phases and counts its
 * non-200 answers (printing each), which must be none.
 */
final class NeighbourFlood {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String ADMIN =
      "Basic " + Base64.getEncoder().encodeToString("ADMIN:adminsecret1".getBytes());
  private static final String ORG = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
  private static final long T = 1_778_371_200_000L;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private String base;
  private volatile String quietToken;

  private NeighbourFlood() {}

  /** {@code tenants [--rounds R] [--flooders N] [--http-threads N]}. */
  static void run(Map<String, String> flags, PrintStream out) throws Exception {
    int rounds = Integer.parseInt(flags.getOrDefault("rounds", "300"));
    int flooders = Integer.parseInt(flags.getOrDefault("flooders", "4"));
    String threads = flags.getOrDefault("http-threads", "16");
    Path dir = Files.createTempDirectory("chartwell-tenants");
    HttpServer clickHouse = neverAnswering();
    try (ChartwellServer server =
        ChartwellServer.start(
            ServerConfig.parse(
                new String[] {
                  "--port",
                  "0",
                  "--data-dir",
                  dir.toString(),
                  "--org-id",
                  ORG,
                  "--api-key",
                  "ADMIN:adminsecret1",
                  "--http-threads",
                  threads,
                  "--max-memory",
                  "64m",
                  "--query-timeout",
                  "2s"
                },
                Map.of()),
            new PrintStream(new ByteArrayOutputStream(), true))) {
      NeighbourFlood b = new NeighbourFlood();
      b.base = "http://127.0.0.1:" + server.port();
      String[] flood = b.service("Flood");
      String[] quiet = b.service("Quiet");
      String quietSource = b.source(quiet[1], "default", "quiet");
      b.quietToken = quiet[1];
      AtomicLong failures = new AtomicLong();
      b.measure(quiet[1], quietSource, rounds / 5, failures); // warm-up
      long[] alone = b.measure(quiet[1], quietSource, rounds, failures);
      List<String> many = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        many.add(b.source(flood[1], "default", "many" + i));
      }
      String connection =
          b.post(
                  flood[1],
                  "/api/v2/connections",
                  "{\"name\":\"slow\",\"host\":\"http://127.0.0.1:"
                      + clickHouse.getAddress().getPort()
                      + "/\",\"username\":\"u\"}")
              .get("data")
              .get("id")
              .asText();
      String external = b.source(flood[1], connection, "logs");
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong floodRequests = new AtomicLong();
      List<Thread> threadsList = new ArrayList<>();
      for (int t = 0; t < flooders; t++) {
        int seed = t;
        threadsList.add(
            new Thread(
                () -> {
                  Random r = new Random(seed);
                  while (!stop.get()) {
                    String s = many.get(r.nextInt(many.size()));
                    b.send(flood[1], "/api/v2/sources/" + s + "/events", events(r.nextInt(), 500));
                    floodRequests.incrementAndGet();
                  }
                }));
      }
      Semaphore slow = new Semaphore(16);
      threadsList.add(
          new Thread(
              () -> {
                while (!stop.get()) {
                  slow.acquireUninterruptibly();
                  b.sendAsync(flood[1], "/api/v2/charts/series", count(external), slow::release);
                }
              }));
      threadsList.forEach(Thread::start);
      Thread.sleep(2000); // the flood under way: memory over its share, slow queries in flight
      long[] flooded = b.measure(quiet[1], quietSource, rounds, failures);
      stop.set(true);
      for (Thread t : threadsList) {
        t.join();
      }
      out.printf(
          Locale.ROOT,
          "quiet service, %d rounds of (10 events, 1 count query), --http-threads %s:%n",
          rounds,
          threads);
      out.println(line("alone", alone));
      out.println(line("flooded", flooded));
      out.printf(
          Locale.ROOT,
          "flood: %d ingestion threads (%,d requests), 16 slow external queries asked at once"
              + " (--max-queries-per-service of them run); quiet service's non-200 answers: %d%n",
          flooders,
          floodRequests.get(),
          failures.get());
    } finally {
      clickHouse.stop(0);
    }
  }

  private static String line(String what, long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return String.format(
        Locale.ROOT,
        "%-8s requests p50 %6.2f ms  p99 %7.2f ms  max %7.2f ms",
        what,
        s[s.length / 2] / 1e6,
        s[(int) Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] / 1e6,
        s[s.length - 1] / 1e6);
  }

  /** Rounds of the quiet service; each request's time (two per round). */
  private long[] measure(String token, String source, int rounds, AtomicLong failures) {
    long[] nanos = new long[rounds * 2];
    for (int r = 0; r < rounds; r++) {
      long start = System.nanoTime();
      int a = send(token, "/api/v2/sources/" + source + "/events", events(r, 10));
      long mid = System.nanoTime();
      int q = send(token, "/api/v2/charts/series", count(source));
      nanos[2 * r] = mid - start;
      nanos[2 * r + 1] = System.nanoTime() - mid;
      failures.addAndGet((a == 200 ? 0 : 1) + (q == 200 ? 0 : 1));
    }
    return nanos;
  }

  private static String events(int seed, int n) {
    Random random = new Random(seed);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("{\"Timestamp\":").append(T + random.nextInt(3_600_000)).append(",\"Body\":\"");
      for (int c = 0; c < 150; c++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
      sb.append("\"}\n");
    }
    return sb.toString();
  }

  private static String count(String source) {
    return "{\"startTime\":"
        + (T - 3_600_000)
        + ",\"endTime\":"
        + (T + 7_200_000)
        + ",\"granularity\":\"5m\",\"series\":[{\"sourceId\":\""
        + source
        + "\",\"aggFn\":\"count\"}]}";
  }

  private String[] service(String name) throws Exception {
    HttpResponse<String> r =
        request(
            "POST",
            "/v1/organizations/" + ORG + "/services",
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
            ADMIN);
    JsonNode created = MAPPER.readTree(r.body()).get("result");
    String id = created.get("service").get("id").asText();
    while (!MAPPER
        .readTree(
            request("GET", "/v1/organizations/" + ORG + "/services/" + id, null, ADMIN).body())
        .get("result")
        .get("state")
        .asText()
        .equals("running")) {
      Thread.sleep(20);
    }
    return new String[] {id, created.get("password").asText()};
  }

  private String source(String token, String connection, String table) throws Exception {
    return post(
            token,
            "/api/v2/sources",
            "{\"name\":\""
                + table
                + "\",\"kind\":\"log\",\"connection\":\""
                + connection
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\""
                + table
                + "\"},\"timestampValueExpression\":\"Timestamp\"}")
        .get("data")
        .get("id")
        .asText();
  }

  private JsonNode post(String token, String path, String body) throws Exception {
    HttpResponse<String> r = request("POST", path, body, "Bearer " + token);
    if (r.statusCode() != 200) {
      throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
    }
    return MAPPER.readTree(r.body());
  }

  /** Sends and returns the status; a failure to send counts as status 0. */
  private int send(String token, String path, String body) {
    try {
      HttpResponse<String> r = request("POST", path, body, "Bearer " + token);
      if (r.statusCode() != 200 && token.equals(quietToken)) {
        System.out.println(
            "quiet service: " + path + " answered " + r.statusCode() + " " + r.body());
      }
      return r.statusCode();
    } catch (Exception e) {
      return 0;
    }
  }

  private void sendAsync(String token, String path, String body, Runnable done) {
    http.sendAsync(
            build("POST", path, body, "Bearer " + token), HttpResponse.BodyHandlers.ofString())
        .whenComplete((r, t) -> done.run());
  }

  private HttpResponse<String> request(String method, String path, String body, String auth)
      throws Exception {
    return http.send(build(method, path, body, auth), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest build(String method, String path, String body, String auth) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(60))
        .header("Authorization", auth)
        .header(
            "Content-Type", path.endsWith("/events") ? "application/x-ndjson" : "application/json")
        .method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .build();
  }

  /** A "ClickHouse" on loopback that describes any table and never answers a query. */
  private static HttpServer neverAnswering() throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    s.setExecutor(
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r);
              t.setDaemon(true);
              return t;
            }));
    CountDownLatch never = new CountDownLatch(1);
    byte[] describe =
        "Timestamp\tDateTime64(9)\t\t\t\t\t\nBody\tString\t\t\t\t\t\n"
            .getBytes(StandardCharsets.UTF_8);
    s.createContext(
        "/",
        x -> {
          String sql = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          if (sql.startsWith("DESCRIBE")) {
            x.sendResponseHeaders(200, describe.length);
            x.getResponseBody().write(describe);
            x.close();
            return;
          }
          try {
            never.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    s.start();
    return s;
  }
}
