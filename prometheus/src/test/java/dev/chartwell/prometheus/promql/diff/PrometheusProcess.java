package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.RemoteWrite;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real Prometheus (Debian's {@code /usr/bin/prometheus}) on a free loopback port, with a
 * temporary TSDB and the remote-write receiver on; nothing scraped.
 */
public final class PrometheusProcess implements AutoCloseable {
  static final Path BINARY =
      Paths.get(System.getProperty("prometheus.binary", "/usr/bin/prometheus"));

  private final Process process;
  private final Path dir;
  public final String base;
  private final HttpClient http = HttpClient.newHttpClient();

  public static boolean available() {
    return Files.isExecutable(BINARY);
  }

  public PrometheusProcess() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("chartwell-prometheus");
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  scrape_interval: 1h\n");
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    base = "http://127.0.0.1:" + port;
    process =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--web.enable-remote-write-receiver",
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IOException(
            "prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
      }
      try {
        HttpResponse<Void> r =
            http.send(
                HttpRequest.newBuilder(URI.create(base + "/-/ready")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          break;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("prometheus not ready after 60 s");
      }
      Thread.sleep(50);
    }
  }

  /** Pushes series through remote write (one request). */
  public void write(List<SeriesData> series) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/write"))
                .header("Content-Encoding", "snappy")
                .header("Content-Type", "application/x-protobuf")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                .POST(HttpRequest.BodyPublishers.ofByteArray(RemoteWrite.encode(series)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IOException("remote write refused: " + r.statusCode() + " " + r.body());
    }
  }

  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
