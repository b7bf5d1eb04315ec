package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.FieldType.stringMap;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of a webhook ({@code ClickStackWebhookInput}): a name, a service ({@code generic},
 * {@code slack}, {@code incidentio}), an http(s) URL, and optional description, body (not for
 * Slack), headers and query parameters. Headers and query parameters are write-only: answers never
 * show them; a replacement that leaves them out keeps them, unless it changes the destination (URL
 * or service), so that stored secrets never go to a new destination; {@code {}} clears them. A body
 * is a {@link WebhookTemplate} and must parse; header names and values must be safe to send. A
 * replacement without {@code url} keeps the stored one (callers other than admin keys never see
 * it).
 */
final class WebhookRules {
  static final List<String> SERVICES = List.of("slack", "incidentio", "generic");

  private static final ObjectShape WEBHOOK =
      ObjectShape.of(
          required("name", name()),
          required("service", oneOf(SERVICES)),
          required("url", string()),
          optional("description", string()),
          optional("body", string()),
          optional("headers", stringMap()),
          optional("queryParams", stringMap()));

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}");

  /** Headers the delivery writes itself. */
  private static final Set<String> RESERVED =
      Set.of(
          "host",
          "content-length",
          "transfer-encoding",
          "connection",
          "idempotency-key",
          "upgrade",
          "te",
          "trailer",
          "expect",
          "keep-alive",
          "proxy-connection");

  private WebhookRules() {}

  /**
   * @param w the webhook (changed in place: write-only fields carried over from {@code old})
   * @param old the webhook it replaces, or {@code null}
   * @param p where problems go
   */
  static void check(ObjectNode w, ObjectNode old, Problems p) {
    if (old != null && !w.has("url") && old.has("url")) {
      // Only admin keys see the URL (WebhookUrls): a replacement from a caller who never saw it
      // keeps it, and with it the stored headers and query parameters.
      w.set("url", old.get("url"));
    }
    WEBHOOK.checkBody(w, p);
    String url = w.path("url").isTextual() ? w.get("url").textValue() : null;
    if (url != null && !isHttp(url)) {
      p.add("url", "must be an http or https URL, got '" + url + "'");
    }
    if (w.path("service").asText().equals("slack") && w.has("body")) {
      p.add("body", "not allowed for slack webhooks");
    } else if (w.path("body").isTextual()) {
      try {
        WebhookTemplate.parse(w.get("body").textValue());
      } catch (IllegalArgumentException e) {
        p.add("body", e.getMessage());
      }
    }
    if (w.path("headers").isObject()) {
      headers(w.get("headers"), p);
    }
    if (old != null
        && old.path("url").equals(w.path("url"))
        && old.path("service").equals(w.path("service"))) {
      for (String secret : List.of("headers", "queryParams")) {
        if (!w.has(secret) && old.has(secret)) {
          w.set(secret, old.get(secret));
        }
      }
    }
  }

  /**
   * Header names must be HTTP tokens and values single-line text, so that they can never change the
   * request they are sent in; the headers Chartwell writes itself cannot be set.
   */
  private static void headers(JsonNode headers, Problems p) {
    headers
        .fields()
        .forEachRemaining(
            e -> {
              String name = e.getKey();
              String path = "headers." + name;
              if (!TOKEN.matcher(name).matches()) {
                p.add(path, "is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)");
              } else if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                p.add(path, "is set by Chartwell and cannot be given");
              } else if (e.getValue().isTextual()
                  && !e.getValue().textValue().chars().allMatch(c -> c == '\t' || c >= 0x20)) {
                p.add(path, "must not contain line breaks or control characters");
              }
            });
  }

  private static boolean isHttp(String url) {
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
