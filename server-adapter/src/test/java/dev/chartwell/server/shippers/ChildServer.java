package dev.chartwell.server.shippers;

import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The server in a child JVM on this classpath, so that its CPU (read from {@code /proc}) holds none
 * of the clients' work, garbage or compilation. No round ends with a seal there: each route writes
 * its own table, the same events in the same requests, so heads fill and seal alike.
 */
final class ChildServer implements AutoCloseable {
  final Process process;
  final int port;

  private ChildServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static ChildServer start(Path dir) throws Exception {
    int port;
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(javaBin));
    // Chronicle Map's --add-opens and --add-exports, as this JVM was given them
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-"))
        .forEach(command::add);
    String jfr = System.getProperty("chartwell.shipper.childJfr"); // a profile of the child
    if (jfr != null) {
      command.add("-XX:StartFlightRecording=dumponexit=true,settings=profile,filename=" + jfr);
    }
    String extra = System.getProperty("chartwell.shipper.childJvm"); // e.g. flags for perf
    if (extra != null) {
      command.addAll(Arrays.asList(extra.trim().split("\\s+")));
    }
    command.addAll(
        List.of(
            "-Xmx4g",
            "-Dchronicle.analytics.disable=true",
            "-cp",
            System.getProperty("java.class.path"),
            "dev.chartwell.server.Main",
            "--port",
            String.valueOf(port),
            "--data-dir",
            dir.toString(),
            "--org-id",
            dev.chartwell.server.TestServers.ORG,
            "--api-key",
            "ADMIN:adminsecret1",
            "--key-hash-iterations",
            "1000"));
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolveSibling(dir.getFileName() + ".log").toFile())
            .start();
    ChildServer child = new ChildServer(p, port);
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    dev.chartwell.server.Await.until(
        "the child server answers /health",
        () -> {
          try {
            return http.send(
                        java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create("http://127.0.0.1:" + port + "/health"))
                            .build(),
                        HttpResponse.BodyHandlers.discarding())
                    .statusCode()
                == 200;
          } catch (java.io.IOException e) {
            return false;
          }
        });
    // The server warms its paths up after it starts: its CPU would land in the first rounds.
    Path log = dir.resolveSibling(dir.getFileName() + ".log");
    dev.chartwell.server.Await.until(
        "the child server's warm-up ends",
        () -> {
          if (!p.isAlive()) {
            throw new IllegalStateException("the child server exited; its output is in " + log);
          }
          String out = Files.readString(log);
          return out.contains("chartwell: warm-up done")
              || out.contains("chartwell: warm-up stopped");
        });
    return child;
  }

  /** The child's user and system CPU so far, from {@code /proc/PID/stat} (10 ms ticks). */
  long cpuNanos() throws java.io.IOException {
    String[] f = stat();
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
  }

  /**
   * The child's CPU so far by kind of thread (request handling, sealing, the JIT's compilers, the
   * garbage collector, the rest), from {@code /proc/PID/task}: a thread that ended is missing.
   */
  Map<String, Long> cpuByKind() throws java.io.IOException {
    Map<String, Long> cpu = new java.util.TreeMap<>();
    try (var tasks = Files.list(Path.of("/proc/" + process.pid() + "/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String name;
        String stat;
        try {
          name = Files.readString(task.resolve("comm")).trim();
          stat = Files.readString(task.resolve("stat"));
        } catch (java.io.IOException ended) {
          continue;
        }
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long nanos = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
        String kind =
            name.startsWith("chartwell-http")
                ? "http"
                : name.startsWith("chartwell-seal")
                    ? "seal"
                    : name.contains("Compiler")
                        ? "jit"
                        : name.startsWith("GC") || name.startsWith("G1") ? "gc" : "other";
        cpu.merge(kind, nanos, Long::sum);
      }
    }
    return cpu;
  }

  /** The child's system (kernel) CPU so far. */
  long systemNanos() throws java.io.IOException {
    return Long.parseLong(stat()[12]) * 10_000_000L;
  }

  private String[] stat() throws java.io.IOException {
    String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
    return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    process.waitFor();
  }
}
