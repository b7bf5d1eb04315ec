package dev.chartwell.server;

import static dev.chartwell.server.BackupIntegrationTest.answers;
import static dev.chartwell.server.BackupIntegrationTest.assertSecrets;
import static dev.chartwell.server.BackupIntegrationTest.backup;
import static dev.chartwell.server.BackupIntegrationTest.makeEverything;
import static dev.chartwell.server.DataDirectoryIntegrationTest.MAPPER;
import static dev.chartwell.server.DataDirectoryIntegrationTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.backup.BackupCommand;
import dev.chartwell.server.http.HttpTestClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server in a child JVM ingests without pause while a backup is taken through the admin route,
 * then is killed ({@code kill -9}). The backup, restored into a new directory, serves exactly the
 * events up to its position: each event carries its number {@code n} in the order one client sent
 * them (one batch at a time), so what a backup holds must be the first {@code C} of them, {@code C}
 * being the count the backup states; every batch acknowledged before the backup was asked for must
 * be among them and no batch sent after its answer. Every management resource is there, with its
 * secrets decryptable.
 */
class BackupCrashTest {
  static final int BATCH = 2_000;

  @TempDir Path tmp;

  @Test
  void aBackupTakenDuringIngestionRestoresExactlyItsEventsAfterTheServerIsKilled()
      throws Exception {
    Path data = tmp.resolve("data");
    Path backups = tmp.resolve("backups");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // Chronicle Map's --add-opens and --add-exports, as this JVM was given them
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-"))
        .forEach(command::add);
    command.addAll(
        List.of(
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-Dchronicle.analytics.disable=true",
            "-cp",
            System.getProperty("java.class.path"),
            BackupCrashChild.class.getName(),
            data.toString(),
            backups.toString()));
    Process child =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertTrue(line != null && line.startsWith("port "), "the child's first line: " + line);
      HttpTestClient http = new HttpTestClient(Integer.parseInt(line.substring(5)));
      BackupIntegrationTest.Made m = makeEverything(http);
      Map<String, JsonNode> before = answers(http, m);

      AtomicInteger started = new AtomicInteger(); // batches whose request began
      AtomicInteger acknowledged = new AtomicInteger(); // batches answered 200, in order
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread ingester =
          new Thread(
              () -> {
                try {
                  while (!Thread.currentThread().isInterrupted()) {
                    int b = started.getAndIncrement();
                    HttpResponse<String> r = send(http, m, b);
                    if (r.statusCode() != 200) {
                      return; // the child is gone
                    }
                    acknowledged.incrementAndGet();
                  }
                } catch (java.io.IOException e) {
                  // the child was killed mid-request
                } catch (Throwable e) {
                  failure.set(e);
                }
              },
              "ingester");
      ingester.setDaemon(true);
      ingester.start();
      // Enough to seal at least once (a 1 MB head holds about 50,000 such events).
      Await.until(
          "60 batches acknowledged", () -> acknowledged.get() >= 60 || failure.get() != null);
      int ackedBefore = acknowledged.get();
      JsonNode taken = backup(http);
      int startedAfter = started.get();
      Await.until(
          "ingestion went on after the backup", () -> acknowledged.get() >= startedAfter + 2);
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
      ingester.join(60_000);
      assertEquals(null, failure.get());

      JsonNode source = taken.get("sources").get(0);
      long events = source.get("events").asLong();
      assertTrue(source.get("segments").size() > 0, "a sealed segment file: " + taken);
      assertTrue(source.get("logEvents").asLong() > 0, "events in the log: " + taken);
      assertTrue(
          events >= (long) ackedBefore * BATCH,
          events + " events, but " + ackedBefore + " batches were acknowledged before");
      assertTrue(
          events <= (long) startedAfter * BATCH,
          events + " events, but only " + startedAfter + " batches were sent before the answer");

      Path restored = tmp.resolve("restored");
      PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
      assertEquals(
          0,
          BackupCommand.restore(
              new String[] {"--from", backups.toString(), "--data-dir", restored.toString()},
              quiet,
              System.err));
      try (ChartwellServer server = TestServers.start(restored)) {
        HttpTestClient again = new HttpTestClient(server.port());
        assertEquals(events, count(again, m.token(), m.source()), "exactly the backup's events");
        assertEquals(events - 1, max(again, m), "the first " + events + " events sent");
        assertEquals(before, answers(again, m));
      }
      assertSecrets(restored, "header-secret", "conn-secret");
    } finally {
      child.destroyForcibly();
      child.waitFor(60, TimeUnit.SECONDS);
    }
  }

  /** Batch {@code b}: events {@code n} = b * BATCH ... (b + 1) * BATCH - 1. */
  static HttpResponse<String> send(HttpTestClient http, BackupIntegrationTest.Made m, int b)
      throws Exception {
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < BATCH; i++) {
      long n = (long) b * BATCH + i;
      ndjson
          .append("{\"Timestamp\":")
          .append(1767225600000L + n % 80_000_000L)
          .append(",\"n\":")
          .append(n)
          .append(",\"Body\":\"event ")
          .append(n % 1000)
          .append("\"}\n");
    }
    return http.send(
        "POST",
        "/api/v2/sources/" + m.source() + "/events",
        ndjson.toString(),
        "Authorization",
        "Bearer " + m.token(),
        "Content-Type",
        "application/x-ndjson");
  }

  static long max(HttpTestClient http, BackupIntegrationTest.Made m) throws Exception {
    HttpResponse<String> r =
        http.send(
            "POST",
            "/api/v2/charts/series",
            "{\"startTime\":1767225600000,\"endTime\":1767312000000,\"granularity\":\"1d\","
                + "\"series\":[{\"sourceId\":\""
                + m.source()
                + "\",\"aggFn\":\"max\",\"field\":\"n\"}]}",
            "Authorization",
            "Bearer " + m.token(),
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    double max = -1;
    for (JsonNode row : MAPPER.readTree(r.body()).get("data")) {
      max = Math.max(max, row.get("series_0.data").asDouble());
    }
    return (long) max;
  }
}
