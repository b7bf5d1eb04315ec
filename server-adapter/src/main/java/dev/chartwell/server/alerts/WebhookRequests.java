package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.clickstack.WebhookTemplate;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP request that delivers a notification to a webhook: a POST of JSON to the webhook's URL
 * with its query parameters appended, {@code Content-Type: application/json}, the webhook's
 * headers, and an {@code Idempotency-Key} (the notification's id). The body depends on the service:
 *
 * <ul>
 *   <li>{@code generic}: the webhook's body template rendered with the notification's values
 *       (HyperDX's default body when it has none);
 *   <li>{@code slack}: Slack's {@code {text, blocks}} with the title (linked) and the body, escaped
 *       as Slack's text must be;
 *   <li>{@code incidentio}: the body template when given, else incident.io's alert event: {@code
 *       title}, {@code description}, {@code deduplication_key} (the instance's event id), {@code
 *       status} ({@code firing} or {@code resolved}), {@code source_url}, {@code metadata}.
 * </ul>
 */
final class WebhookRequests {
  /**
   * A request ready to send.
   *
   * @param uri the destination
   * @param headers the headers besides {@code Host} and {@code Content-Length}
   * @param body the body
   */
  record Request(URI uri, Map<String, String> headers, byte[] body) {}

  private WebhookRequests() {}

  /**
   * @param webhook the webhook as stored (headers and query parameters included)
   * @param n the notification
   * @param mapper JSON codec
   * @return the request
   */
  static Request build(JsonNode webhook, Notification n, ObjectMapper mapper) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("User-Agent", "Chartwell-Alerts");
    webhook
        .path("headers")
        .fields()
        .forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
    headers.put("Idempotency-Key", n.id());
    String service = webhook.path("service").asText("generic");
    String body =
        switch (service) {
          case "slack" -> slack(n, mapper);
          case "incidentio" ->
              webhook.path("body").isTextual()
                  ? render(webhook.get("body").textValue(), n)
                  : incidentIo(n, mapper);
          default -> render(webhook.path("body").asText(WebhookTemplate.DEFAULT_GENERIC_BODY), n);
        };
    return new Request(
        uri(webhook.path("url").asText(), webhook.path("queryParams")),
        headers,
        body.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * @param n a notification
   * @return the values of the template variables
   */
  static Map<String, String> values(Notification n) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("title", n.title());
    v.put("body", n.body());
    v.put("link", n.link());
    v.put("state", n.state());
    v.put("startTime", Long.toString(n.startTime()));
    v.put("endTime", Long.toString(n.endTime()));
    v.put("eventId", n.eventId());
    v.put("value", Threshold.number(n.value()));
    v.put("threshold", n.threshold());
    v.put("group", n.group());
    v.put("alertId", n.alertId());
    return v;
  }

  private static String render(String template, Notification n) {
    return WebhookTemplate.parse(template).render(values(n));
  }

  /**
   * Slack's message: the title (escaped) as {@code text}, and a {@code mrkdwn} section of the title
   * linked to the frontend and the body. Title and body hold values Chartwell did not write (alert,
   * tile, dashboard, saved search and webhook names, group values, the alert's message), and
   * Chartwell's own words in them use none of {@code & < >}: both are escaped whole, so that no
   * value can add a link, a mention ({@code <!channel>}) or break the message's own link.
   */
  private static String slack(Notification n, ObjectMapper mapper) {
    ObjectNode o = mapper.createObjectNode();
    String title = slackEscape(n.title());
    o.put("text", title);
    ObjectNode section = o.putArray("blocks").addObject().put("type", "section");
    String heading = n.link().isEmpty() ? title : "<" + slackLink(n.link()) + " | " + title + ">";
    section
        .putObject("text")
        .put("type", "mrkdwn")
        .put("text", "*" + heading + "*\n" + slackEscape(n.body()));
    return o.toString();
  }

  /**
   * Slack's escaping of text: {@code &}, {@code <} and {@code >} as {@code &amp;}, {@code &lt;} and
   * {@code &gt;}, the only characters its text parsers treat as control characters.
   *
   * @param text text to show as it is
   * @return the text for a Slack {@code text} or {@code mrkdwn} field
   */
  static String slackEscape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * A URL inside Slack's {@code <url | label>}: the characters that would end it ({@code <}, {@code
   * >}, {@code |}) percent-encoded, which leaves the URL the same.
   */
  private static String slackLink(String url) {
    return url.replace("<", "%3C").replace(">", "%3E").replace("|", "%7C");
  }

  private static String incidentIo(Notification n, ObjectMapper mapper) {
    ObjectNode o = mapper.createObjectNode();
    o.put("title", n.title());
    o.put("description", n.body());
    o.put("deduplication_key", n.eventId());
    o.put("status", n.state().equals(Instance.ALERT) ? "firing" : "resolved");
    if (!n.link().isEmpty()) {
      o.put("source_url", n.link());
    }
    ObjectNode meta = o.putObject("metadata");
    values(n)
        .forEach(
            (k, v) -> {
              if (!k.equals("title") && !k.equals("body") && !k.equals("link")) {
                meta.put(k, v);
              }
            });
    return o.toString();
  }

  private static URI uri(String url, JsonNode params) {
    if (!params.isObject() || params.isEmpty()) {
      return URI.create(url);
    }
    StringBuilder sb = new StringBuilder();
    int hash = url.indexOf('#');
    String base = hash < 0 ? url : url.substring(0, hash);
    sb.append(base).append(base.contains("?") ? '&' : '?');
    boolean first = true;
    for (var it = params.fields(); it.hasNext(); ) {
      var e = it.next();
      if (!first) {
        sb.append('&');
      }
      first = false;
      sb.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(e.getValue().asText(), StandardCharsets.UTF_8));
    }
    return URI.create(sb.toString());
  }
}
