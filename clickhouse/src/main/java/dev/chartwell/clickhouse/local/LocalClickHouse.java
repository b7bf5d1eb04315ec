package dev.chartwell.clickhouse.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A ClickHouse server started for one test class or one benchmark run: the binary of the installed
 * package (Debian's {@value #PACKAGE}), a configuration written to a folder of its own that also
 * holds its data and log, and HTTP and native ports on 127.0.0.1 only. Nothing is ever installed:
 * without the binary {@link #find} is empty and the caller skips, saying so with {@link
 * #skipMessage}.
 *
 * <p>Two or more servers form a cluster when each is given the same {@code remote_servers} section
 * ({@link #clusterConfig}); their native ports must then be known before any starts, hence {@link
 * #freePort}.
 */
public final class LocalClickHouse implements AutoCloseable {
  /** The Debian package that provides the server. */
  public static final String PACKAGE = "clickhouse-server";

  private final Process process;
  private final Thread stopAtExit;
  private final Path dir;
  private final String url;
  private final int tcpPort;
  private final String user;
  private final String password;
  private final HttpClient http;

  private LocalClickHouse(
      Process process, Path dir, int httpPort, int tcpPort, String user, String password) {
    this.process = process;
    this.stopAtExit = new Thread(process::destroy, "stop-clickhouse");
    Runtime.getRuntime().addShutdownHook(stopAtExit); // Ctrl-C must not leave it running
    this.dir = dir;
    this.url = "http://127.0.0.1:" + httpPort + "/";
    this.tcpPort = tcpPort;
    this.user = user;
    this.password = password;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /**
   * @return the server's process id
   */
  public long pid() {
    return process.pid();
  }

  /**
   * @param given a path the user gave, or {@code null} to look in {@code PATH}, {@code /usr/sbin}
   *     and {@code /usr/bin}
   * @return the command that starts a server: {@code clickhouse-server}, or {@code clickhouse
   *     server} for the single-binary packages; empty when none is installed
   */
  public static Optional<List<String>> find(String given) {
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
   * @param what what is skipped, for example a test class's name
   * @return the loud line a caller prints when {@link #find} found no server
   */
  public static String skipMessage(String what) {
    return "SKIPPED "
        + what
        + ": no clickhouse-server binary (install the Debian package '"
        + PACKAGE
        + "': apt-get install -y "
        + PACKAGE
        + "; .ci/run does)";
  }

  /**
   * @return a port free on the loopback interface now
   */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * The {@code remote_servers} section of a cluster of one replica per shard on loopback.
   *
   * @param name the cluster's name
   * @param tcpPorts the native port of each shard's server
   * @return the XML section, for every member's configuration
   */
  public static String clusterConfig(String name, List<Integer> tcpPorts) {
    StringBuilder sb = new StringBuilder("  <remote_servers><").append(name).append('>');
    for (int port : tcpPorts) {
      sb.append("<shard><replica><host>127.0.0.1</host><port>")
          .append(port)
          .append("</port></replica></shard>");
    }
    return sb.append("</").append(name).append("></remote_servers>\n").toString();
  }

  /**
   * Starts a server on free ports with user {@code default} and no password.
   *
   * @param command from {@link #find}
   * @param dir an empty folder for its configuration, data and log
   * @return the running server
   */
  public static LocalClickHouse start(List<String> command, Path dir)
      throws IOException, InterruptedException {
    return start(command, dir, "");
  }

  /**
   * Starts a server on free ports with user {@code default}. A port found free can be taken by
   * another process before the server binds it (tests run in parallel JVMs): the server then exits
   * saying so, and is started again on other ports, up to three times.
   *
   * @param command from {@link #find}
   * @param dir an empty folder for its configuration, data and log
   * @param password the password of user {@code default} (empty: none)
   * @return the running server
   */
  public static LocalClickHouse start(List<String> command, Path dir, String password)
      throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return start(command, dir, freePort(), freePort(), password, "");
      } catch (IllegalStateException e) {
        if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
          throw e;
        }
      }
    }
  }

  /**
   * Starts a server and waits until it answers.
   *
   * @param command from {@link #find}
   * @param dir an empty folder for its configuration, data and log
   * @param httpPort its HTTP port on 127.0.0.1
   * @param tcpPort its native port on 127.0.0.1 (what the members of a cluster speak)
   * @param password the password of user {@code default} (empty: none)
   * @param extraConfig XML added to the configuration (for example {@link #clusterConfig})
   * @return the running server
   * @throws IllegalStateException when it does not answer within a minute (with its log's end)
   */
  public static LocalClickHouse start(
      List<String> command,
      Path dir,
      int httpPort,
      int tcpPort,
      String password,
      String extraConfig)
      throws IOException, InterruptedException {
    Path data = Files.createDirectories(dir.resolve("data"));
    Files.createDirectories(dir.resolve("tmp"));
    Files.createDirectories(dir.resolve("user_files"));
    Files.writeString(dir.resolve("config.xml"), config(dir, data, httpPort, tcpPort, extraConfig));
    Files.writeString(dir.resolve("users.xml"), users(password));
    List<String> cmd = new ArrayList<>(command);
    cmd.add("--config-file=" + dir.resolve("config.xml"));
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("stdout.log").toFile())
            .start();
    LocalClickHouse ch = new LocalClickHouse(p, dir, httpPort, tcpPort, "default", password);
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

  private static String config(Path dir, Path data, int port, int tcpPort, String extra) {
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
        + "  <tcp_port>"
        + tcpPort
        + "</tcp_port>\n"
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
        + "  <mark_cache_size>268435456</mark_cache_size>\n"
        + "  <timezone>UTC</timezone>\n"
        + extra
        + "</yandex>\n";
  }

  /** One user, {@code default}, reachable from loopback only. */
  private static String users(String password) {
    return "<?xml version=\"1.0\"?>\n<yandex>\n"
        + "  <profiles><default></default></profiles>\n"
        + "  <users><default><password>"
        + password.replace("&", "&amp;").replace("<", "&lt;")
        + "</password>"
        + "<networks><ip>127.0.0.1</ip></networks>"
        + "<profile>default</profile><quota>default</quota></default></users>\n"
        + "  <quotas><default></default></quotas>\n"
        + "</yandex>\n";
  }

  /**
   * @return the URL of its HTTP interface, {@code http://127.0.0.1:PORT/}
   */
  public String url() {
    return url;
  }

  /**
   * @return its native port
   */
  public int tcpPort() {
    return tcpPort;
  }

  /**
   * @param sql a statement
   * @return its answer's body
   * @throws IllegalStateException when ClickHouse answers with an error (its text)
   */
  public String query(String sql) throws IOException, InterruptedException {
    return new String(select(sql, ""), StandardCharsets.UTF_8);
  }

  /**
   * @param sql a query
   * @param settings URL parameters ({@code name=value&...}), or empty
   * @return its answer's body as received
   * @throws IllegalStateException when ClickHouse answers with an error (its text)
   */
  public byte[] select(String sql, String settings) throws IOException, InterruptedException {
    HttpResponse<byte[]> r =
        http.send(
            request(URI.create(url + "?" + settings))
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

  /**
   * Streams a file as the data of an {@code INSERT}.
   *
   * @param insert the statement, ending with its {@code FORMAT}
   * @param file the data
   * @param settings URL parameters ({@code name=value&...}), or empty
   */
  public void insertFile(String insert, Path file, String settings)
      throws IOException, InterruptedException {
    String q = java.net.URLEncoder.encode(insert, StandardCharsets.UTF_8);
    HttpResponse<String> r =
        http.send(
            request(
                    URI.create(
                        url + "?" + settings + (settings.isEmpty() ? "" : "&") + "query=" + q))
                .timeout(Duration.ofHours(2))
                .POST(HttpRequest.BodyPublishers.ofFile(file))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          "ClickHouse refused the insert: " + r.statusCode() + " " + r.body());
    }
  }

  private HttpRequest.Builder request(URI uri) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri);
    if (!password.isEmpty()) {
      b.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    return b;
  }

  /**
   * @return the server's version
   */
  public String version() throws IOException, InterruptedException {
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

  /**
   * Deletes the server's folder (configuration, data, log); call after {@link #close}.
   *
   * @throws IOException when a file cannot be deleted
   */
  public void deleteFiles() throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Stops the server (SIGTERM, then kill after 30 s). */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(stopAtExit);
  }
}
