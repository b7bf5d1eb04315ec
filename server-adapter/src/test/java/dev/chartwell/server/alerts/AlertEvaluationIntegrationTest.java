package dev.chartwell.server.alerts;

import static dev.chartwell.server.alerts.AlertHarness.events;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts evaluated by a real server over events sent to it, on a clock the test moves: groups,
 * empty windows, PENDING, renotify, silence, every threshold type at its boundary, saved searches,
 * and backfill after a restart; notifications checked at a real receiver, history and state through
 * the API.
 */
class AlertEvaluationIntegrationTest {
  static final Instant T = Instant.parse("2026-03-02T10:00:00Z");

  @TempDir Path dataDir;
  final MutableClock clock = new MutableClock(T.plusSeconds(30));
  AlertHarness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new AlertHarness(dataDir, clock);
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  /** Moves the clock a second past the end of minute {@code m} after T and evaluates. */
  Alerts.Tick tickAfterMinute(int m) throws Exception {
    clock.set(T.plus(Duration.ofMinutes(m)).plusSeconds(1));
    Alerts.Tick t = h.alerts().tick();
    h.alerts().deliverDue();
    return t;
  }

  @Test
  void eachGroupFiresAndResolvesOnItsOwnAndSaysWhichGroupItIs() throws Exception {
    String alert = h.tileAlert(h.errorTile("ServiceName"), tileRules("above", 3, null));
    List<String[]> first = new ArrayList<>(events(T.plusSeconds(5), 5, "api", "error"));
    first.addAll(events(T.plusSeconds(50), 2, "web", "error"));
    first.addAll(events(T.plusSeconds(20), 9, "api", "info"));
    h.ingest(first);
    assertEquals(1, tickAfterMinute(1).evaluated());
    List<JsonNode> sent = h.notifications();
    assertEquals(1, sent.size(), sent.toString());
    JsonNode n = sent.get(0);
    assertEquals("ALERT", n.get("state").asText());
    assertEquals("ServiceName:api", n.get("group").asText());
    assertEquals(5, n.get("value").asInt());
    assertEquals("3", n.get("threshold").asText());
    assertEquals(T.toEpochMilli(), n.get("startTime").asLong());
    assertEquals(T.plusSeconds(60).toEpochMilli(), n.get("endTime").asLong());
    assertEquals(alert, n.get("alertId").asText());
    assertEquals(
        "🚨 Alert for \"Errors\" in \"Checkout\" - 5 meets or exceeds 3", n.get("title").asText());
    assertEquals(
        "Group: \"ServiceName:api\"\n5 meets or exceeds 3\n"
            + "Time Range (UTC): [Mar 2 10:00:00 AM - Mar 2 10:01:00 AM)\nCheckout is failing",
        n.get("body").asText());
    assertEquals("", n.get("link").asText(), "no --frontend-url");
    Receiver.Received raw = h.receiver.received().get(0);
    assertEquals("application/json", raw.headers().get("content-type"));
    assertTrue(raw.headers().get("idempotency-key").matches("[0-9a-f]{32}"));
    assertEquals("ALERT", h.alert(alert).get("state").asText());

    JsonNode history = h.history(alert);
    assertEquals(2, history.size(), history.toString());
    JsonNode api =
        history.get(0).get("group").asText().equals("ServiceName:api")
            ? history.get(0)
            : history.get(1);
    JsonNode web = api == history.get(0) ? history.get(1) : history.get(0);
    assertEquals("2026-03-02T10:00:00Z", api.get("windowStart").asText());
    assertEquals("2026-03-02T10:01:00Z", api.get("windowEnd").asText());
    assertEquals(5, api.get("value").asInt());
    assertEquals("ALERT", api.get("state").asText());
    assertTrue(api.get("notified").asBoolean());
    JsonNode delivery = api.get("notifications").get(0);
    assertEquals("ALERT", delivery.get("kind").asText());
    assertEquals("delivered", delivery.get("status").asText());
    assertEquals(1, delivery.get("attempts").asInt());
    assertEquals(200, delivery.get("statusCode").asInt());
    assertEquals(raw.headers().get("idempotency-key"), delivery.get("idempotencyKey").asText());
    assertEquals("OK", web.get("state").asText());
    assertFalse(web.get("notified").asBoolean());

    // The next minute api has one error: it resolves; web sends nothing and is OK.
    h.ingest(events(T.plusSeconds(70), 1, "api", "error"));
    tickAfterMinute(2);
    sent = h.notifications();
    assertEquals(2, sent.size());
    assertEquals("OK", sent.get(1).get("state").asText());
    assertEquals("ServiceName:api", sent.get(1).get("group").asText());
    assertEquals(n.get("eventId"), sent.get(1).get("eventId"), "pairs with its ALERT");
    assertEquals(
        "Group: \"ServiceName:api\" - The alert has been resolved.\n"
            + "Time Range (UTC): [Mar 2 10:01:00 AM - Mar 2 10:02:00 AM)\nCheckout is failing",
        sent.get(1).get("body").asText());
    assertEquals("OK", h.alert(alert).get("state").asText());
    history = h.history(alert);
    assertEquals(4, history.size(), "web had no rows: it counts as 0");
    assertEquals("2026-03-02T10:02:00Z", history.get(0).get("windowEnd").asText());
    assertEquals(
        Set.of("ServiceName:api", "ServiceName:web"),
        Set.of(history.get(0).get("group").asText(), history.get(1).get("group").asText()));

    // A third minute without rows: api, which had rows, counts as 0 once; web is forgotten.
    tickAfterMinute(3);
    history = h.history(alert);
    assertEquals(5, history.size());
    assertEquals("ServiceName:api", history.get(0).get("group").asText());
    assertTrue(history.get(0).get("noRows").asBoolean());
    tickAfterMinute(4);
    assertEquals(5, h.history(alert).size(), "both OK without rows: nothing left to evaluate");
    assertEquals(2, h.notifications().size());
  }

  static String tileRules(String type, double threshold, Double max) {
    return "\"thresholdType\":\""
        + type
        + "\",\"threshold\":"
        + threshold
        + (max == null ? "" : ",\"thresholdMax\":" + max)
        + ",\"name\":null,\"message\":\"Checkout is failing\"";
  }

  @Test
  void aWindowWithoutRowsCountsAsZero() throws Exception {
    String alert = h.tileAlert(h.errorTile(null), "\"thresholdType\":\"below\",\"threshold\":1");
    tickAfterMinute(1);
    assertEquals(1, h.notifications().size());
    assertEquals(0, h.notifications().get(0).get("value").asInt());
    JsonNode entry = h.history(alert).get(0);
    assertEquals(0, entry.get("value").asInt());
    assertTrue(entry.get("noRows").asBoolean());
    h.ingest(events(T.plusSeconds(61), 1, "api", "error"));
    tickAfterMinute(2);
    assertEquals("OK", h.notifications().get(1).get("state").asText());
  }

  @Test
  void pendingUntilNumConsecutiveWindowsThenAlert() throws Exception {
    String alert =
        h.tileAlert(
            h.errorTile(null),
            "\"thresholdType\":\"below\",\"threshold\":1,\"numConsecutiveWindows\":3");
    tickAfterMinute(1);
    assertEquals("PENDING", h.alert(alert).get("state").asText());
    tickAfterMinute(2);
    assertEquals(List.of(), h.receiver.received());
    tickAfterMinute(3);
    assertEquals("ALERT", h.alert(alert).get("state").asText());
    assertEquals(1, h.receiver.received().size());
    List<String> states = new ArrayList<>();
    h.history(alert).forEach(e -> states.add(e.get("state").asText()));
    assertEquals(List.of("ALERT", "PENDING", "PENDING"), states, "newest first");
  }

  @Test
  void noRepeatsByDefaultRenotifyRepeatsAndSilenceSuppressesSendsNotHistory() throws Exception {
    String[] tile = h.errorTile(null);
    String quiet =
        h.tileAlert(tile, "\"thresholdType\":\"below\",\"threshold\":1,\"name\":\"quiet\"");
    String loud =
        h.tileAlert(
            tile,
            "\"thresholdType\":\"below\",\"threshold\":1,\"name\":\"loud\","
                + "\"renotifyIntervalMinutes\":2");
    for (int m = 1; m <= 5; m++) {
      tickAfterMinute(m);
    }
    List<String> titles = new ArrayList<>();
    h.notifications().forEach(n -> titles.add(n.get("title").asText()));
    assertEquals(
        List.of("🚨 loud", "🚨 loud", "🚨 loud", "🚨 quiet"),
        sorted(titles),
        "loud repeats at minutes 3 and 5; quiet never");
    // Silence both until minute 8: evaluation and history go on, nothing is sent.
    String until = T.plus(Duration.ofMinutes(8)).plusSeconds(30).toString();
    for (String id : List.of(quiet, loud)) {
      JsonNode a = h.alert(id);
      ((com.fasterxml.jackson.databind.node.ObjectNode) a)
          .remove(List.of("id", "state", "createdAt", "updatedAt"));
      ((com.fasterxml.jackson.databind.node.ObjectNode) a)
          .putObject("silenced")
          .put("until", until);
      JsonNode saved = h.ok("PUT", h.cs("alerts") + "/" + id, a.toString());
      assertEquals(until, saved.get("silenced").get("until").asText());
      assertTrue(saved.get("silenced").has("at"), "filled in when saved");
      assertEquals("ALERT", saved.get("state").asText(), "a replacement keeps the state");
    }
    for (int m = 6; m <= 8; m++) {
      tickAfterMinute(m);
    }
    assertEquals(4, h.receiver.received().size(), "silenced");
    assertEquals("2026-03-02T10:08:00Z", h.history(loud).get(0).get("windowEnd").asText());
    JsonNode suppressed = null;
    for (JsonNode e : h.history(loud)) {
      if (e.get("notifications").size() > 0
          && e.get("notifications").get(0).get("status").asText().equals("silenced")) {
        suppressed = e;
      }
    }
    assertTrue(
        suppressed != null, "the repeats due at minutes 7 and 8 are in the history as silenced");
    assertFalse(suppressed.get("notified").asBoolean());
    assertEquals(
        "silenced until " + until, suppressed.get("notifications").get(0).get("reason").asText());
    tickAfterMinute(9);
    assertEquals(5, h.receiver.received().size(), "the silence is over: loud's repeat is sent");
  }

  static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    java.util.Collections.sort(s);
    return s;
  }

  @Test
  void everyThresholdTypeAtItsBoundary() throws Exception {
    String[] tile = h.errorTile(null);
    String[][] alerts = {
      {"above", "5", null, "fires"},
      {"above_exclusive", "5", null, "quiet"},
      {"below", "5", null, "quiet"},
      {"below_or_equal", "5", null, "fires"},
      {"equal", "5", null, "fires"},
      {"not_equal", "5", null, "quiet"},
      {"between", "5", "7", "fires"},
      {"between", "3", "5", "fires"},
      {"not_between", "5", "7", "quiet"},
      {"not_between", "6", "9", "fires"},
    };
    Set<String> expected = new TreeSet<>();
    for (String[] a : alerts) {
      String name = a[0] + " " + a[1] + (a[2] == null ? "" : ".." + a[2]);
      h.tileAlert(
          tile,
          "\"thresholdType\":\""
              + a[0]
              + "\",\"threshold\":"
              + a[1]
              + (a[2] == null ? "" : ",\"thresholdMax\":" + a[2])
              + ",\"name\":\""
              + name
              + "\"");
      if (a[3].equals("fires")) {
        expected.add("🚨 " + name);
      }
    }
    h.ingest(events(T.plusSeconds(10), 5, "api", "error"));
    assertEquals(alerts.length, tickAfterMinute(1).evaluated());
    Set<String> fired = new TreeSet<>();
    h.notifications().forEach(n -> fired.add(n.get("title").asText()));
    assertEquals(expected, fired);
  }

  @Test
  void aSavedSearchAlertCountsTheSearchWithItsFiltersPerGroup() throws Exception {
    String search =
        h.ok(
                "POST",
                h.cs("saved-searches"),
                "{\"name\":\"Checkout errors\",\"sourceId\":\""
                    + h.source
                    + "\",\"where\":\"SeverityText:error\","
                    + "\"filters\":[{\"type\":\"sql\",\"condition\":\"ServiceName IN ('api', 'web')\"}]}")
            .get("id")
            .asText();
    String alert =
        h.ok(
                "POST",
                h.cs("alerts"),
                "{\"source\":\"saved_search\",\"savedSearchId\":\""
                    + search
                    + "\",\"groupBy\":\"ServiceName\",\"threshold\":2,\"thresholdType\":\"above\","
                    + "\"interval\":\"5m\",\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
                    + h.webhook
                    + "\"}}")
            .get("id")
            .asText();
    List<String[]> ev = new ArrayList<>(events(T.plusSeconds(100), 3, "api", "error"));
    ev.addAll(events(T.plusSeconds(100), 1, "web", "error"));
    ev.addAll(events(T.plusSeconds(100), 9, "db", "error"));
    ev.addAll(events(T.plusSeconds(299), 2, "web", "error"));
    ev.addAll(events(T.plusSeconds(300), 5, "web", "error")); // the next window
    h.ingest(ev);
    tickAfterMinute(4);
    assertEquals(0, h.history(alert).size(), "the 5-minute window has not closed");
    tickAfterMinute(5);
    List<String> found = new ArrayList<>();
    h.notifications()
        .forEach(n -> found.add(n.get("group").asText() + "=" + n.get("value").asInt()));
    assertEquals(
        List.of("ServiceName:api=3", "ServiceName:web=3"), sorted(found), "db is filtered out");
    assertEquals(
        "🚨 Alert for \"Checkout errors\" - 3 lines found",
        h.notifications().get(0).get("title").asText());
    assertTrue(
        h.notifications()
            .get(0)
            .get("body")
            .asText()
            .contains(
                "3 lines found, which meets or exceeds the threshold of 2 lines\n"
                    + "Time Range (UTC): [Mar 2 10:00:00 AM - Mar 2 10:05:00 AM)"));
  }

  @Test
  void missedWindowsAreBackfilledAfterARestartAndTheStateSurvivesIt() throws Exception {
    String alert = h.tileAlert(h.errorTile(null), "\"thresholdType\":\"below\",\"threshold\":1");
    tickAfterMinute(1);
    assertEquals(1, h.receiver.received().size());
    h.server.close();
    clock.set(T.plus(Duration.ofMinutes(6)).plusSeconds(1)); // down for five minutes
    h.start();
    assertEquals("ALERT", h.alert(alert).get("state").asText(), "read back from the history");
    h.ingest(events(T.plus(Duration.ofMinutes(4)), 1, "api", "error"));
    Alerts.Tick t = h.alerts().tick();
    h.alerts().deliverDue();
    assertEquals(5, t.evaluated(), "minutes 2 to 6");
    List<String> states = new ArrayList<>();
    h.history(alert)
        .forEach(
            e ->
                states.add(
                    e.get("windowEnd").asText().substring(14, 16) + e.get("state").asText()));
    assertEquals(List.of("06ALERT", "05OK", "04ALERT", "03ALERT", "02ALERT", "01ALERT"), states);
    List<String> sent = new ArrayList<>();
    h.notifications()
        .forEach(n -> sent.add(n.get("state").asText() + "@" + n.get("endTime").asLong()));
    assertEquals(
        List.of(
            "ALERT@" + T.plusSeconds(60).toEpochMilli(),
            "OK@" + T.plusSeconds(300).toEpochMilli(),
            "ALERT@" + T.plusSeconds(360).toEpochMilli()),
        sent,
        "no repeat of the first ALERT after the restart; the backfilled windows notify in order");
  }
}
