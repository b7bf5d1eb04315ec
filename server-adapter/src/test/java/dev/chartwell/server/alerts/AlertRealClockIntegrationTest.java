package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.ChartwellServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The only test on real time: a server with its own alert threads, a 1-minute alert, errors sent
 * now, and the notification arriving at a real receiver after the minute closes, with the alert's
 * state and history saying the same. Its clock runs at the real pace but is set a few seconds
 * before a minute ends (the scheduler, which sleeps until a second past the next minute, would
 * otherwise make the test wait half a minute on average); should setting up take longer, the events
 * land in the next minute and the test waits for that one.
 */
class AlertRealClockIntegrationTest {
  @TempDir Path dataDir;

  @Test
  void aOneMinuteAlertFiresEndToEnd() throws Exception {
    long shortlyBeforeAMinuteEnds = 52_000 - Math.floorMod(System.currentTimeMillis(), 60_000);
    Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(shortlyBeforeAMinuteEnds));
    try (AlertHarness h =
        new AlertHarness(
            dataDir, new ChartwellServer.Overrides(clock, true, Duration.ZERO, null))) {
      String alert = h.tileAlert(h.errorTile(null), "\"thresholdType\":\"above\",\"threshold\":3");
      Instant now = clock.instant();
      h.ingest(AlertHarness.events(now, 4, "api", "error"));
      long windowStart = Math.floorDiv(now.toEpochMilli(), 60_000) * 60_000;
      List<Receiver.Received> got = h.receiver.await(1, 150);
      assertFalse(got.isEmpty(), "no notification within 150 s");
      JsonNode n = h.notifications().get(0);
      assertEquals("ALERT", n.get("state").asText());
      assertEquals(4, n.get("value").asInt());
      assertEquals(windowStart, n.get("startTime").asLong());
      assertEquals(windowStart + 60_000, n.get("endTime").asLong());
      assertEquals("ALERT", h.alert(alert).get("state").asText());
      JsonNode latest = null;
      // The outcome is recorded just after the receiver answers (the deadline only stops a hung
      // test).
      long deadline = System.nanoTime() + dev.chartwell.server.Await.HUNG.toNanos();
      while ((latest == null || !latest.at("/notifications/0/status").asText().equals("delivered"))
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
        for (JsonNode e : h.history(alert)) {
          if (Instant.parse(e.get("windowStart").asText()).toEpochMilli() == windowStart) {
            latest = e;
          }
        }
      }
      assertEquals("delivered", latest.at("/notifications/0/status").asText(), latest.toString());
    }
  }
}
