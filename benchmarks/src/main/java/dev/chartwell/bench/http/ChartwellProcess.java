package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.chartwell.bench.DiskUse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A Chartwell server started from its executable jar for one run: a temporary data directory,
 * {@code --fsync request}, any free port on 127.0.0.1, a bootstrap admin key; then a service, a
 * table declared for {@code bench-logs} and a source reading it, all through the HTTP APIs.
 */
final class ChartwellProcess implements AutoCloseable {
  /** The table the harness declares and loads. */
  static final String TABLE = "bench_logs";

  private static final String KEY_ID = "BENCH";

  private final Process process;
  private final Thread stopAtExit;
  private final Path dataDir;
  private final String url;
  private final String org;
  private final String admin;
  private final Http http;
  private final List<String> output = new ArrayList<>();
  private String token;
  private String sourceId;
  private String tableId;
  private String serviceId;

  private ChartwellProcess(
      Process process, Path dataDir, String url, String org, String admin, Http http) {
    this.process = process;
    this.stopAtExit = new Thread(process::destroy, "stop-chartwell");
    Runtime.getRuntime().addShutdownHook(stopAtExit); // Ctrl-C must not leave it running
    this.dataDir = dataDir;
    this.url = url;
    this.org = org;
    this.admin = admin;
    this.http = http;
  }

  /**
   * @return the server's process id
   */
  long pid() {
    return process.pid();
  }

  /**
   * Starts the server and waits for its banner.
   *
   * @param jar {@code chartwell-server.jar}
   * @param jvmOptions options for its JVM (heap, collector)
   * @param dataDir an empty folder for its data
   * @param http the client
   * @return the running server
   * @throws IllegalStateException when it exits before listening (with what it printed)
   */
  static ChartwellProcess start(Path jar, List<String> jvmOptions, Path dataDir, Http http)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar + " does not exist: build it with mvn -B -DskipTests package, or give --server-jar");
    }
    String org = UUID.randomUUID().toString();
    String secret = UUID.randomUUID().toString().replace("-", "");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data-dir",
            dataDir.toString(),
            "--fsync",
            "request",
            "--org-id",
            org,
            "--api-key",
            KEY_ID + ":" + secret));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = out.readLine()) != null) {
      seen.add(line);
      if (line.startsWith("Chartwell listening on ")) {
        ChartwellProcess c =
            new ChartwellProcess(
                p,
                dataDir,
                line.substring("Chartwell listening on ".length()).trim(),
                org,
                Http.basic(KEY_ID, secret),
                http);
        c.output.addAll(seen);
        Thread drain = new Thread(() -> c.drain(out), "chartwell-output");
        drain.setDaemon(true);
        drain.start();
        return c;
      }
    }
    throw new IllegalStateException(
        "the Chartwell server exited before listening:\n" + String.join("\n", seen));
  }

  /**
   * Waits until the server's start-up warm-up has ended (its {@code warm-up done} or {@code warm-up
   * stopped} line), so that it shares the machine with no measured load, and prints that line.
   *
   * @param max the longest wait
   * @throws InterruptedException when interrupted
   * @throws IllegalStateException when the server printed neither line in time
   */
  void awaitWarmUp(java.time.Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      synchronized (output) {
        for (String line : output) {
          if (line.startsWith("chartwell: warm-up done")
              || line.startsWith("chartwell: warm-up stopped")) {
            System.out.println(line);
            return;
          }
        }
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("the Chartwell server exited during its warm-up");
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("the Chartwell server's warm-up did not end within " + max);
  }

  private void drain(BufferedReader out) {
    try {
      String line;
      while ((line = out.readLine()) != null) {
        synchronized (output) {
          output.add(line);
        }
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  /**
   * @return the base URL, {@code http://127.0.0.1:<port>}
   */
  String url() {
    return url;
  }

  /**
   * @return the service token (after {@link #setUp})
   */
  String token() {
    return token;
  }

  /**
   * @return the source id (after {@link #setUp})
   */
  String sourceId() {
    return sourceId;
  }

  /**
   * Creates a service and waits until it runs.
   *
   * @param name its name
   * @return its id and its token
   */
  String[] service(String name) throws IOException, InterruptedException {
    String services = url + "/v1/organizations/" + org + "/services";
    JsonNode created =
        http.json(
            "POST",
            services,
            admin,
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    String serviceId = created.path("result").path("service").path("id").asText();
    for (int i = 0; ; i++) {
      String state =
          http.json("GET", services + "/" + serviceId, admin, null)
              .path("result")
              .path("state")
              .asText();
      if (state.equals("running")) {
        break;
      }
      if (i == 600) {
        throw new IllegalStateException("the service is still " + state + " after a minute");
      }
      Thread.sleep(100);
    }
    return new String[] {serviceId, created.path("result").path("password").asText()};
  }

  /**
   * Creates a service, waits until it runs, declares the table (the implicit column, {@code status}
   * a long, {@code Duration} a double) and a log source reading it.
   *
   * @param implicitColumn the column whose words are indexed for text search ({@code Body}); one
   *     the events lack leaves the segments without a token index
   */
  void setUp(String implicitColumn) throws IOException, InterruptedException {
    String[] service = service("bench");
    serviceId = service[0];
    token = service[1];
    tableId = declare(TABLE, implicitColumn);
    sourceId = source("bench-logs", TABLE);
  }

  /**
   * Declares a second table like the bench one, and a log source reading it, in the service of
   * {@link #setUp}: somewhere to load events that warm the server's code up before a measured load.
   *
   * @param implicitColumn as for {@link #setUp}
   * @return the source's id
   */
  String warmUpSource(String implicitColumn) throws IOException, InterruptedException {
    declare(TABLE + "_warmup", implicitColumn);
    return source("bench-logs warm-up", TABLE + "_warmup");
  }

  /** Declares a table (the implicit column, {@code status} a long, {@code Duration} a double). */
  private String declare(String table, String implicitColumn)
      throws IOException, InterruptedException {
    return http.json(
            "PUT",
            url + "/api/v2/tables/default/" + table,
            "Bearer " + token,
            "{\"implicitColumn\":"
                + TextNode.valueOf(implicitColumn) // quoted and escaped as JSON
                + ",\"bodyColumn\":\"Body\",\"columns\":["
                + "{\"name\":\"status\",\"type\":\"long\"},"
                + "{\"name\":\"Duration\",\"type\":\"double\"}]}")
        .path("data")
        .path("id")
        .asText();
  }

  /** A log source reading a table. */
  private String source(String name, String table) throws IOException, InterruptedException {
    return http.json(
            "POST",
            url + "/v1/organizations/" + org + "/services/" + serviceId + "/clickstack/sources",
            admin,
            "{\"name\":\""
                + name
                + "\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\","
                + "\"tableName\":\""
                + table
                + "\"}}")
        .path("result")
        .path("id")
        .asText();
  }

  /**
   * Creates a connection to a ClickHouse server and a log source on its {@code bench_logs} table
   * (the ClickHouse backend: the source's queries run there as SQL).
   *
   * @param clickhouseUrl the server's HTTP interface
   * @param name the connection's name
   * @return the source's id
   */
  String clickHouseSource(String clickhouseUrl, String name)
      throws IOException, InterruptedException {
    String connection =
        http.json(
                "POST",
                url + "/api/v2/connections",
                "Bearer " + token,
                "{\"name\":\""
                    + name
                    + "\",\"host\":\""
                    + clickhouseUrl
                    + "\",\"username\":\"default\",\"queryTimeoutSeconds\":600}")
            .path("data")
            .path("id")
            .asText();
    return http.json(
            "POST",
            url + "/api/v2/sources",
            "Bearer " + token,
            "{\"name\":\"bench-logs on "
                + name
                + "\",\"kind\":\"log\",\"connection\":\""
                + connection
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"bench_logs\"},"
                + "\"timestampValueExpression\":\"Timestamp\",\"implicitColumnExpression\":\"Body\"}")
        .path("data")
        .path("id")
        .asText();
  }

  /**
   * @return the source's entry of {@code GET /api/v2/stats}
   */
  JsonNode stats() throws IOException, InterruptedException {
    return stats(sourceId);
  }

  private JsonNode stats(String id) throws IOException, InterruptedException {
    for (JsonNode s :
        http.json("GET", url + "/api/v2/stats", "Bearer " + token, null)
            .path("data")
            .path("sources")) {
      if (s.path("id").asText().equals(id)) {
        return s;
      }
    }
    throw new IllegalStateException("GET /api/v2/stats does not list source " + id);
  }

  /**
   * Waits until no head waits to be sealed.
   *
   * @return the stats then
   */
  JsonNode awaitSealed() throws IOException, InterruptedException {
    return awaitSealed(sourceId);
  }

  /**
   * Waits until no head of a source waits to be sealed.
   *
   * @param id the source
   * @return its stats then
   */
  JsonNode awaitSealed(String id) throws IOException, InterruptedException {
    while (true) {
      JsonNode s = stats(id);
      if (s.path("sealBacklog").asInt() == 0) {
        return s;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("the Chartwell server exited:\n" + outputTail());
      }
      Thread.sleep(200);
    }
  }

  /**
   * @return bytes of every file in the engine's folder of the table (segment files, log,
   *     manifests), counted on disk independently of the server's own figures
   */
  long filesOnDisk() throws IOException {
    Path folder = dataDir.resolve("engine").resolve("sources").resolve(tableId);
    if (!Files.isDirectory(folder)) {
      throw new IllegalStateException("the table's folder " + folder + " does not exist");
    }
    return DiskUse.bytesUnder(folder);
  }

  private String outputTail() {
    synchronized (output) {
      return String.join("\n", output.subList(Math.max(0, output.size() - 20), output.size()));
    }
  }

  /** Stops the server (SIGTERM: a graceful shutdown; killed after a minute). */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(1, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(stopAtExit);
  }
}
