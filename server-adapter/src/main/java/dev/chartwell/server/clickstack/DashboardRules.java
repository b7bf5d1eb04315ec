package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.bool;
import static dev.chartwell.server.validation.FieldType.expression;
import static dev.chartwell.server.validation.FieldType.integer;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.FieldType;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The rules of a dashboard ({@code ClickStackCreateDashboardRequest}, {@code
 * ClickStackUpdateDashboardRequest}): its tiles (layout, config by display type, container and
 * tab), tags, filter keys, saved query and filter values, and containers. Tiles and filter keys get
 * ids; a replacement keeps the ids of those it names.
 */
final class DashboardRules {
  static final int MAX_TILES = 500;

  private static final ObjectShape TILE =
      ObjectShape.of(
          required("name", name()),
          required("x", integer(0, 23)),
          required("y", integer(0, Integer.MAX_VALUE)),
          required("w", integer(1, 24)),
          required("h", integer(1, Integer.MAX_VALUE)),
          optional("config", FieldType.anyObject()),
          optional("containerId", string()),
          optional("tabId", string()),
          optional("id", string()),
          optional("asRatio", bool()),
          optional("series", arrayOf(FieldType.anyObject())));
  private static final FieldType VARIABLE =
      (v, path, p) -> {
        if (!v.isTextual() || !v.textValue().matches("[a-zA-Z][a-zA-Z0-9_]{0,63}")) {
          p.add(
              path,
              "must start with a letter and hold only letters, digits and underscores, at most 64");
        }
      };
  private static final ObjectShape FILTER =
      ObjectShape.of(
          required("type", oneOf("QUERY_EXPRESSION")),
          required("name", name()),
          required("expression", expression()),
          required("sourceId", string()),
          optional("sourceMetricType", oneOf(TileRules.METRIC_TYPES)),
          optional("where", string()),
          optional("whereLanguage", oneOf(TileRules.LANGUAGES)),
          optional("appliesToSourceIds", arrayOf(string())),
          optional("isBroadcastEnabled", bool()),
          optional("isVariableEnabled", bool()),
          optional("variableName", VARIABLE),
          optional("id", string()));
  private static final ObjectShape CONTAINER =
      ObjectShape.of(
          required("id", string()),
          required("title", name()),
          required("collapsed", bool()),
          optional("collapsible", bool()),
          optional("bordered", bool()),
          optional(
              "tabs",
              arrayOf(
                  object(ObjectShape.of(required("id", string()), required("title", name()))))));
  private static final ObjectShape SQL_FILTER =
      ObjectShape.of(optional("type", oneOf("sql")), required("condition", string()));
  private static final ObjectShape DASHBOARD =
      ObjectShape.of(
          required("name", name()),
          required("tiles", arrayOf(object(TILE), MAX_TILES)),
          optional("tags", arrayOf(name())),
          optional("filters", arrayOf(object(FILTER))),
          optional("savedQuery", nullable(string())),
          optional("savedQueryLanguage", nullable(oneOf(TileRules.LANGUAGES))),
          optional("savedFilterValues", arrayOf(object(SQL_FILTER))),
          optional("containers", arrayOf(object(CONTAINER))));

  private DashboardRules() {}

  /**
   * Checks a dashboard and, unless {@code newId} is {@code null}, gives ids to its tiles and filter
   * keys.
   *
   * @param d the dashboard (changed in place: ids, defaults, deprecated tile fields removed)
   * @param old the dashboard it replaces, or {@code null}
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @param newId makes fresh ids, or {@code null} to give none (validation only)
   * @param p where problems go
   */
  static void check(
      ObjectNode d,
      ObjectNode old,
      Predicate<String> sourceExists,
      Supplier<String> newId,
      Problems p) {
    // The shape first; the rules between fields then look only at what has the right type, so
    // that one answer names every problem.
    DASHBOARD.checkBody(d, p);
    for (String list : List.of("tags", "filters", "savedFilterValues", "containers")) {
      if (!d.has(list)) {
        d.putArray(list);
      }
    }
    Map<String, Set<String>> tabs = containers(d.get("containers"), p);
    Set<String> oldTiles = ids(old, "tiles");
    Set<String> used = new HashSet<>();
    int tiles = d.path("tiles").isArray() ? d.get("tiles").size() : 0;
    for (int i = 0; tiles <= MAX_TILES && i < tiles; i++) {
      if (d.get("tiles").get(i) instanceof ObjectNode tile) {
        tile(tile, "tiles[" + i + "]", tabs, sourceExists, p);
        assignId(tile, oldTiles, used, newId);
      }
    }
    Set<String> oldFilters = ids(old, "filters");
    Set<String> usedFilters = new HashSet<>();
    for (int i = 0; d.path("filters").isArray() && i < d.get("filters").size(); i++) {
      if (d.get("filters").get(i) instanceof ObjectNode f) {
        filter(f, "filters[" + i + "]", sourceExists, p);
        assignId(f, oldFilters, usedFilters, newId);
      }
    }
    if (d.path("savedQuery").isTextual()) {
      TileRules.where(
          d.get("savedQuery").textValue(),
          d.path("savedQueryLanguage").asText("lucene"),
          "savedQuery",
          p);
    }
    JsonNode values = d.path("savedFilterValues");
    for (int i = 0; values.isArray() && i < values.size(); i++) {
      if (values.get(i).path("condition").isTextual()) {
        TileRules.where(
            values.get(i).get("condition").textValue(),
            "sql",
            "savedFilterValues[" + i + "].condition",
            p);
      }
    }
  }

  private static void filter(
      ObjectNode f, String path, Predicate<String> sourceExists, Problems p) {
    if (f.path("sourceId").isTextual()) {
      TileRules.sourceId(f.get("sourceId").textValue(), path + ".sourceId", sourceExists, p);
    }
    JsonNode applies = f.path("appliesToSourceIds");
    for (int j = 0; applies.isArray() && j < applies.size(); j++) {
      if (applies.get(j).isTextual()) {
        TileRules.sourceId(
            applies.get(j).textValue(), path + ".appliesToSourceIds[" + j + "]", sourceExists, p);
      }
    }
    if (f.path("where").isTextual()) {
      TileRules.where(f, path, p);
    }
  }

  private static void tile(
      ObjectNode tile,
      String path,
      Map<String, Set<String>> tabs,
      Predicate<String> sourceExists,
      Problems p) {
    if (tile.path("series").size() > 0) {
      p.add(path + ".series", "is no longer accepted; describe the tile with config");
    } else if (tile.path("asRatio").asBoolean(false)) {
      p.add(path + ".asRatio", "is no longer accepted; use config.asRatio");
    } else if (!tile.has("config")) {
      p.add(path + ".config", "is required");
    } else if (tile.get("config").isObject()) {
      TileRules.config(tile.get("config"), path + ".config", sourceExists, p);
    }
    tile.remove(List.of("series", "asRatio")); // deprecated input fields, never in answers
    String container = tile.path("containerId").asText(null);
    String tab = tile.path("tabId").asText(null);
    if (container != null && !tabs.containsKey(container)) {
      p.add(path + ".containerId", "no container " + container + " on this dashboard");
    } else if (tab != null && container == null) {
      p.add(path + ".tabId", "needs containerId");
    } else if (tab != null && !tabs.getOrDefault(container, Set.of()).contains(tab)) {
      p.add(path + ".tabId", "container " + container + " has no tab " + tab);
    }
  }

  /** Container ids (unique) with the ids of their tabs (unique within the container). */
  private static Map<String, Set<String>> containers(JsonNode containers, Problems p) {
    Map<String, Set<String>> tabs = new HashMap<>();
    for (int i = 0; containers.isArray() && i < containers.size(); i++) {
      JsonNode c = containers.get(i);
      String id = c.path("id").asText(null);
      if (id == null) {
        continue;
      }
      if (tabs.containsKey(id)) {
        p.add("containers[" + i + "].id", "'" + id + "' is used twice");
        continue;
      }
      Set<String> ids = new HashSet<>();
      JsonNode list = c.path("tabs");
      for (int j = 0; list.isArray() && j < list.size(); j++) {
        String tab = list.get(j).path("id").asText(null);
        if (tab != null && !ids.add(tab)) {
          p.add("containers[" + i + "].tabs[" + j + "].id", "'" + tab + "' is used twice");
        }
      }
      tabs.put(id, ids);
    }
    return tabs;
  }

  private static Set<String> ids(ObjectNode old, String list) {
    Set<String> ids = new HashSet<>();
    if (old != null) {
      old.path(list).forEach(n -> ids.add(n.path("id").asText()));
    }
    return ids;
  }

  /** A replacement keeps the ids of the tiles (filter keys) it names; every other one is new. */
  private static void assignId(
      ObjectNode n, Set<String> old, Set<String> used, Supplier<String> newId) {
    if (newId == null) {
      return;
    }
    String id = n.path("id").asText(null);
    n.put("id", id != null && old.contains(id) && used.add(id) ? id : newId.get());
    used.add(n.get("id").asText());
  }
}
