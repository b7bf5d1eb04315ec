package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.FieldType.stringMap;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * The rules of a webhook ({@code ClickStackWebhookInput}): a name, a service ({@code generic},
 * {@code slack}, {@code incidentio}), an http(s) URL, and optional description, body (not for
 * Slack), headers and query parameters. Headers and query parameters are write-only: answers never
 * show them; a replacement that leaves them out keeps them, unless it changes the destination (URL
 * or service), so that stored secrets never go to a new destination; {@code {}} clears them.
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

  private WebhookRules() {}

  /**
   * @param w the webhook (changed in place: write-only fields carried over from {@code old})
   * @param old the webhook it replaces, or {@code null}
   * @param p where problems go
   */
  static void check(ObjectNode w, ObjectNode old, Problems p) {
    WEBHOOK.checkBody(w, p);
    String url = w.path("url").isTextual() ? w.get("url").textValue() : null;
    if (url != null && !isHttp(url)) {
      p.add("url", "must be an http or https URL, got '" + url + "'");
    }
    if (w.path("service").asText().equals("slack") && w.has("body")) {
      p.add("body", "not allowed for slack webhooks");
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
