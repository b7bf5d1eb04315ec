package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.http.HttpTestClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs {@code java -jar chartwell-server.jar} exactly as a user would, with no JVM flags: it must
 * start (Chronicle Map's module opens come from the manifest), serve, and exit 0 on SIGTERM. Runs
 * on the build's JDK and on every JDK listed in {@code CHARTWELL_IT_JAVA_HOMES} (path-separated).
 */
class ExecutableJarIT {
  /** Events sent through each shipper route before the kill. */
  private static final int SHIPPED = 5_000;

  static final Pattern LISTENING =
      Pattern.compile("Chartwell listening on http://127.0.0.1:(\\d+)");

  static Stream<String> javaHomes() {
    List<String> homes = new ArrayList<>(List.of(System.getProperty("java.home")));
    String extra = System.getenv("CHARTWELL_IT_JAVA_HOMES");
    if (extra != null && !extra.isBlank()) {
      homes.addAll(List.of(extra.split(java.io.File.pathSeparator)));
    }
    return homes.stream();
  }

  @ParameterizedTest
  @MethodSource("javaHomes")
  void startsServesAndStopsOnSigterm(String javaHome, @TempDir Path dataDir) throws Exception {
    Path jar = Path.of(System.getProperty("chartwell.server.jar"));
    assertTrue(Files.isRegularFile(jar), "jar not built: " + jar);
    Path log = dataDir.resolve("server.out");
    Process p =
        new ProcessBuilder(
                Path.of(javaHome, "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "--port",
                "0",
                "--data-dir",
                dataDir.resolve("data").toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      HttpTestClient http = new HttpTestClient(awaitPort(p, log));
      assertEquals(200, http.send("GET", "/health", null).statusCode());
      assertEquals(401, http.send("GET", "/v1/organizations", null).statusCode());

      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "server did not stop on SIGTERM");
      List<String> output = Files.readAllLines(log);
      String all = String.join("\n", output);
      assertEquals(0, p.exitValue(), all);
      assertEquals("Chartwell stopped", output.get(output.size() - 1), all);
      // JDK 24+ prints a notice about sun.misc.Unsafe, which Chronicle uses; nothing else may show.
      assertTrue(
          output.stream()
              .noneMatch(
                  l ->
                      l.contains("Exception")
                          || l.contains("SLF4J")
                          || l.contains("INFO")
                          || l.contains("native access")),
          all);
    } finally {
      p.destroyForcibly();
    }
  }

  @org.junit.jupiter.api.Test
  void stateSurvivesKillDashNine(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("data");
    String[] flags = {
      "--port",
      "0",
      "--data-dir",
      data.toString(),
      "--api-key",
      "ADMIN:adminsecret1",
      "--org-id",
      "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    };
    String services = "/v1/organizations/3f2504e0-4f89-41d3-9a0c-0305e82c3301/services";
    String auth = HttpTestClient.basic("ADMIN", "adminsecret1");

    Process first = launch(System.getProperty("java.home"), dir.resolve("first.out"), flags);
    String id;
    Ingest target;
    try {
      HttpTestClient http = new HttpTestClient(awaitPort(first, dir.resolve("first.out")));
      var created =
          http.send(
              "POST",
              services,
              "{\"name\":\"Survivor\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
              "Authorization",
              auth);
      assertEquals(200, created.statusCode(), created.body());
      id = created.body().replaceAll(".*\"service\":\\{\"id\":\"([^\"]+)\".*", "$1");
      target = Ingest.create(http, "Events");
      // 300,000 events: sealed segments, a head and log records are all on disk at the kill
      for (int request = 0; request < 15; request++) {
        var r = target.send(http, uniqueEvents(request * 20_000L, 20_000));
        assertEquals(200, r.statusCode(), r.body());
      }
      // The shippers' routes too: an acknowledged _bulk and Loki push survive the kill.
      StringBuilder bulk = new StringBuilder();
      for (int i = 0; i < SHIPPED; i++) {
        bulk.append("{\"create\":{}}\n{\"@timestamp\":")
            .append(1_767_225_600_000L + i)
            .append(",\"message\":\"shipped ")
            .append(i)
            .append("\"}\n");
      }
      var shipped =
          http.send(
              "POST",
              "/elasticsearch/crash-logs-2026.01.01/_bulk",
              bulk.toString(),
              "Authorization",
              "Bearer " + target.token(),
              "Content-Type",
              "application/x-ndjson");
      assertEquals(200, shipped.statusCode(), shipped.body());
      assertTrue(shipped.body().contains("\"errors\":false"), shipped.body());
      StringBuilder push =
          new StringBuilder("{\"streams\":[{\"stream\":{\"app\":\"c\"},\"values\":[");
      for (int i = 0; i < SHIPPED; i++) {
        push.append(i == 0 ? "" : ",")
            .append("[\"")
            .append((1_767_225_600_000L + i) * 1_000_000L)
            .append("\",\"pushed\"]");
      }
      push.append("]}]}");
      var pushed =
          http.send(
              "POST",
              "/loki/api/v1/push",
              push.toString(),
              "Authorization",
              "Bearer " + target.token(),
              "Content-Type",
              "application/json");
      assertEquals(204, pushed.statusCode(), pushed.body());
      first.destroyForcibly(); // SIGKILL right after the last acknowledgement
      assertTrue(first.waitFor(30, TimeUnit.SECONDS));
    } finally {
      first.destroyForcibly();
    }

    Process second = launch(System.getProperty("java.home"), dir.resolve("second.out"), flags);
    try {
      HttpTestClient http = new HttpTestClient(awaitPort(second, dir.resolve("second.out")));
      var got = http.send("GET", services + "/" + id, null, "Authorization", auth);
      assertEquals(200, got.statusCode(), got.body());
      assertTrue(got.body().contains("\"name\":\"Survivor\""), got.body());
      assertEquals(300_000, target.count(http), "every acknowledged event");
      var sources =
          http.send(
              "GET",
              services + "/" + target.serviceId() + "/clickstack/sources",
              null,
              "Authorization",
              auth);
      var byName = new java.util.HashMap<String, String>();
      for (var source :
          new com.fasterxml.jackson.databind.ObjectMapper()
              .readTree(sources.body())
              .get("result")) {
        byName.put(source.get("name").asText(), source.get("id").asText());
      }
      for (String name : new String[] {"crash_logs", "Loki"}) {
        assertTrue(byName.containsKey(name), name + " in " + sources.body());
        assertEquals(
            SHIPPED,
            new Ingest(byName.get(name), target.token(), target.serviceId()).count(http),
            "every acknowledged event of " + name);
      }
      // One line of ours says what was recovered; the storage library's warnings are folded in.
      List<String> out = Files.readAllLines(dir.resolve("second.out"));
      assertEquals(
          1,
          out.stream().filter(l -> l.startsWith("recovered after an unclean stop: ")).count(),
          String.join("\n", out));
      assertTrue(
          out.stream().noneMatch(l -> l.contains("WARNING") || l.contains("openhft")),
          String.join("\n", out));
    } finally {
      second.destroy();
      second.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @org.junit.jupiter.api.Test
  void a64MiBIngestionBodyIsStreamedNotBuffered(@TempDir Path dir) throws Exception {
    // 128 MiB of heap: holding a 64 MiB body whole (bytes, then text) would not fit beside the
    // server; streaming it in batches does.
    String org = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
    String auth = HttpTestClient.basic("ADMIN", "adminsecret1");
    Process p =
        launch(
            System.getProperty("java.home"),
            List.of("-Xmx128m"),
            dir.resolve("server.out"),
            "--port",
            "0",
            "--data-dir",
            dir.resolve("data").toString(),
            "--api-key",
            "ADMIN:adminsecret1",
            "--org-id",
            org);
    try {
      HttpTestClient http = new HttpTestClient(awaitPort(p, dir.resolve("server.out")));
      String services = "/v1/organizations/" + org + "/services";
      var created =
          http.send(
              "POST",
              services,
              "{\"name\":\"Big\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
              "Authorization",
              auth);
      assertEquals(200, created.statusCode(), created.body());
      String id = created.body().replaceAll(".*\"service\":\\{\"id\":\"([^\"]+)\".*", "$1");
      String token = created.body().replaceAll(".*\"password\":\"([^\"]+)\".*", "$1");
      Await.until(
          "the service running",
          () ->
              http.send("GET", services + "/" + id, null, "Authorization", auth)
                  .body()
                  .contains("\"running\""));
      var source =
          http.send(
              "POST",
              services + "/" + id + "/clickstack/sources",
              "{\"name\":\"big\",\"kind\":\"log\"}",
              "Authorization",
              auth);
      String sourceId = source.body().replaceAll(".*\"id\":\"([0-9a-f]{24})\".*", "$1");

      Path body = dir.resolve("events.ndjson");
      String line = "{\"Timestamp\":1767225600000,\"Body\":\"GET /health ok\",\"status\":200}\n";
      long lines = (64L << 20) / line.length();
      try (var out = java.nio.file.Files.newBufferedWriter(body)) {
        for (long i = 0; i < lines; i++) {
          out.write(line);
        }
      }
      assertTrue(java.nio.file.Files.size(body) <= 64L << 20);
      java.net.http.HttpResponse<String> r =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(
                              "http://127.0.0.1:"
                                  + http.port()
                                  + "/api/v2/sources/"
                                  + sourceId
                                  + "/events"))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/x-ndjson")
                      .POST(java.net.http.HttpRequest.BodyPublishers.ofFile(body))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      assertEquals("{\"accepted\":" + lines + ",\"rejected\":0,\"errors\":[]}", r.body());
    } finally {
      p.destroy();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * A server with a 256 MB heap takes more events than its heap could hold (sealed segments live in
   * files), stays responsive, and has every one of them again after SIGTERM and a restart.
   */
  @org.junit.jupiter.api.Test
  void moreEventsThanTheHeapHoldsAreKeptOnDiskAndAcrossARestart(@TempDir Path dir)
      throws Exception {
    String[] flags = {
      "--port",
      "0",
      "--data-dir",
      dir.resolve("data").toString(),
      "--api-key",
      "ADMIN:adminsecret1",
      "--org-id",
      ORG
    };
    Process p =
        launch(System.getProperty("java.home"), List.of("-Xmx256m"), dir.resolve("1.out"), flags);
    Ingest target;
    long accepted = 0;
    try {
      HttpTestClient http = new HttpTestClient(awaitPort(p, dir.resolve("1.out")));
      target = Ingest.create(http, "Full");
      // Unique bodies and trace ids: about 150 bytes per event held in a heap, 375 MB in all.
      for (int request = 0; request < 125; request++) {
        var r = target.send(http, uniqueEvents(request * 20_000L, 20_000));
        if (r.statusCode() == 503) {
          // the heap guard may ask for a pause while a seal catches up; retry as a client would
          assertEquals("5", r.headers().firstValue("Retry-After").orElse(null), r.body());
          accepted +=
              Long.parseLong(
                  r.body().replaceAll(".*; (\\d+) events of this request before line.*", "$1"));
          Thread.sleep(1000);
          continue;
        }
        assertEquals(200, r.statusCode(), r.body());
        accepted += 20_000;
      }
      assertTrue(accepted >= 2_000_000, "accepted " + accepted);
      // The server still answers with its heap full of held events (how fast is not asserted: a
      // busy machine decides that, not the server).
      assertEquals(200, http.send("GET", "/health", null).statusCode());
      assertEquals(accepted, target.count(http));
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "stopped on SIGTERM");
      assertEquals(0, p.exitValue(), Files.readString(dir.resolve("1.out")));
    } finally {
      p.destroyForcibly();
    }
    Process second =
        launch(System.getProperty("java.home"), List.of("-Xmx256m"), dir.resolve("2.out"), flags);
    try {
      HttpTestClient http = new HttpTestClient(awaitPort(second, dir.resolve("2.out")));
      assertEquals(accepted, target.count(http), "after the restart");
    } finally {
      second.destroy();
      second.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Events whose bodies and trace ids are all different: {@code n} from {@code first}. */
  static String uniqueEvents(long first, int n) {
    StringBuilder ndjson = new StringBuilder();
    for (long k = first; k < first + n; k++) {
      ndjson
          .append("{\"Timestamp\":")
          .append(1767225600000L + k)
          .append(",\"Body\":\"request ")
          .append(k)
          .append(" for user ")
          .append(Long.toHexString(k * 2654435761L))
          .append(" done\",\"TraceId\":\"")
          .append(Long.toHexString(k * 6364136223846793005L))
          .append("\"}\n");
    }
    return ndjson.toString();
  }

  static final String ORG = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

  /** A running service and a log source on it, through the management API as the admin. */
  record Ingest(String sourceId, String token, String serviceId) {
    static final String AUTH = HttpTestClient.basic("ADMIN", "adminsecret1");

    static Ingest create(HttpTestClient http, String name) throws Exception {
      String services = "/v1/organizations/" + ORG + "/services";
      var created =
          http.send(
              "POST",
              services,
              "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
              "Authorization",
              AUTH);
      assertEquals(200, created.statusCode(), created.body());
      String id = created.body().replaceAll(".*\"service\":\\{\"id\":\"([^\"]+)\".*", "$1");
      String token = created.body().replaceAll(".*\"password\":\"([^\"]+)\".*", "$1");
      Await.until(
          "the service running",
          () ->
              http.send("GET", services + "/" + id, null, "Authorization", AUTH)
                  .body()
                  .contains("\"running\""));
      var source =
          http.send(
              "POST",
              services + "/" + id + "/clickstack/sources",
              "{\"name\":\"" + name.toLowerCase(java.util.Locale.ROOT) + "\",\"kind\":\"log\"}",
              "Authorization",
              AUTH);
      assertEquals(200, source.statusCode(), source.body());
      return new Ingest(source.body().replaceAll(".*\"id\":\"([0-9a-f]{24})\".*", "$1"), token, id);
    }

    java.net.http.HttpResponse<String> send(HttpTestClient http, String ndjson) throws Exception {
      return http.send(
          "POST",
          "/api/v2/sources/" + sourceId + "/events",
          ndjson,
          "Authorization",
          "Bearer " + token,
          "Content-Type",
          "application/x-ndjson");
    }

    long count(HttpTestClient http) throws Exception {
      var count =
          http.send(
              "POST",
              "/api/v2/charts/series",
              "{\"startTime\":1767225600000,\"endTime\":1767312000000,\"granularity\":\"30d\","
                  + "\"series\":[{\"sourceId\":\""
                  + sourceId
                  + "\",\"aggFn\":\"count\"}]}",
              "Authorization",
              "Bearer " + token,
              "Content-Type",
              "application/json");
      assertEquals(200, count.statusCode(), count.body());
      String n = count.body().replaceAll(".*\"series_0.data\":(\\d+).*", "$1");
      return n.equals(count.body()) ? 0 : Long.parseLong(n);
    }
  }

  @Test
  void versionAndTheOfflineBackupAndRestoreRunFromTheJar(@TempDir Path dir) throws Exception {
    String home = System.getProperty("java.home");
    Path log = dir.resolve("version.out");
    Process v = launch(home, log, "--version");
    assertTrue(v.waitFor(60, TimeUnit.SECONDS));
    String version = Files.readString(log);
    assertEquals(0, v.exitValue(), version);
    assertTrue(
        version.matches("chartwell [0-9][^ ]* \\(commit ([0-9a-f]{7,}|unknown)\\)\n"), version);

    Path data = dir.resolve("data");
    Process server =
        launch(home, dir.resolve("server.out"), "--port", "0", "--data-dir", data.toString());
    try {
      awaitPort(server, dir.resolve("server.out"));
      server.destroy(); // SIGTERM
      assertTrue(server.waitFor(30, TimeUnit.SECONDS));
    } finally {
      server.destroyForcibly();
    }
    Path backupLog = dir.resolve("backup.out");
    Process backup =
        launch(
            home,
            backupLog,
            "backup",
            "--data-dir",
            data.toString(),
            "--to",
            dir.resolve("b").toString());
    assertTrue(backup.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, backup.exitValue(), Files.readString(backupLog));
    assertTrue(Files.readString(backupLog).startsWith("backup "), Files.readString(backupLog));
    Path restoreLog = dir.resolve("restore.out");
    Process restore =
        launch(
            home,
            restoreLog,
            "restore",
            "--from",
            dir.resolve("b").toString(),
            "--data-dir",
            dir.resolve("restored").toString());
    assertTrue(restore.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, restore.exitValue(), Files.readString(restoreLog));
    assertTrue(Files.isRegularFile(dir.resolve("restored").resolve("secrets.key")));
  }

  private static Process launch(String javaHome, Path log, String... flags) throws Exception {
    return launch(javaHome, List.of(), log, flags);
  }

  static Process launch(String javaHome, List<String> jvm, Path log, String... flags)
      throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(List.of(Path.of(javaHome, "bin", "java").toString()));
    cmd.addAll(jvm);
    cmd.addAll(List.of("-jar", System.getProperty("chartwell.server.jar")));
    cmd.addAll(List.of(flags));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  static int awaitPort(Process p, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      for (String line : Files.readAllLines(log)) {
        Matcher m = LISTENING.matcher(line);
        if (m.matches()) {
          return Integer.parseInt(m.group(1));
        }
      }
      if (!p.isAlive()) {
        throw new AssertionError("server exited:\n" + Files.readString(log));
      }
      Thread.sleep(50);
    }
    throw new AssertionError("server did not listen in time:\n" + Files.readString(log));
  }
}
