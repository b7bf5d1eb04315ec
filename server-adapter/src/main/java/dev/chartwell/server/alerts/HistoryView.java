package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * An alert's history as the APIs answer it: one entry per (window, instance), newest first, with
 * the notifications it called for and what became of them.
 */
final class HistoryView {
  /** The default and the largest number of entries in one answer. */
  static final int DEFAULT_LIMIT = 100;

  static final int MAX_LIMIT = 1000;

  private HistoryView() {}

  /**
   * @param history the store
   * @param mapper JSON codec
   * @param alertId the alert
   * @param limit the most entries (whole windows only: a window is never split, and the first is
   *     always whole)
   * @param before only windows ending before this time, epoch ms ({@code Long.MAX_VALUE}: all)
   * @return the entries
   */
  static ArrayNode read(
      HistoryStore history, ObjectMapper mapper, String alertId, int limit, long before) {
    ArrayNode out = mapper.createArrayNode();
    Map<String, JsonNode> outcomes = new HashMap<>();
    history.backwards(
        alertId,
        r -> {
          if (r.path("type").asText().equals("outcome")) {
            outcomes.putIfAbsent(r.path("id").asText(), r);
            return true;
          }
          if (r.path("end").asLong() >= before) {
            return true;
          }
          JsonNode instances = r.path("instances");
          if (!out.isEmpty() && out.size() + instances.size() > limit) {
            return false;
          }
          for (JsonNode i : instances) {
            out.add(entry(mapper, r, i, outcomes));
          }
          return out.size() < limit;
        });
    return out;
  }

  private static ObjectNode entry(
      ObjectMapper mapper, JsonNode window, JsonNode i, Map<String, JsonNode> outcomes) {
    ObjectNode e = mapper.createObjectNode();
    e.put("windowStart", time(window.get("start").asLong()));
    e.put("windowEnd", time(window.get("end").asLong()));
    e.put("evaluatedAt", time(window.get("at").asLong()));
    e.put("group", i.path("group").asText());
    double v = i.path("value").asDouble();
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      e.put("value", (long) v);
    } else {
      e.put("value", v);
    }
    e.put("state", i.path("state").asText());
    if (i.path("missing").asBoolean()) {
      e.put("noRows", true);
    }
    boolean notified = false;
    ArrayNode list = e.putArray("notifications");
    for (JsonNode n : i.path("notifications")) {
      ObjectNode o = list.addObject();
      o.put("kind", n.path("kind").asText()).put("webhookId", n.path("webhookId").asText());
      if (n.has("suppressed")) {
        o.put("status", "silenced").put("reason", n.get("suppressed").asText());
        continue;
      }
      if (n.has("dropped")) {
        o.put("status", "dropped").put("reason", n.get("dropped").asText());
        continue;
      }
      notified = true;
      o.put("idempotencyKey", n.path("id").asText());
      JsonNode out = outcomes.get(n.path("id").asText());
      if (out == null) {
        o.put("status", "pending").put("attempts", 0);
        continue;
      }
      o.put("status", out.path("status").asText()).put("attempts", out.path("attempts").asInt());
      if (out.has("statusCode")) {
        o.put("statusCode", out.get("statusCode").asInt());
      }
      if (out.has("error")) {
        o.put("error", out.get("error").asText());
      }
      if (out.has("next")) {
        o.put("nextAttemptAt", time(out.get("next").asLong()));
      }
      o.put("updatedAt", time(out.path("at").asLong()));
    }
    e.put("notified", notified);
    return e;
  }

  private static String time(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
