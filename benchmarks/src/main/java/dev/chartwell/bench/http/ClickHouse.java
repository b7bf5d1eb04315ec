package dev.chartwell.bench.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A local ClickHouse server started for one run: the binary of the installed package (Debian's
 * {@code clickhouse-server}), a configuration written to a temporary folder that also holds its
 * data, and an HTTP port on 127.0.0.1 only (no native, interserver or MySQL port). Nothing is ever
 * installed: without the binary {@link #find} says so and the caller skips ClickHouse.
 */
final class ClickHouse implements AutoCloseable {
  /** The table the harness creates and loads. */
  static final String TABLE = "bench_logs";

  /**
   * The table: sorted by time, the low-cardinality strings as {@code LowCardinality(String)}, the
   * others as plain strings, numbers in their smallest natural type, ClickHouse's default
   * compression (LZ4). {@code Timestamp} holds epoch milliseconds as the NDJSON file has them
   * (ClickHouse 18.16 has no {@code DateTime64}). {@code LogAttributes.http.method} is left out:
   * ClickHouse 18.16 cannot import a nested object whose keys contain dots, so the load skips it
   * (which flatters ClickHouse's bytes per event by that one column).
   */
  static final String CREATE_TABLE =
      "CREATE TABLE "
          + TABLE
          + " (Timestamp UInt64, ServiceName LowCardinality(String),"
          + " SeverityText LowCardinality(String), host LowCardinality(String), status UInt16,"
          + " Duration Float64, TraceId String, Body String)"
          + " ENGINE = MergeTree ORDER BY Timestamp";

  private final Process process;
  private final Thread stopAtExit;
  private final Path dir;
  private final String url;
  private final Http http;

  private ClickHouse(Process process, Path dir, String url, Http http) {
    this.process = process;
    this.stopAtExit = new Thread(process::destroy, "stop-clickhouse");
    Runtime.getRuntime().addShutdownHook(stopAtExit); // Ctrl-C must not leave it running
    this.dir = dir;
    this.url = url;
    this.http = http;
  }

  /**
   * @param given a path the user gave, or {@code null} to look in {@code PATH}, {@code /usr/sbin}
   *     and {@code /usr/bin}
   * @return the command that starts a server: {@code clickhouse-server}, or {@code clickhouse
   *     server} for the single-binary packages; empty when none is installed
   */
  static Optional<List<String>> find(String given) {
    if (given != null) {
      Path p = Path.of(given);
      if (!Files.isExecutable(p)) {
        return Optional.empty();
      }
      return Optional.of(
          p.getFileName().toString().equals("clickhouse")
              ? List.of(p.toString(), "server")
              : List.of(p.toString()));
    }
    List<String> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.addAll(List.of(path.split(java.io.File.pathSeparator)));
    }
    dirs.addAll(List.of("/usr/sbin", "/usr/bin"));
    for (String name : List.of("clickhouse-server", "clickhouse")) {
      for (String d : dirs) {
        Path p = Path.of(d, name);
        if (!d.isEmpty() && Files.isExecutable(p) && !Files.isDirectory(p)) {
          return Optional.of(
              name.equals("clickhouse") ? List.of(p.toString(), "server") : List.of(p.toString()));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Starts a server and waits until it answers.
   *
   * @param command from {@link #find}
   * @param dir an empty folder for its configuration, data and log
   * @param http the client
   * @return the running server
   * @throws IllegalStateException when it does not answer within a minute (with its log's end)
   */
  static ClickHouse start(List<String> command, Path dir, Http http)
      throws IOException, InterruptedException {
    int port = freePort();
    Path data = Files.createDirectories(dir.resolve("data"));
    Files.createDirectories(dir.resolve("tmp"));
    Files.createDirectories(dir.resolve("user_files"));
    Files.writeString(dir.resolve("config.xml"), config(dir, data, port));
    Files.writeString(dir.resolve("users.xml"), USERS);
    List<String> cmd = new ArrayList<>(command);
    cmd.add("--config-file=" + dir.resolve("config.xml"));
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("stdout.log").toFile())
            .start();
    ClickHouse ch = new ClickHouse(p, dir, "http://127.0.0.1:" + port + "/", http);
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (true) {
      try {
        ch.query("SELECT 1");
        return ch;
      } catch (IOException | IllegalStateException e) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          ch.close();
          throw new IllegalStateException(
              "ClickHouse did not start ("
                  + (p.isAlive() ? "no answer in a minute" : "it exited")
                  + "); the end of its log:\n"
                  + ch.logTail());
        }
        Thread.sleep(200);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String config(Path dir, Path data, int port) {
    return "<?xml version=\"1.0\"?>\n<yandex>\n"
        + "  <logger><level>warning</level><log>"
        + dir.resolve("server.log")
        + "</log><errorlog>"
        + dir.resolve("server.err.log")
        + "</errorlog><size>100M</size><count>1</count></logger>\n"
        + "  <listen_host>127.0.0.1</listen_host>\n"
        + "  <http_port>"
        + port
        + "</http_port>\n"
        + "  <path>"
        + data
        + "/</path>\n"
        + "  <tmp_path>"
        + dir.resolve("tmp")
        + "/</tmp_path>\n"
        + "  <user_files_path>"
        + dir.resolve("user_files")
        + "/</user_files_path>\n"
        + "  <users_config>"
        + dir.resolve("users.xml")
        + "</users_config>\n"
        + "  <default_profile>default</default_profile>\n"
        + "  <default_database>default</default_database>\n"
        + "  <mark_cache_size>1073741824</mark_cache_size>\n"
        + "  <timezone>UTC</timezone>\n"
        + "</yandex>\n";
  }

  /** One user, {@code default}, without password, reachable from loopback only. */
  private static final String USERS =
      "<?xml version=\"1.0\"?>\n<yandex>\n"
          + "  <profiles><default></default></profiles>\n"
          + "  <users><default><password></password>"
          + "<networks><ip>127.0.0.1</ip></networks>"
          + "<profile>default</profile><quota>default</quota></default></users>\n"
          + "  <quotas><default></default></quotas>\n"
          + "</yandex>\n";

  /**
   * @param sql a statement
   * @return its answer's body
   * @throws IllegalStateException when ClickHouse answers with an error (its text)
   */
  String query(String sql) throws IOException, InterruptedException {
    return query(sql, "");
  }

  /**
   * @param sql a statement
   * @param settings URL parameters ({@code name=value&...}), or empty
   * @return its answer's body
   */
  String query(String sql, String settings) throws IOException, InterruptedException {
    return new String(select(sql, settings), StandardCharsets.UTF_8);
  }

  /**
   * @param sql a query
   * @param settings URL parameters ({@code name=value&...}), or empty
   * @return its answer's body as received (timing it includes receiving it, not decoding it)
   */
  byte[] select(String sql, String settings) throws IOException, InterruptedException {
    HttpResponse<byte[]> r =
        http.client()
            .send(
                HttpRequest.newBuilder(URI.create(url + "?" + settings))
                    .timeout(Duration.ofMinutes(10))
                    .POST(HttpRequest.BodyPublishers.ofString(sql))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          "ClickHouse answered "
              + r.statusCode()
              + ": "
              + new String(r.body(), StandardCharsets.UTF_8));
    }
    return r.body();
  }

  /** Creates the table (LowCardinality needs the experimental switch in 18.x). */
  void createTable() throws IOException, InterruptedException {
    query(CREATE_TABLE, "allow_experimental_low_cardinality_type=1");
  }

  /**
   * Loads an NDJSON file with {@code INSERT ... FORMAT JSONEachRow} in one streamed request.
   *
   * @param file the file
   * @return seconds from sending to the answer
   */
  double load(Path file) throws IOException, InterruptedException {
    String insert =
        URLEncoder.encode("INSERT INTO " + TABLE + " FORMAT JSONEachRow", StandardCharsets.UTF_8);
    long start = System.nanoTime();
    HttpResponse<String> r =
        http.client()
            .send(
                HttpRequest.newBuilder(
                        URI.create(url + "?input_format_skip_unknown_fields=1&query=" + insert))
                    .timeout(Duration.ofHours(2))
                    .POST(HttpRequest.BodyPublishers.ofFile(file))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    double seconds = (System.nanoTime() - start) / 1e9;
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          "ClickHouse refused the load: " + r.statusCode() + " " + r.body());
    }
    return seconds;
  }

  /**
   * @return rows, active parts and their bytes on disk, from {@code system.parts}
   */
  long[] parts() throws IOException, InterruptedException {
    String[] cells =
        query(
                "SELECT sum(rows), count(), sum(bytes_on_disk) FROM system.parts"
                    + " WHERE active AND database = 'default' AND table = '"
                    + TABLE
                    + "' FORMAT TabSeparated")
            .trim()
            .split("\t");
    return new long[] {
      Long.parseLong(cells[0]), Long.parseLong(cells[1]), Long.parseLong(cells[2])
    };
  }

  /**
   * @return the server's version
   */
  String version() throws IOException, InterruptedException {
    return query("SELECT version()").trim();
  }

  private String logTail() {
    StringBuilder out = new StringBuilder();
    for (String name : List.of("stdout.log", "server.err.log")) {
      try {
        List<String> lines = Files.readAllLines(dir.resolve(name));
        lines
            .subList(Math.max(0, lines.size() - 20), lines.size())
            .forEach(l -> out.append(l).append('\n'));
      } catch (IOException e) {
        // no such log yet
      }
    }
    return out.toString();
  }

  /** Stops the server (SIGTERM, then kill after 30 s). */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(stopAtExit);
  }
}
