package dev.chartwell.server.alerts;

import static dev.chartwell.server.alerts.AlertHarness.events;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.clickhouse.local.LocalClickHouse;
import dev.chartwell.server.LocalClickHouses;
import dev.chartwell.server.MutableClock;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alert evaluation on a source that reads a table of an external ClickHouse: the window's query
 * runs there (one statement per window), groups fire and resolve as on a built-in source, and a
 * server that stops answering leaves the window due with an error naming the connection.
 */
class ClickHouseAlertIntegrationTest {
  static final Instant T = Instant.parse("2026-03-02T10:00:00Z");
  static LocalClickHouse ch;

  @TempDir Path dataDir;
  final MutableClock clock = new MutableClock(T.plusSeconds(30));
  AlertHarness h;

  @BeforeAll
  static void startClickHouse() throws Exception {
    ch = LocalClickHouses.start(ClickHouseAlertIntegrationTest.class, "");
    ch.query(
        "CREATE TABLE default.alert_logs (Timestamp DateTime, ServiceName String,"
            + " SeverityText String, Body String) ENGINE = MergeTree ORDER BY Timestamp");
  }

  @AfterAll
  static void stopClickHouse() throws Exception {
    if (ch != null) {
      ch.close();
      ch.deleteFiles();
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void groupsFireAndResolveFromClickHouseAnswers() throws Exception {
    h = new AlertHarness(dataDir, clock);
    HttpResponse<String> r =
        h.http.send(
            "POST",
            "/api/v2/connections",
            "{\"name\":\"ch-alerts\",\"host\":\"" + ch.url() + "\",\"username\":\"default\"}",
            "Authorization",
            "Bearer " + h.token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    String connection = AlertHarness.MAPPER.readTree(r.body()).get("data").get("id").asText();
    h.source =
        h.ok(
                "POST",
                h.cs("sources"),
                "{\"name\":\"remote logs\",\"kind\":\"log\",\"connection\":\""
                    + connection
                    + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"alert_logs\"}}")
            .get("id")
            .asText();
    String alert =
        h.tileAlert(
            h.errorTile("ServiceName"),
            "\"threshold\":3,\"thresholdType\":\"above\",\"name\":\"errors\"");
    List<String[]> first = new ArrayList<>(events(T.plusSeconds(5), 5, "api", "error"));
    first.addAll(events(T.plusSeconds(50), 2, "web", "error"));
    first.addAll(events(T.plusSeconds(20), 9, "api", "info"));
    h.ingest(first);
    assertEquals(5 + 2 + 9, Integer.parseInt(ch.query("SELECT count() FROM alert_logs").trim()));
    tick(1);
    JsonNode history = h.history(alert);
    assertEquals(2, history.size(), history.toString());
    JsonNode api =
        history.get(0).get("group").asText().equals("ServiceName:api")
            ? history.get(0)
            : history.get(1);
    JsonNode web = api == history.get(0) ? history.get(1) : history.get(0);
    assertEquals(5, api.get("value").asInt(), history.toString());
    assertEquals("ALERT", api.get("state").asText());
    assertEquals(2, web.get("value").asInt());
    assertEquals("OK", web.get("state").asText());
    assertEquals("ALERT", h.alert(alert).get("state").asText());
    List<JsonNode> sent = h.notifications();
    assertEquals(1, sent.size(), sent.toString());
    assertEquals("ServiceName:api", sent.get(0).get("group").asText());

    // the next minute api has one error: it resolves
    h.ingest(events(T.plusSeconds(70), 1, "api", "error"));
    tick(2);
    assertEquals("OK", h.alert(alert).get("state").asText());

    // ClickHouse gone: the window stays due, with an error naming the connection
    ch.query("RENAME TABLE default.alert_logs TO default.alert_logs_away");
    try {
      tick(3);
      JsonNode a = h.alert(alert);
      assertEquals("INVALID_ALERT", a.at("/executionErrors/0/type").asText(), a.toString());
      assertTrue(a.at("/executionErrors/0/message").asText().contains("ch-alerts"), a.toString());
      assertEquals(4, h.history(alert).size(), "the failed window is not recorded");
    } finally {
      ch.query("RENAME TABLE default.alert_logs_away TO default.alert_logs");
    }
    tick(3);
    assertTrue(h.history(alert).size() > 4, "evaluated once ClickHouse answers again");
  }

  private void tick(int minute) throws Exception {
    clock.set(T.plus(Duration.ofMinutes(minute)).plusSeconds(1));
    h.alerts().tick();
    h.alerts().deliverDue();
  }
}
