package dev.chartwell.server.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.SourceStats;
import dev.chartwell.engine.internal.warmup.JitSettle;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.ServerConfig;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up warm-up against a real server: it runs and ends with its progress line, leaves the
 * server's services, sources, events, query counts and HTTP metrics as they were, gives way to the
 * server's own queries, and a failure inside it ends only the warm-up.
 */
class WarmUpIntegrationTest {
  private static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  /** A small warm-up: what it runs is the server's, only fewer events and rounds. */
  private static final WarmUp.Budget SMALL =
      new WarmUp.Budget(20_000, 2, 2, Duration.ofMinutes(5), 2);

  private static WarmUp warmUp(
      ChartwellServer server,
      List<String> lines,
      java.util.function.BooleanSupplier busy,
      Path tmp) {
    return new WarmUp(2, () -> server.engine().sources(), busy, lines::add, SMALL, tmp);
  }

  @Test
  void runsEndsAndLeavesNoTraceInTheServer(@TempDir Path dir, @TempDir Path tmp) throws Exception {
    try (ChartwellServer server = TestServers.start(dir)) {
      // A source of the server with unsealed events, which the warm-up prepares for queries.
      Source own = server.engine().createSource(SourceSpec.logs("own"));
      Instant t = Instant.now().minusSeconds(60);
      own.append(Event.at(t, Map.of("Body", "disk timeout on node 7", "SeverityText", "error")));
      own.append(Event.at(t.plusSeconds(1), Map.of("Body", "all good", "SeverityText", "info")));
      SourceStats before = own.stats();
      HttpTestClient http = new HttpTestClient(server.port());
      JsonNode services = services(http);
      List<String> lines = new CopyOnWriteArrayList<>();

      WarmUp w = warmUp(server, lines, () -> server.queryCounters().running() > 0, tmp);
      w.begin();
      String outcome = w.await(5, TimeUnit.MINUTES);

      assertNotNull(outcome, "the warm-up did not end");
      assertTrue(
          outcome.matches(
              "warm-up done in [0-9.]+ s: 1 sources \\(1 segments\\) prepared for queries,"
                  + " 20,000 synthetic events sent, [0-9]+ query shapes × 2 rounds, then 2 query"
                  + " shapes over the events of 1 real sources × 2 rounds"
                  + " \\(the JIT compiler (settled|still compiling)\\)"),
          outcome);
      assertEquals(
          "warming up the ingestion and query paths on synthetic events in the background"
              + " (--warm-up false turns it off)",
          lines.get(0));
      assertEquals(List.of(lines.get(0), outcome), lines);
      // Nothing of the server changed: its queries, sources, events, services and metrics.
      assertEquals(new QueryCounters(0, 0, 0, 0, 0, 0), server.queryCounters());
      assertEquals(List.of(own.id()), ids(server.engine().sources()));
      SourceStats after = own.stats();
      assertEquals(before.rows(), after.rows());
      assertEquals(before.acceptedEvents(), after.acceptedEvents());
      assertEquals(services, services(http));
      HttpResponse<String> metrics = http.send("GET", "/metrics", null, "Authorization", ADMIN);
      assertEquals(200, metrics.statusCode());
      assertFalse(metrics.body().contains("charts/series"), metrics.body());
      assertFalse(metrics.body().contains("/events"), metrics.body());
      List<String> completed =
          metrics
              .body()
              .lines()
              .filter(l -> l.startsWith("chartwell_engine_queries"))
              .filter(l -> l.contains("outcome=\"completed\""))
              .toList();
      assertEquals(1, completed.size(), metrics.body());
      assertTrue(completed.get(0).endsWith(" 0.0"), completed.get(0));
      // and its temporary directory is gone
      try (Stream<Path> left = Files.list(tmp)) {
        assertEquals(List.of(), left.toList());
      }
    }
  }

  @Test
  void goesOnPastItsLeastRoundsUntilTheCompilerSettles(@TempDir Path dir, @TempDir Path tmp)
      throws Exception {
    try (ChartwellServer server = TestServers.start(dir)) {
      List<String> lines = new CopyOnWriteArrayList<>();
      WarmUp w =
          new WarmUp(
              2,
              () -> server.engine().sources(),
              () -> false,
              lines::add,
              new WarmUp.Budget(20_000, 1, JitSettle.QUIET_ROUNDS, Duration.ofMinutes(5), 0),
              tmp);
      w.begin();
      String outcome = w.await(5, TimeUnit.MINUTES);
      // Settling takes QUIET_ROUNDS quiet rounds, so one least round goes on to the most (where
      // the JVM measures compilation time; elsewhere every round counts as settled).
      boolean measured =
          java.lang.management.ManagementFactory.getCompilationMXBean()
              .isCompilationTimeMonitoringSupported();
      int rounds = measured ? JitSettle.QUIET_ROUNDS : 1;
      assertTrue(
          outcome.matches(
              "warm-up done in .* query shapes × "
                  + rounds
                  + " rounds \\(the JIT compiler (settled|still compiling)\\)"),
          outcome);
    }
  }

  @Test
  void givesWayWhileTheServerRunsQueries(@TempDir Path dir, @TempDir Path tmp) throws Exception {
    try (ChartwellServer server = TestServers.start(dir)) {
      AtomicInteger asked = new AtomicInteger();
      List<String> lines = new CopyOnWriteArrayList<>();
      // "busy" for the first 20 looks: the warm-up waits, then goes on
      WarmUp w = warmUp(server, lines, () -> asked.incrementAndGet() <= 20, tmp);
      w.begin();
      String outcome = w.await(5, TimeUnit.MINUTES);
      assertTrue(outcome.startsWith("warm-up done in "), outcome);
      assertTrue(asked.get() > 20, "asked " + asked.get() + " times");
    }
  }

  @Test
  void aFailureEndsOnlyTheWarmUp(@TempDir Path dir, @TempDir Path tmp) throws Exception {
    Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
    try (ChartwellServer server = TestServers.start(dir)) {
      List<String> lines = new CopyOnWriteArrayList<>();
      WarmUp w = warmUp(server, lines, () -> false, notADirectory);
      w.begin();
      String outcome = w.await(5, TimeUnit.MINUTES);
      assertTrue(
          outcome.matches("warm-up stopped after [0-9.]+ s: .+ \\(serving is not affected\\)"),
          outcome);
      HttpTestClient http = new HttpTestClient(server.port());
      assertEquals(200, http.send("GET", "/health", null).statusCode());
    }
  }

  @Test
  void closingStopsItAndRemovesItsDirectory(@TempDir Path dir, @TempDir Path tmp) throws Exception {
    try (ChartwellServer server = TestServers.start(dir)) {
      List<String> lines = new CopyOnWriteArrayList<>();
      WarmUp w =
          new WarmUp(
              2,
              () -> server.engine().sources(),
              () -> false,
              lines::add,
              new WarmUp.Budget(20_000, 1_000_000, 1_000_000, Duration.ofHours(1), 1_000_000),
              tmp);
      w.begin();
      w.close();
      String outcome = w.await(0, TimeUnit.SECONDS);
      assertTrue(outcome.startsWith("warm-up stopped after "), outcome);
      try (Stream<Path> left = Files.list(tmp)) {
        assertEquals(List.of(), left.toList());
      }
    }
  }

  @Test
  void theFlagTurnsItOff(@TempDir Path dir) throws Exception {
    ServerConfig off =
        ServerConfig.parse(
            new String[] {"--port", "0", "--data-dir", dir.toString(), "--warm-up", "false"},
            Map.of());
    assertFalse(off.warmUp());
    assertTrue(ServerConfig.parse(new String[] {"--port", "0"}, Map.of()).warmUp());
    assertFalse(
        ServerConfig.parse(new String[] {"--port", "0"}, Map.of("CHARTWELL_WARM_UP", "off"))
            .warmUp());
    try (ChartwellServer server = TestServers.start(dir, "--warm-up", "false")) {
      List<String> lines = new ArrayList<>();
      assertNull(WarmUp.start(off, server, lines::add));
      assertEquals(List.of(), lines);
    }
  }

  private static JsonNode services(HttpTestClient http) throws Exception {
    String body =
        http.send(
                "GET",
                "/v1/organizations/" + TestServers.ORG + "/services",
                null,
                "Authorization",
                ADMIN)
            .body();
    return new ObjectMapper().readTree(body).get("result");
  }

  private static List<String> ids(List<Source> sources) {
    return sources.stream().map(Source::id).toList();
  }
}
