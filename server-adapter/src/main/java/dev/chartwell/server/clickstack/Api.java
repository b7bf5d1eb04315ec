package dev.chartwell.server.clickstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The two APIs that show the same stored resources: the ClickHouse Cloud API's {@code clickstack}
 * paths and HyperDX's {@code /api/v2}. Each document declares fields the other lacks; a strict
 * client of either fails on a field its document does not declare, so each API's answers leave out
 * the other's fields, and a replacement through one API keeps the stored fields only the other
 * shows (its client cannot send what it never saw). Paths name nested fields, {@code []} an array
 * whose elements are matched by {@code id} (tiles, filters).
 */
public enum Api {
  /** {@code /v1/organizations/{organizationId}/services/{serviceId}/clickstack/...}. */
  CLOUD(
      Map.of(
          Kind.DASHBOARD,
          List.of(
              "filters[].isBroadcastEnabled",
              "filters[].isVariableEnabled",
              "filters[].variableName",
              "tiles[].config.formulas",
              "tiles[].config.seriesLimit",
              "tiles[].config.showOperandSeries"),
          Kind.ALERT,
          List.of("channels"))),
  /** HyperDX's {@code /api/v2/...}. */
  HYPERDX(
      Map.of(
          Kind.DASHBOARD,
          List.of("filters[].appliesToSourceIds", "filters[].sourceMetricType", "filters[].where"),
          Kind.ALERT,
          List.of("channel.severity", "channel.slackChannelId", "channel.webhookService")));

  /** Channel fields only the Cloud document has. */
  static final List<String> CLOUD_CHANNEL_FIELDS =
      List.of("severity", "slackChannelId", "webhookService");

  private final Map<Kind, List<String>> hidden;

  Api(Map<Kind, List<String>> hidden) {
    this.hidden = hidden;
  }

  /**
   * @param kind a kind
   * @param stored a stored resource
   * @return the resource as this API shows it: no internal fields, none of the fields this API's
   *     document lacks
   */
  ObjectNode render(Kind kind, ObjectNode stored) {
    ObjectNode v = stored.deepCopy();
    v.remove("_serviceId");
    v.remove(kind.hidden());
    if (this == HYPERDX && kind == Kind.SAVED_SEARCH) {
      // HyperDX's saved searches show their times; the Cloud document's do not.
      v.set("createdAt", stored.get("createdAt"));
      v.set("updatedAt", stored.get("updatedAt"));
    }
    for (String path : hidden.getOrDefault(kind, List.of())) {
      remove(v, Arrays.asList(path.split("\\.")));
    }
    if (this == HYPERDX && v.path("channels").isArray()) {
      for (JsonNode c : v.get("channels")) {
        ((ObjectNode) c).remove(CLOUD_CHANNEL_FIELDS);
      }
    }
    return v;
  }

  /**
   * Copies into a replacement the stored fields this API does not show.
   *
   * @param kind a kind
   * @param incoming the replacement, as sent (changed in place)
   * @param old the stored resource
   */
  void keepHidden(Kind kind, ObjectNode incoming, ObjectNode old) {
    if (kind == Kind.ALERT) {
      return; // an alert's channels are reconciled by its rules, whichever API sent it
    }
    for (String path : hidden.getOrDefault(kind, List.of())) {
      carry(incoming, old, Arrays.asList(path.split("\\.")));
    }
  }

  private static void remove(JsonNode node, List<String> path) {
    String head = path.get(0);
    if (path.size() == 1) {
      if (node instanceof ObjectNode o) {
        o.remove(head);
      }
      return;
    }
    List<String> rest = path.subList(1, path.size());
    if (head.endsWith("[]")) {
      for (JsonNode e : node.path(head.substring(0, head.length() - 2))) {
        remove(e, rest);
      }
    } else {
      remove(node.path(head), rest);
    }
  }

  private static void carry(JsonNode incoming, JsonNode old, List<String> path) {
    if (!(incoming instanceof ObjectNode in) || old == null || !old.isObject()) {
      return;
    }
    String head = path.get(0);
    if (path.size() == 1) {
      if (!in.has(head) && old.has(head)) {
        in.set(head, old.get(head).deepCopy());
      }
      return;
    }
    List<String> rest = path.subList(1, path.size());
    if (head.endsWith("[]")) {
      String field = head.substring(0, head.length() - 2);
      if (in.get(field) instanceof ArrayNode elements) {
        for (JsonNode e : elements) {
          carry(e, byId(old.path(field), e.path("id").asText(null)), rest);
        }
      }
    } else {
      carry(in.get(head), old.get(head), rest);
    }
  }

  private static JsonNode byId(JsonNode array, String id) {
    if (id == null) {
      return null;
    }
    for (JsonNode e : array) {
      if (id.equals(e.path("id").asText(null))) {
        return e;
      }
    }
    return null;
  }
}
