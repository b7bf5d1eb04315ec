package dev.chartwell.bench.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Prometheus started for one run: a temporary TSDB, the remote-write receiver on, any free
 * port on 127.0.0.1, nothing scraped (the only samples are the ones the harness writes).
 */
final class PrometheusServer implements AutoCloseable {
  private final Process process;
  private final Thread stopAtExit;
  private final Path dir;
  private final String url;

  private PrometheusServer(Process process, Path dir, String url) {
    this.process = process;
    this.dir = dir;
    this.url = url;
    this.stopAtExit = new Thread(process::destroy, "stop-prometheus");
    Runtime.getRuntime().addShutdownHook(stopAtExit);
  }

  /**
   * Starts Prometheus and waits until it is ready.
   *
   * @param binary the {@code prometheus} executable
   * @param http the client
   * @return the running server
   */
  static PrometheusServer start(Path binary, Http http) throws IOException, InterruptedException {
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          binary
              + " is not an executable: install Prometheus (apt-get install prometheus)"
              + " or give --prometheus");
    }
    Path dir = Files.createTempDirectory("chartwell-bench-prometheus");
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  scrape_interval: 1h\n");
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Process p =
        new ProcessBuilder(
                binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--web.enable-remote-write-receiver",
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    PrometheusServer server = new PrometheusServer(p, dir, "http://127.0.0.1:" + port);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      if (!p.isAlive()) {
        throw new IllegalStateException(
            "prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
      }
      try {
        HttpResponse<Void> r =
            http.client()
                .send(
                    HttpRequest.newBuilder(URI.create(server.url + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return server;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        server.close();
        throw new IllegalStateException("prometheus is not ready after a minute");
      }
      Thread.sleep(50);
    }
  }

  /**
   * @return its base URL
   */
  String url() {
    return url;
  }

  /**
   * @return its process id
   */
  long pid() {
    return process.pid();
  }

  /** Stops it and deletes its folder. */
  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(stopAtExit);
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
