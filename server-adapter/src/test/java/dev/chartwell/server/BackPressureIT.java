package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.ExecutableJarIT.Ingest;
import dev.chartwell.server.http.HttpTestClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestion faster than sealing, into a server with a 512 MB heap: four connections send unique
 * events into one source at once. The seal backlog must stay bounded (appends wait for the sealing
 * thread instead of piling heads up on the heap), the server must keep answering, and every event
 * it acknowledged must be there, also after a restart.
 */
class BackPressureIT {
  private static final Pattern BACKLOG = Pattern.compile("\"sealBacklog\":(\\d+)");
  private static final Pattern HELD_BACK = Pattern.compile("\"appendsHeldBack\":(\\d+)");
  private static final int CONNECTIONS = 4;
  private static final int REQUESTS_PER_CONNECTION = 40;
  private static final int EVENTS_PER_REQUEST = 20_000;

  @Test
  void ingestionSlowsDownToTheSpeedOfSealingAndLosesNothing(@TempDir Path dir) throws Exception {
    String[] flags = {
      "--port",
      "0",
      "--data-dir",
      dir.resolve("data").toString(),
      "--api-key",
      "ADMIN:adminsecret1",
      "--org-id",
      ExecutableJarIT.ORG
    };
    Process p =
        ExecutableJarIT.launch(
            System.getProperty("java.home"), List.of("-Xmx512m"), dir.resolve("1.out"), flags);
    AtomicLong accepted = new AtomicLong();
    Ingest target;
    int maxBacklog = 0;
    long heldBack = 0;
    try {
      HttpTestClient http = new HttpTestClient(ExecutableJarIT.awaitPort(p, dir.resolve("1.out")));
      target = Ingest.create(http, "Flood");
      Ingest source = target;
      AtomicInteger next = new AtomicInteger();
      ExecutorService clients = Executors.newFixedThreadPool(CONNECTIONS);
      List<Future<?>> sending = new ArrayList<>();
      for (int c = 0; c < CONNECTIONS; c++) {
        sending.add(
            clients.submit(
                () -> {
                  for (int r = 0; r < REQUESTS_PER_CONNECTION; r++) {
                    long first = (long) next.getAndIncrement() * EVENTS_PER_REQUEST;
                    accepted.addAndGet(sendAll(http, source, first));
                  }
                  return null;
                }));
      }
      // Watch the backlog while the flood goes on; the server must answer all along.
      while (sending.stream().anyMatch(f -> !f.isDone())) {
        var stats =
            http.send("GET", "/api/v2/stats", null, "Authorization", "Bearer " + source.token());
        assertEquals(200, stats.statusCode(), stats.body());
        Matcher m = BACKLOG.matcher(stats.body());
        assertTrue(m.find(), stats.body());
        maxBacklog = Math.max(maxBacklog, Integer.parseInt(m.group(1)));
        Matcher h = HELD_BACK.matcher(stats.body());
        assertTrue(h.find(), stats.body());
        heldBack = Long.parseLong(h.group(1));
        Thread.sleep(20);
      }
      for (Future<?> f : sending) {
        f.get();
      }
      clients.shutdown();
      assertEquals(
          (long) CONNECTIONS * REQUESTS_PER_CONNECTION * EVENTS_PER_REQUEST, accepted.get());
      assertTrue(
          maxBacklog <= 3, "the seal backlog stays at most three heads; it reached " + maxBacklog);
      assertTrue(
          heldBack > 0,
          "four connections of unique events outrun sealing on two cores, so some appends must"
              + " have waited for it; none did, so this test no longer tests back-pressure");
      System.out.println(
          "BackPressureIT: "
              + accepted.get()
              + " events in; seal backlog at most "
              + maxBacklog
              + "; appends held back for the sealing thread: "
              + heldBack);
      assertEquals(accepted.get(), target.count(http));
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "stopped on SIGTERM");
      assertEquals(0, p.exitValue(), Files.readString(dir.resolve("1.out")));
    } finally {
      p.destroyForcibly();
    }
    Process second =
        ExecutableJarIT.launch(
            System.getProperty("java.home"), List.of("-Xmx512m"), dir.resolve("2.out"), flags);
    try {
      HttpTestClient http =
          new HttpTestClient(ExecutableJarIT.awaitPort(second, dir.resolve("2.out")));
      assertEquals(accepted.get(), target.count(http), "after the restart");
    } finally {
      second.destroy();
      second.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Sends one request of unique events, as a client would: a 503 (the heap guard asking for a
   * pause) keeps what it accepted and the rest is sent again after its {@code Retry-After}.
   *
   * @return the events accepted, all of them
   */
  private static long sendAll(HttpTestClient http, Ingest target, long first) throws Exception {
    long sent = 0;
    while (sent < EVENTS_PER_REQUEST) {
      var r =
          target.send(
              http, ExecutableJarIT.uniqueEvents(first + sent, (int) (EVENTS_PER_REQUEST - sent)));
      if (r.statusCode() == 503) {
        sent +=
            Long.parseLong(
                r.body().replaceAll(".*; (\\d+) events of this request before line.*", "$1"));
        Thread.sleep(1000);
        continue;
      }
      assertEquals(200, r.statusCode(), r.body());
      sent = EVENTS_PER_REQUEST;
    }
    return sent;
  }
}
