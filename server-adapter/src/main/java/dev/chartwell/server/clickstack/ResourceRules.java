package dev.chartwell.server.clickstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.query.AggFn;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WhereSyntaxException;
import dev.chartwell.server.validation.Names;
import java.net.URI;
import java.util.Iterator;
import java.util.List;

/**
 * The checks of {@link Resources} that need no stored state: select items, webhooks and the field
 * helpers. Each adds problems, prefixed with the field's path, to a list.
 */
final class ResourceRules {
  private ResourceRules() {}

  static void selectItem(JsonNode s, String path, List<String> p) {
    if (!s.isObject()) {
      p.add(path + ": must be an object");
      return;
    }
    String fn = s.path("aggFn").isTextual() ? s.get("aggFn").textValue() : null;
    if (fn == null || (AggFn.fromWireName(fn).isEmpty() && !fn.equals("none"))) {
      p.add(
          path
              + ".aggFn: must be one of count, count_distinct, sum, avg, min, max, quantile, last_value, any, none, p50, p90, p95, p99, count_per_sec, count_per_min, count_per_hour");
    }
    if (s.has("valueExpression")
        && !s.get("valueExpression").isNull()
        && !s.get("valueExpression").isTextual()) {
      p.add(path + ".valueExpression: must be a string");
    } else if (s.path("valueExpression").isTextual()) {
      add(p, Names.expression(path + ".valueExpression", s.get("valueExpression").textValue()));
    }
    if (s.has("level")
        && !s.get("level").isNull()
        && (!s.get("level").isNumber()
            || s.get("level").doubleValue() < 0
            || s.get("level").doubleValue() > 1)) {
      p.add(path + ".level: must be a number from 0 to 1");
    }
    WhereLanguage language = WhereLanguage.LUCENE;
    if (s.has("whereLanguage") && !s.get("whereLanguage").isNull()) {
      language =
          s.get("whereLanguage").isTextual()
              ? WhereLanguage.fromWireName(s.get("whereLanguage").textValue()).orElse(null)
              : null;
      if (language == null) {
        p.add(path + ".whereLanguage: must be one of lucene, sql");
      }
    }
    JsonNode where = s.get("where");
    if (where != null && !where.isNull()) {
      if (!where.isTextual()) {
        p.add(path + ".where: must be a string");
      } else if (language != null) {
        try {
          WhereParser.parse(where.textValue(), language);
        } catch (WhereSyntaxException e) {
          p.add(path + ".where: " + e.getMessage());
        }
      }
    }
  }

  static void webhook(ObjectNode w, List<String> p) {
    requiredText(w, "name", "", p);
    oneOf(w, "service", Resources.WEBHOOK_SERVICES, p);
    String url = w.path("url").isTextual() ? w.get("url").textValue() : null;
    if (url == null) {
      p.add("url: is required");
    } else {
      try {
        URI uri = new URI(url);
        String scheme =
            uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
          p.add("url: must be an http or https URL, got '" + url + "'");
        }
      } catch (java.net.URISyntaxException e) {
        p.add("url: must be an http or https URL, got '" + url + "'");
      }
    }
    for (String f : List.of("description", "body")) {
      if (w.has(f) && !w.get(f).isNull() && !w.get(f).isTextual()) {
        p.add(f + ": must be a string");
      }
    }
    if (w.path("service").asText().equals("slack") && w.hasNonNull("body")) {
      p.add("body: not allowed for slack webhooks");
    }
    for (String f : List.of("headers", "queryParams")) {
      JsonNode h = w.get(f);
      if (h != null && !h.isNull() && (!h.isObject() || !allText(h))) {
        p.add(f + ": must be an object of strings");
      }
    }
  }

  static void requiredText(JsonNode n, String field, String prefix, List<String> p) {
    if (!n.path(field).isTextual()) {
      p.add(prefix + field + ": is required (a non-empty string)");
    } else {
      add(p, Names.name(prefix + field, n.get(field).textValue()));
    }
  }

  static void add(List<String> p, String problem) {
    if (problem != null) {
      p.add(problem);
    }
  }

  static void integer(JsonNode n, String field, int min, int max, String path, List<String> p) {
    JsonNode v = n.get(field);
    if (v == null || !v.isIntegralNumber() || v.longValue() < min || v.longValue() > max) {
      p.add(
          path
              + "."
              + field
              + ": must be an integer "
              + (max == Integer.MAX_VALUE ? "of at least " + min : "from " + min + " to " + max));
    }
  }

  static void oneOf(JsonNode n, String field, List<String> allowed, List<String> p) {
    if (!n.path(field).isTextual() || !allowed.contains(n.get(field).textValue())) {
      p.add(field + ": must be one of " + String.join(", ", allowed));
    }
  }

  static boolean allText(JsonNode container) {
    Iterator<JsonNode> it = container.elements();
    while (it.hasNext()) {
      if (!it.next().isTextual()) {
        return false;
      }
    }
    return true;
  }
}
