package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.MutableClock;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delivery through a real server to a real receiver: retries until delivered with one idempotency
 * key, a receiver that hangs, what is never retried, the history's record of each outcome, the test
 * message, and the API's rules for webhooks, alerts and history requests.
 */
class AlertDeliveryIntegrationTest {
  static final Instant T = Instant.parse("2026-03-02T10:00:00Z");

  @TempDir Path dataDir;
  final MutableClock clock = new MutableClock(T.plusSeconds(30));
  AlertHarness h;

  @AfterEach
  void tearDown() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  /** An alert that fires at its first window: fewer than 1 error in a window without events. */
  String firingAlert() throws Exception {
    return h.tileAlert(h.errorTile(null), "\"thresholdType\":\"below\",\"threshold\":1");
  }

  void evaluateFirstWindow() {
    clock.set(T.plusSeconds(61));
    assertEquals(1, h.alerts().tick().evaluated());
  }

  JsonNode delivery(String alert) throws Exception {
    return h.history(alert).get(0).get("notifications").get(0);
  }

  @Test
  void aReceiverThatFailsTwiceThenSucceedsGetsOneIdempotencyKey() throws Exception {
    h = new AlertHarness(dataDir, clock);
    h.receiver.answer(503, 500);
    String alert = firingAlert();
    evaluateFirstWindow();
    assertEquals(1, h.alerts().deliverDue());
    JsonNode d = delivery(alert);
    assertEquals("retrying", d.get("status").asText());
    assertEquals(1, d.get("attempts").asInt());
    assertEquals(503, d.get("statusCode").asInt());
    assertEquals("the receiver answered 503", d.get("error").asText());
    long next = Instant.parse(d.get("nextAttemptAt").asText()).toEpochMilli();
    long waited = next - clock.millis();
    assertTrue(waited >= 5_000 && waited <= 15_000, "10 s ± 50%: " + waited);
    assertEquals(0, h.alerts().deliverDue(), "not before its time");
    clock.set(Instant.ofEpochMilli(next));
    assertEquals(1, h.alerts().deliverDue());
    d = delivery(alert);
    assertEquals(2, d.get("attempts").asInt());
    next = Instant.parse(d.get("nextAttemptAt").asText()).toEpochMilli();
    waited = next - clock.millis();
    assertTrue(waited >= 15_000 && waited <= 45_000, "30 s ± 50%: " + waited);
    clock.set(Instant.ofEpochMilli(next));
    assertEquals(1, h.alerts().deliverDue());
    d = delivery(alert);
    assertEquals("delivered", d.get("status").asText());
    assertEquals(3, d.get("attempts").asInt());
    List<Receiver.Received> got = h.receiver.received();
    assertEquals(3, got.size());
    assertEquals(
        1,
        new HashSet<>(got.stream().map(r -> r.headers().get("idempotency-key")).toList()).size());
    assertEquals(d.get("idempotencyKey").asText(), got.get(0).headers().get("idempotency-key"));
    assertFalse(h.alert(alert).has("executionErrors"));
    assertEquals(0, h.alerts().pendingNotifications());
  }

  @Test
  void aReceiverThatHangsIsGivenUpAfterTheAttemptsAndTheAlertSaysSo() throws Exception {
    h = new AlertHarness(dataDir, clock, "--webhook-timeout", "300ms", "--webhook-attempts", "2");
    h.receiver.answer(0, 0);
    String alert = firingAlert();
    evaluateFirstWindow();
    h.alerts().deliverDue();
    assertEquals("no answer within 300 ms", delivery(alert).get("error").asText());
    clock.advance(Duration.ofMinutes(1));
    h.alerts().deliverDue();
    JsonNode d = delivery(alert);
    assertEquals("failed", d.get("status").asText());
    assertEquals(2, d.get("attempts").asInt());
    assertTrue(h.history(alert).get(0).get("notified").asBoolean(), "sent, if not received");
    JsonNode errors = h.alert(alert).get("executionErrors");
    assertEquals(1, errors.size());
    assertEquals("WEBHOOK_ERROR", errors.get(0).get("type").asText());
    assertEquals(
        "failed to notify webhook 'on-call' after 2 attempts: no answer within 300 ms",
        errors.get(0).get("message").asText());
    assertEquals(0, h.alerts().pendingNotifications());
  }

  @Test
  void otherClientErrorsAndRedirectsAreNotRetried() throws Exception {
    h = new AlertHarness(dataDir, clock);
    h.receiver.answer(410);
    String alert = firingAlert();
    evaluateFirstWindow();
    h.alerts().deliverDue();
    JsonNode d = delivery(alert);
    assertEquals("failed", d.get("status").asText());
    assertEquals(1, d.get("attempts").asInt());
    assertEquals(410, d.get("statusCode").asInt());
    assertEquals(1, h.receiver.received().size());
  }

  @Test
  void theDeprecatedDenyPrivateRestrictsALoopbackServerAtDeliveryTime() throws Exception {
    h = new AlertHarness(dataDir, clock, "--webhook-deny-private");
    String alert = firingAlert();
    evaluateFirstWindow();
    h.alerts().deliverDue();
    JsonNode d = delivery(alert);
    assertEquals("failed", d.get("status").asText());
    assertEquals(
        "127.0.0.1 is a loopback address; the outbound address policy refuses it"
            + " (--allow-outbound can allow it)",
        d.get("error").asText());
    assertEquals(List.of(), h.receiver.received());
    JsonNode test = h.ok("POST", h.cs("webhooks") + "/" + h.webhook + "/test", "{}");
    assertFalse(test.get("delivered").asBoolean());
    assertEquals(List.of(), h.receiver.received(), "the test message is refused too");
  }

  @Test
  void theTestMessageGoesOutAtOnce() throws Exception {
    h = new AlertHarness(dataDir, clock, "--frontend-url", "https://ui.example.com/");
    JsonNode r = h.ok("POST", h.cs("webhooks") + "/" + h.webhook + "/test", "{}");
    assertEquals("{\"delivered\":true,\"statusCode\":200}", r.toString());
    JsonNode sent = h.notifications().get(0);
    assertEquals("Test notification from Chartwell", sent.get("title").asText());
    assertEquals("INSUFFICIENT_DATA", sent.get("state").asText());
    assertEquals("https://ui.example.com/", sent.get("link").asText());
    h.receiver.answer(500);
    r = h.ok("POST", h.cs("webhooks") + "/" + h.webhook + "/test", "{}");
    assertEquals(
        "{\"delivered\":false,\"statusCode\":500,\"error\":\"the receiver answered 500\"}",
        r.toString());
    assertEquals(
        "NOT_FOUND: webhook 0123456789abcdef01234567 does not exist",
        h.error(h.send("POST", h.cs("webhooks") + "/0123456789abcdef01234567/test", "{}"), 404));
  }

  /**
   * A browser that keeps Basic credentials for the server (after our {@code WWW-Authenticate})
   * would send them with a cross-site form's POST; no form can send {@code application/json}.
   */
  @Test
  void theTestMessageNeedsJsonSoThatNoCrossSiteFormCanSendIt() throws Exception {
    h = new AlertHarness(dataDir, clock);
    String path = h.cs("webhooks") + "/" + h.webhook + "/test";
    String[][] forms = {
      {"application/x-www-form-urlencoded", "a=b"},
      {
        "multipart/form-data; boundary=x",
        "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--x--\r\n"
      },
      {"text/plain", "{}"},
      {"text/plain;charset=utf-8", ""}
    };
    for (String[] form : forms) {
      HttpResponse<String> r =
          h.http.sendAsIs(
              "POST", path, form[1], "Authorization", AlertHarness.ADMIN, "Content-Type", form[0]);
      assertEquals(
          "UNSUPPORTED_MEDIA_TYPE: Content-Type must be application/json, got '" + form[0] + "'",
          h.error(r, 415),
          form[0]);
    }
    assertEquals(
        "UNSUPPORTED_MEDIA_TYPE: a Content-Type header is required: application/json",
        h.error(h.http.sendAsIs("POST", path, null, "Authorization", AlertHarness.ADMIN), 415));
    assertEquals(List.of(), h.receiver.received(), "nothing was sent");
    JsonNode r =
        AlertHarness.MAPPER
            .readTree(
                h.http
                    .sendAsIs(
                        "POST",
                        path,
                        null,
                        "Authorization",
                        AlertHarness.ADMIN,
                        "Content-Type",
                        "application/json")
                    .body())
            .get("result");
    assertEquals("{\"delivered\":true,\"statusCode\":200}", r.toString(), "JSON without a body");
    assertEquals("{\"delivered\":true,\"statusCode\":200}", h.ok("POST", path, "{}").toString());
    assertEquals(2, h.receiver.received().size());
  }

  @Test
  void linksGoToTheFrontendAndSlackGetsItsShape() throws Exception {
    h = new AlertHarness(dataDir, clock, "--frontend-url", "https://ui.example.com");
    String slack =
        h.ok(
                "POST",
                h.cs("webhooks"),
                "{\"name\":\"slack\",\"service\":\"slack\",\"url\":\"" + h.receiver.url() + "\"}")
            .get("id")
            .asText();
    String[] tile = h.errorTile(null);
    h.ok(
        "POST",
        h.cs("alerts"),
        "{\"dashboardId\":\""
            + tile[0]
            + "\",\"tileId\":\""
            + tile[1]
            + "\",\"interval\":\"1m\",\"thresholdType\":\"below\",\"threshold\":1,"
            + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
            + slack
            + "\"}}");
    evaluateFirstWindow();
    h.alerts().deliverDue();
    JsonNode sent = h.notifications().get(0);
    String link =
        "https://ui.example.com/dashboards/"
            + tile[0]
            + "?from="
            + T.minusSeconds(7 * 60).toEpochMilli()
            + "&granularity=1%20minute&to="
            + T.plusSeconds(8 * 60).toEpochMilli()
            + "&highlightedTileId="
            + tile[1];
    String title = "🚨 Alert for \"Errors\" in \"Checkout\" - 0 falls below 1";
    assertEquals(title, sent.get("text").asText());
    assertEquals(
        "*<"
            + link
            + " | "
            + title
            + ">*\n0 falls below 1\n"
            + "Time Range (UTC): [Mar 2 10:00:00 AM - Mar 2 10:01:00 AM)",
        sent.at("/blocks/0/text/text").asText());
  }

  /**
   * Slack reads {@code <...>} in its text as a link or a mention and {@code &} as an entity: every
   * value Chartwell did not write (alert, tile, dashboard and webhook names, group values, the
   * alert's message) reaches Slack escaped, and only Chartwell's own link is a link.
   */
  @Test
  void slackTextEscapesEveryValueChartwellDidNotWrite() throws Exception {
    h = new AlertHarness(dataDir, clock, "--frontend-url", "https://ui.example.com");
    String slack =
        h.ok(
                "POST",
                h.cs("webhooks"),
                "{\"name\":\"<https://evil.example|hook> & co\",\"service\":\"slack\",\"url\":\""
                    + h.receiver.url()
                    + "\"}")
            .get("id")
            .asText();
    String hostile = "<https://evil.example|click> & <!channel>";
    JsonNode d =
        h.ok(
            "POST",
            h.cs("dashboards"),
            "{\"name\":\"Checkout & <!here>\",\"tiles\":[{\"name\":\""
                + hostile
                + "\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,\"config\":{\"displayType\":\"line\","
                + "\"sourceId\":\""
                + h.source
                + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}],"
                + "\"groupBy\":\"ServiceName\"}}]}");
    String channel = "\"channel\":{\"type\":\"webhook\",\"webhookId\":\"" + slack + "\"}";
    String rest =
        "\"source\":\"tile\",\"dashboardId\":\""
            + d.get("id").asText()
            + "\",\"tileId\":\""
            + d.at("/tiles/0/id").asText()
            + "\",\"interval\":\"1m\",\"thresholdType\":\"above\",\"threshold\":1,"
            + channel;
    h.ok(
        "POST",
        h.cs("alerts"),
        "{" + rest + ",\"message\":\"runbook: <https://evil.example|here> & <@U123>\"}");
    h.ok("POST", h.cs("alerts"), "{" + rest + ",\"name\":\"" + hostile + "\"}");
    h.ingest(AlertHarness.events(T.plusSeconds(10), 2, "<https://evil.example|api>", "error"));
    clock.set(T.plusSeconds(61));
    h.alerts().tick();
    h.alerts().deliverDue();
    List<JsonNode> sent = h.notifications();
    assertEquals(2, sent.size(), sent.toString());
    String escaped = "&lt;https://evil.example|click&gt; &amp; &lt;!channel&gt;";
    for (JsonNode n : sent) {
      String text = n.get("text").asText();
      String mrkdwn = n.at("/blocks/0/text/text").asText();
      assertFalse(text.contains("<") || text.contains(">"), text);
      // Chartwell's link is the only one: one '<' and one '>' in the whole text.
      assertEquals(1, mrkdwn.chars().filter(c -> c == '<').count(), mrkdwn);
      assertEquals(1, mrkdwn.chars().filter(c -> c == '>').count(), mrkdwn);
      assertTrue(mrkdwn.startsWith("*<https://ui.example.com/dashboards/"), mrkdwn);
      assertTrue(
          mrkdwn.contains("\nGroup: \"ServiceName:&lt;https://evil.example|api&gt;\"\n"), mrkdwn);
      assertTrue(text.contains(escaped), text);
      assertTrue(mrkdwn.contains(escaped + ">*\n") || mrkdwn.contains(escaped + "\" in"), mrkdwn);
    }
    String unnamed =
        sent.stream()
            .map(n -> n.at("/blocks/0/text/text").asText())
            .filter(t -> t.contains("Alert for"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        unnamed.contains(
            " | 🚨 Alert for \"" + escaped + "\" in \"Checkout &amp; &lt;!here&gt;\" - 2 "),
        unnamed);
    assertTrue(
        unnamed.endsWith("\nrunbook: &lt;https://evil.example|here&gt; &amp; &lt;@U123&gt;"),
        unnamed);

    JsonNode test = h.ok("POST", h.cs("webhooks") + "/" + slack + "/test", "{}");
    assertTrue(test.get("delivered").asBoolean(), test.toString());
    String body = h.notifications().get(2).at("/blocks/0/text/text").asText();
    assertTrue(
        body.contains("webhook '&lt;https://evil.example|hook&gt; &amp; co' is configured"), body);
    assertEquals(1, body.chars().filter(c -> c == '<').count(), body);
  }

  @Test
  void unresolvableAlertsSayWhyAndAreNotEvaluated() throws Exception {
    h = new AlertHarness(dataDir, clock);
    String[] tile = h.errorTile(null);
    String alert = h.tileAlert(tile, "\"thresholdType\":\"below\",\"threshold\":1");
    // The dashboard is replaced without the tile: the alert stays, but has nothing to watch.
    h.ok(
        "PUT",
        h.cs("dashboards") + "/" + tile[0],
        "{\"name\":\"Checkout\",\"tiles\":[{\"name\":\"Notes\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,"
            + "\"config\":{\"displayType\":\"markdown\",\"markdown\":\"x\"}}]}");
    clock.set(T.plusSeconds(61));
    assertEquals(0, h.alerts().tick().evaluated());
    JsonNode a = h.alert(alert);
    assertEquals("OK", a.get("state").asText());
    assertEquals("INVALID_ALERT", a.at("/executionErrors/0/type").asText());
    assertEquals(
        "tile " + tile[1] + " is no longer on dashboard 'Checkout'",
        a.at("/executionErrors/0/message").asText());
    assertEquals(0, h.history(alert).size());
  }

  @Test
  void theApiRefusesWhatCannotBeSentOrRead() throws Exception {
    h = new AlertHarness(dataDir, clock);
    assertEquals(
        "BAD_REQUEST: body: unknown template variable 'severity'; the variables are title, body,"
            + " link, state, startTime, endTime, eventId, value, threshold, group, alertId",
        h.error(
            h.send(
                "POST",
                h.cs("webhooks"),
                "{\"name\":\"x\",\"service\":\"generic\",\"url\":\"https://h.example/\","
                    + "\"body\":\"{{severity}}\"}"),
            400));
    assertEquals(
        "BAD_REQUEST: headers.Bad Name: is not a valid header name (letters, digits and"
            + " !#$%&'*+-.^_`|~); headers.Host: is set by Chartwell and cannot be given;"
            + " headers.X-A: must not contain line breaks or control characters",
        h.error(
            h.send(
                "POST",
                h.cs("webhooks"),
                "{\"name\":\"x\",\"service\":\"generic\",\"url\":\"https://h.example/\","
                    + "\"headers\":{\"Bad Name\":\"1\",\"Host\":\"x\",\"X-A\":\"a\\r\\nX-B: b\"}}"),
            400));
    String[] tile = h.errorTile(null);
    String base =
        "\"dashboardId\":\""
            + tile[0]
            + "\",\"tileId\":\""
            + tile[1]
            + "\",\"interval\":\"1m\",\"thresholdType\":\"above\",\"threshold\":1,"
            + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
            + h.webhook
            + "\"}";
    assertEquals(
        "BAD_REQUEST: renotifyIntervalMinutes: must be an integer from 1 to 10080;"
            + " silenced.until: is required",
        h.error(
            h.send(
                "POST",
                h.cs("alerts"),
                "{" + base + ",\"renotifyIntervalMinutes\":0,\"silenced\":{\"by\":\"me\"}}"),
            400));
    String alert =
        h.tileAlert(tile, "\"thresholdType\":\"above\",\"threshold\":1,\"silenced\":null");
    String history = h.cs("alerts") + "/" + alert + "/history";
    assertEquals(
        "BAD_REQUEST: limit: must be an integer from 1 to 1000, got '0'",
        h.error(h.send("GET", history + "?limit=0", null), 400));
    assertEquals(
        "BAD_REQUEST: before: must be an ISO-8601 date and time with an offset, such as"
            + " 2026-02-08T10:00:00Z, got 'yesterday'",
        h.error(h.send("GET", history + "?before=yesterday", null), 400));
    assertEquals(
        "NOT_FOUND: alert 0123456789abcdef01234567 does not exist",
        h.error(h.send("GET", h.cs("alerts") + "/0123456789abcdef01234567/history", null), 404));
  }

  @Test
  void historyPagesByWindowNewestFirst() throws Exception {
    h = new AlertHarness(dataDir, clock);
    String alert = firingAlert();
    for (int m = 1; m <= 5; m++) {
      clock.set(T.plus(Duration.ofMinutes(m)).plusSeconds(1));
      h.alerts().tick();
    }
    String path = h.cs("alerts") + "/" + alert + "/history";
    JsonNode page = h.ok("GET", path + "?limit=2", null);
    assertEquals(2, page.size());
    assertEquals("2026-03-02T10:05:00Z", page.get(0).get("windowEnd").asText());
    assertEquals("2026-03-02T10:04:00Z", page.get(1).get("windowEnd").asText());
    page = h.ok("GET", path + "?limit=2&before=2026-03-02T10:04:00Z", null);
    assertEquals("2026-03-02T10:03:00Z", page.get(0).get("windowEnd").asText());
    page = h.ok("GET", path + "?before=2026-03-02T10:02:00Z", null);
    assertEquals(1, page.size());
    assertEquals(
        "pending", page.get(0).at("/notifications/0/status").asText(), "not delivered yet");
    assertTrue(page.get(0).get("notified").asBoolean());
    assertEquals(5, h.history(alert).size());
    // HyperDX's API shows the same history under /api/v2, in its {data: ...} envelope.
    HttpResponse<String> v2 =
        h.http.send(
            "GET",
            "/api/v2/alerts/" + alert + "/history?limit=2",
            null,
            "Authorization",
            "Bearer " + h.token);
    assertEquals(200, v2.statusCode(), v2.body());
    JsonNode data = new ObjectMapper().readTree(v2.body()).get("data");
    assertEquals(2, data.size());
    assertEquals("2026-03-02T10:05:00Z", data.get(0).get("windowEnd").asText());
    HttpResponse<String> missing =
        h.http.send(
            "GET",
            "/api/v2/alerts/0123456789abcdef01234567/history",
            null,
            "Authorization",
            "Bearer " + h.token);
    assertEquals(404, missing.statusCode(), missing.body());
  }
}
