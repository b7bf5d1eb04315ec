package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.security.OutboundPolicy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One delivery attempt against a real receiver on 127.0.0.1: what is sent, how each answer is
 * classified, the timeout, and the outbound address policy with addresses given by a resolver of
 * the test's (nothing here contacts any host but loopback).
 */
class WebhookClientTest {
  static final String REFUSES =
      "; the outbound address policy refuses it (--allow-outbound can allow it)";

  static final ObjectMapper MAPPER = new ObjectMapper();
  final Receiver receiver = receiver();
  final List<String> resolved = new ArrayList<>();

  static Receiver receiver() {
    try {
      return new Receiver();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() {
    receiver.close();
  }

  static Notification note() {
    return new Notification(
        "key-1",
        "a1",
        "s1",
        "w1",
        "ALERT",
        "🚨 Errors",
        "12 meets or exceeds 5",
        "",
        60_000,
        120_000,
        "event-1",
        12,
        "5",
        "ServiceName:api",
        120_000);
  }

  ObjectNode webhook(String url) {
    ObjectNode w = MAPPER.createObjectNode().put("name", "hook").put("service", "generic");
    w.put("url", url);
    return w;
  }

  WebhookClient client(Duration timeout, boolean restricted, Map<String, String> dns) {
    OutboundPolicy policy =
        restricted ? OutboundPolicy.restricted(List.of()) : OutboundPolicy.open();
    return new WebhookClient(
        timeout,
        policy.withResolver(
            host -> {
              resolved.add(host);
              if (dns.containsKey(host)) {
                List<InetAddress> out = new ArrayList<>();
                for (String a : dns.get(host).split(",")) {
                  out.add(InetAddress.getByName(a)); // literals only: no lookup
                }
                return out.toArray(InetAddress[]::new);
              }
              if (host.matches("[0-9.]+|.*:.*")) {
                return new InetAddress[] {InetAddress.getByName(host)}; // a literal: no lookup
              }
              throw new UnknownHostException(host);
            }));
  }

  WebhookClient.Outcome post(WebhookClient c, ObjectNode webhook) {
    return c.post(WebhookRequests.build(webhook, note(), MAPPER));
  }

  @Test
  void aGenericWebhookGetsItsTemplateHeadersAndQueryParameters() throws Exception {
    ObjectNode w = webhook(receiver.url() + "?a=1");
    w.put("body", "{\"text\":\"{{title}}\",\"value\":{{value}},\"group\":\"{{group}}\"}");
    w.putObject("headers").put("X-Token", "secret").put("Content-Type", "application/vnd+json");
    w.putObject("queryParams").put("team", "on call");
    WebhookClient.Outcome o = post(client(Duration.ofSeconds(5), false, Map.of()), w);
    assertEquals(new WebhookClient.Outcome(true, false, 200, null), o);
    Receiver.Received r = receiver.received().get(0);
    assertEquals("/hook?a=1&team=on+call", r.path());
    assertEquals("secret", r.headers().get("x-token"));
    assertEquals("application/vnd+json", r.headers().get("content-type"), "the webhook's wins");
    assertEquals("key-1", r.headers().get("idempotency-key"));
    assertEquals("{\"text\":\"🚨 Errors\",\"value\":12,\"group\":\"ServiceName:api\"}", r.body());
  }

  @Test
  void answersAreClassified() {
    receiver.answer(500, 503, 429, 404, 400, 302);
    WebhookClient c = client(Duration.ofSeconds(5), false, Map.of());
    ObjectNode w = webhook(receiver.url());
    assertEquals(
        new WebhookClient.Outcome(false, true, 500, "the receiver answered 500"), post(c, w));
    assertTrue(post(c, w).retryable());
    assertTrue(post(c, w).retryable(), "429");
    assertEquals(
        new WebhookClient.Outcome(false, false, 404, "the receiver answered 404"), post(c, w));
    assertFalse(post(c, w).retryable(), "400");
    assertEquals(
        new WebhookClient.Outcome(
            false, false, 302, "the receiver answered 302; redirects are not followed"),
        post(c, w));
    assertEquals(6, receiver.received().size(), "the redirect's Location was not visited");
  }

  @Test
  void aReceiverThatHangsTimesOut() {
    receiver.answer(0);
    WebhookClient.Outcome o =
        post(client(Duration.ofMillis(300), false, Map.of()), webhook(receiver.url()));
    assertEquals(new WebhookClient.Outcome(false, true, 0, "no answer within 300 ms"), o);
  }

  @Test
  void connectionErrorsAndUnknownHostsAreRetryable() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    WebhookClient c = client(Duration.ofSeconds(2), false, Map.of());
    WebhookClient.Outcome refused = post(c, webhook("http://127.0.0.1:" + closed + "/x"));
    assertTrue(refused.retryable() && !refused.delivered(), refused.toString());
    assertTrue(
        refused.error().startsWith("cannot deliver to 127.0.0.1:" + closed), refused.error());
    assertEquals(
        new WebhookClient.Outcome(false, true, 0, "cannot resolve nowhere.invalid"),
        post(c, webhook("http://nowhere.invalid/x")));
  }

  @Test
  void theOutboundPolicyChecksTheResolvedAddressesAndSendsNothing() {
    Map<String, String> dns =
        Map.of(
            "hooks.example.test", "10.1.2.3",
            "mixed.example.test", "203.0.113.7,169.254.169.254",
            "v6.example.test", "fd00::5");
    WebhookClient c = client(Duration.ofSeconds(2), true, dns);
    assertEquals(
        new WebhookClient.Outcome(
            false,
            false,
            0,
            "hooks.example.test resolves to 10.1.2.3, a private address" + REFUSES),
        post(c, webhook("https://hooks.example.test/x")));
    assertEquals(
        "mixed.example.test resolves to 169.254.169.254, a link-local address" + REFUSES,
        post(c, webhook("http://mixed.example.test/x")).error(),
        "one private address among public ones is enough");
    assertEquals(
        "fd00:0:0:0:0:0:0:5 is a private (unique local) address" + REFUSES,
        post(c, webhook("http://[fd00::5]:8080/x")).error(),
        "a literal is checked as it is");
    WebhookClient.Outcome loopback = post(c, webhook(receiver.url()));
    assertEquals("127.0.0.1 is a loopback address" + REFUSES, loopback.error());
    assertEquals(List.of(), receiver.received(), "nothing was sent");
    assertTrue(resolved.containsAll(List.of("hooks.example.test", "fd00::5", "127.0.0.1")));
  }

  @Test
  void slackAndIncidentIoBodies() throws Exception {
    ObjectNode slack = webhook("https://hooks.slack.example/T1").put("service", "slack");
    Notification n =
        new Notification(
            "k",
            "a1",
            "s1",
            "w1",
            "OK",
            "✅ Errors",
            "The alert has been resolved.",
            "https://ui.example/search/1",
            1,
            2,
            "ev",
            3,
            "5",
            "",
            2);
    var s = MAPPER.readTree(WebhookRequests.build(slack, n, MAPPER).body());
    assertEquals("✅ Errors", s.get("text").asText());
    assertEquals(
        "*<https://ui.example/search/1 | ✅ Errors>*\nThe alert has been resolved.",
        s.at("/blocks/0/text/text").asText());
    assertEquals("mrkdwn", s.at("/blocks/0/text/type").asText());
    ObjectNode incident = webhook("https://api.incident.example/v2/alert_events/http/1");
    incident.put("service", "incidentio");
    var i = MAPPER.readTree(WebhookRequests.build(incident, n, MAPPER).body());
    assertEquals("resolved", i.get("status").asText());
    assertEquals("ev", i.get("deduplication_key").asText(), "pairs the OK with its ALERT");
    assertEquals("✅ Errors", i.get("title").asText());
    assertEquals("The alert has been resolved.", i.get("description").asText());
    assertEquals("https://ui.example/search/1", i.get("source_url").asText());
    assertEquals("a1", i.at("/metadata/alertId").asText());
    incident.put(
        "body", "{\"status\":\"{{#if (eq state \"ALERT\")}}firing{{else}}resolved{{/if}}\"}");
    assertEquals(
        "{\"status\":\"resolved\"}",
        new String(WebhookRequests.build(incident, n, MAPPER).body(), StandardCharsets.UTF_8),
        "an incident.io webhook with a body uses it");
    ObjectNode generic = webhook("http://x.example/");
    var g = MAPPER.readTree(WebhookRequests.build(generic, n, MAPPER).body());
    assertEquals(
        "✅ Errors | The alert has been resolved. | https://ui.example/search/1 | OK | 1 | 2 | ev",
        g.get("text").asText(),
        "HyperDX's default body");
    assertNull(g.get("value"));
  }
}
