package dev.chartwell.server.clickstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.query.AggFn;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WhereSyntaxException;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.store.JsonStore;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Dashboards, alerts and webhooks of a service, durable in Chronicle Map. Every document carries
 * its service; ids of another service are 404s. Validation names each problem's path ({@code
 * tiles[3].config.select[0].aggFn}).
 */
public final class Resources implements AutoCloseable {
  static final List<String> DISPLAY_TYPES =
      List.of(
          "line",
          "stacked_bar",
          "bar",
          "table",
          "number",
          "pie",
          "search",
          "markdown",
          "heatmap",
          "event_patterns");
  static final List<String> INTERVALS = List.of("1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d");
  static final List<String> THRESHOLD_TYPES =
      List.of(
          "above",
          "below",
          "above_exclusive",
          "below_or_equal",
          "equal",
          "not_equal",
          "between",
          "not_between");
  static final List<String> WEBHOOK_SERVICES = List.of("generic", "slack", "incidentio");
  static final int MAX_TILES = 500;
  static final int MAX_SELECT = 20;

  /** The three kinds of resource. */
  public enum Kind {
    /** dashboards with tiles. */
    DASHBOARD,
    /** tile alerts. */
    ALERT,
    /** notification destinations. */
    WEBHOOK
  }

  private final Map<Kind, JsonStore> stores;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  private Resources(Map<Kind, JsonStore> stores, Clock clock) {
    this.stores = stores;
    this.clock = clock;
  }

  /**
   * @param dataDir the data directory
   * @param mapper JSON codec
   * @param clock time source
   * @return the resources
   * @throws IOException when a store cannot be opened
   */
  public static Resources open(Path dataDir, ObjectMapper mapper, Clock clock) throws IOException {
    JsonStore dashboards =
        JsonStore.open(dataDir.resolve("dashboards.dat"), "dashboards", 10_000, 8192, mapper);
    JsonStore alerts = null;
    try {
      alerts = JsonStore.open(dataDir.resolve("alerts.dat"), "alerts", 10_000, 1024, mapper);
      JsonStore webhooks =
          JsonStore.open(dataDir.resolve("webhooks.dat"), "webhooks", 10_000, 1024, mapper);
      return new Resources(
          Map.of(Kind.DASHBOARD, dashboards, Kind.ALERT, alerts, Kind.WEBHOOK, webhooks), clock);
    } catch (IOException | RuntimeException e) {
      dashboards.close();
      if (alerts != null) {
        alerts.close();
      }
      throw e;
    }
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @return its resources of that kind, oldest first
   */
  public List<ObjectNode> list(Kind kind, String serviceId) {
    return stores.get(kind).list(n -> n.path("_serviceId").asText().equals(serviceId)).stream()
        .map(Resources::view)
        .toList();
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @param id a resource id
   * @return the resource
   * @throws ApiException 404 when the service has no such resource
   */
  public ObjectNode get(Kind kind, String serviceId, String id) {
    return view(stored(kind, serviceId, id));
  }

  /**
   * Creates ({@code id == null}) or replaces a resource.
   *
   * @param kind the kind
   * @param serviceId the service
   * @param id the resource to replace, or {@code null} to create one
   * @param body the definition
   * @param sourceExists whether a source id belongs to the service's warehouse
   * @return the stored resource
   */
  public synchronized ObjectNode put(
      Kind kind, String serviceId, String id, JsonNode body, Predicate<String> sourceExists) {
    ObjectNode old = id == null ? null : stored(kind, serviceId, id);
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    List<String> problems = new ArrayList<>();
    ObjectNode doc = ((ObjectNode) body).deepCopy();
    switch (kind) {
      case DASHBOARD -> dashboard(doc, old, sourceExists, problems);
      case ALERT -> alert(doc, serviceId, problems);
      case WEBHOOK -> webhook(doc, problems);
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    String now = Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
    doc.put("id", old == null ? newId() : id);
    doc.put("createdAt", old == null ? now : old.get("createdAt").asText());
    doc.put("updatedAt", now);
    if (kind == Kind.ALERT) {
      doc.put("state", "OK");
    }
    doc.put("_serviceId", serviceId);
    stores.get(kind).put(doc.get("id").asText(), doc);
    return view(doc);
  }

  /**
   * Deletes a resource. A dashboard takes its alerts along; a webhook still used by an alert cannot
   * be deleted.
   *
   * @param kind the kind
   * @param serviceId the service
   * @param id the resource
   * @return how many alerts were deleted with it
   * @throws ApiException 409 for a webhook used by an alert
   */
  public synchronized int delete(Kind kind, String serviceId, String id) {
    stored(kind, serviceId, id);
    int alerts = 0;
    if (kind == Kind.WEBHOOK) {
      for (ObjectNode a : list(Kind.ALERT, serviceId)) {
        if (a.path("channel").path("webhookId").asText().equals(id)) {
          throw ApiException.conflict(
              "webhook "
                  + id
                  + " is used by alert "
                  + a.get("id").asText()
                  + (a.path("name").isTextual() ? " ('" + a.get("name").asText() + "')" : "")
                  + "; delete or change that alert first");
        }
      }
    }
    if (kind == Kind.DASHBOARD) {
      for (ObjectNode a : list(Kind.ALERT, serviceId)) {
        if (a.path("dashboardId").asText().equals(id)) {
          stores.get(Kind.ALERT).remove(a.get("id").asText());
          alerts++;
        }
      }
    }
    stores.get(kind).remove(id);
    return alerts;
  }

  /**
   * Deletes everything of a service (it is gone).
   *
   * @param serviceId the service
   */
  public synchronized void dropService(String serviceId) {
    for (Kind kind : Kind.values()) {
      for (ObjectNode n : list(kind, serviceId)) {
        stores.get(kind).remove(n.get("id").asText());
      }
    }
  }

  private void dashboard(
      ObjectNode d, ObjectNode old, Predicate<String> sourceExists, List<String> p) {
    requiredText(d, "name", "", p);
    JsonNode tags = d.get("tags");
    if (tags == null || tags.isNull()) {
      d.putArray("tags");
    } else if (!tags.isArray() || !allText(tags)) {
      p.add("tags: must be an array of strings");
    }
    JsonNode tiles = d.get("tiles");
    if (tiles == null || !tiles.isArray()) {
      p.add("tiles: is required (an array)");
      return;
    }
    if (tiles.size() > MAX_TILES) {
      p.add("tiles: at most " + MAX_TILES + " tiles, got " + tiles.size());
      return;
    }
    Set<String> oldIds = new HashSet<>();
    if (old != null) {
      old.path("tiles").forEach(t -> oldIds.add(t.path("id").asText()));
    }
    Set<String> used = new HashSet<>();
    for (int i = 0; i < tiles.size(); i++) {
      String path = "tiles[" + i + "]";
      JsonNode t = tiles.get(i);
      if (!t.isObject()) {
        p.add(path + ": must be an object");
        continue;
      }
      ObjectNode tile = (ObjectNode) t;
      requiredText(tile, "name", path + ".", p);
      integer(tile, "x", 0, 23, path, p);
      integer(tile, "y", 0, Integer.MAX_VALUE, path, p);
      integer(tile, "w", 1, 24, path, p);
      integer(tile, "h", 1, Integer.MAX_VALUE, path, p);
      String id = tile.path("id").isTextual() ? tile.get("id").textValue() : null;
      // PUT keeps the ids of tiles that match existing ones and gives every other tile a new id.
      tile.put("id", id != null && oldIds.contains(id) && used.add(id) ? id : newId());
      used.add(tile.get("id").asText());
      JsonNode c = tile.get("config");
      if (c == null || !c.isObject()) {
        p.add(path + ".config: is required (an object)");
        continue;
      }
      String cp = path + ".config";
      String display = c.path("displayType").isTextual() ? c.get("displayType").textValue() : null;
      if (display == null || !DISPLAY_TYPES.contains(display)) {
        p.add(cp + ".displayType: must be one of " + String.join(", ", DISPLAY_TYPES));
      }
      if (!c.path("sourceId").isTextual()) {
        p.add(cp + ".sourceId: is required");
      } else if (!sourceExists.test(c.get("sourceId").textValue())) {
        p.add(
            cp
                + ".sourceId: source "
                + c.get("sourceId").textValue()
                + " does not exist in this service");
      }
      JsonNode select = c.get("select");
      if (select == null || !select.isArray() || select.size() < 1 || select.size() > MAX_SELECT) {
        p.add(cp + ".select: must hold 1 to " + MAX_SELECT + " items");
      } else {
        for (int j = 0; j < select.size(); j++) {
          selectItem(select.get(j), cp + ".select[" + j + "]", p);
        }
      }
      JsonNode groupBy = c.get("groupBy");
      if (groupBy != null
          && !groupBy.isNull()
          && !groupBy.isTextual()
          && !(groupBy.isArray() && allText(groupBy))) {
        p.add(cp + ".groupBy: must be a field name or an array of field names");
      }
    }
  }

  private static void selectItem(JsonNode s, String path, List<String> p) {
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

  private void alert(ObjectNode a, String serviceId, List<String> p) {
    String source = a.path("source").isTextual() ? a.get("source").textValue() : "tile";
    if (!source.equals("tile")) {
      p.add("source: must be tile (alerts on saved searches are not supported)");
    }
    a.put("source", "tile");
    String dashboardId =
        a.path("dashboardId").isTextual() ? a.get("dashboardId").textValue() : null;
    String tileId = a.path("tileId").isTextual() ? a.get("tileId").textValue() : null;
    if (dashboardId == null) {
      p.add("dashboardId: is required");
    }
    if (tileId == null) {
      p.add("tileId: is required");
    }
    if (dashboardId != null) {
      ObjectNode dashboard = find(Kind.DASHBOARD, serviceId, dashboardId);
      if (dashboard == null) {
        p.add("dashboardId: dashboard " + dashboardId + " does not exist in this service");
      } else if (tileId != null) {
        boolean found = false;
        for (JsonNode t : dashboard.path("tiles")) {
          found |= t.path("id").asText().equals(tileId);
        }
        if (!found) {
          p.add("tileId: tile " + tileId + " does not exist on dashboard " + dashboardId);
        }
      }
    }
    if (!a.path("threshold").isNumber()) {
      p.add("threshold: is required (a number)");
    }
    oneOf(a, "interval", INTERVALS, p);
    oneOf(a, "thresholdType", THRESHOLD_TYPES, p);
    String type = a.path("thresholdType").asText();
    if (type.equals("between") || type.equals("not_between")) {
      if (!a.path("thresholdMax").isNumber()) {
        p.add("thresholdMax: is required for " + type);
      } else if (a.path("threshold").isNumber()
          && a.get("thresholdMax").doubleValue() < a.get("threshold").doubleValue()) {
        p.add("thresholdMax: must be at least threshold");
      }
    }
    JsonNode channel = a.get("channel");
    if (channel == null || !channel.isObject()) {
      p.add("channel: is required ({\"type\":\"webhook\",\"webhookId\":...})");
    } else {
      if (!channel.path("type").asText().equals("webhook")) {
        p.add("channel.type: must be webhook");
      }
      String webhookId =
          channel.path("webhookId").isTextual() ? channel.get("webhookId").textValue() : null;
      if (webhookId == null) {
        p.add("channel.webhookId: is required");
      } else if (find(Kind.WEBHOOK, serviceId, webhookId) == null) {
        p.add("channel.webhookId: webhook " + webhookId + " does not exist in this service");
      }
    }
    for (String f : List.of("name", "message", "note")) {
      if (a.has(f) && !a.get(f).isNull() && !a.get(f).isTextual()) {
        p.add(f + ": must be a string");
      }
    }
  }

  private static void webhook(ObjectNode w, List<String> p) {
    requiredText(w, "name", "", p);
    oneOf(w, "service", WEBHOOK_SERVICES, p);
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

  private ObjectNode find(Kind kind, String serviceId, String id) {
    return stores
        .get(kind)
        .get(id)
        .filter(n -> n.path("_serviceId").asText().equals(serviceId))
        .orElse(null);
  }

  private ObjectNode stored(Kind kind, String serviceId, String id) {
    ObjectNode n = find(kind, serviceId, id);
    if (n == null) {
      throw ApiException.notFound(
          kind.name().toLowerCase(java.util.Locale.ROOT) + " " + id + " does not exist");
    }
    return n;
  }

  private static void requiredText(JsonNode n, String field, String prefix, List<String> p) {
    if (!n.path(field).isTextual() || n.get(field).textValue().isBlank()) {
      p.add(prefix + field + ": is required (a non-empty string)");
    }
  }

  private static void integer(
      JsonNode n, String field, int min, int max, String path, List<String> p) {
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

  private static void oneOf(JsonNode n, String field, List<String> allowed, List<String> p) {
    if (!n.path(field).isTextual() || !allowed.contains(n.get(field).textValue())) {
      p.add(field + ": must be one of " + String.join(", ", allowed));
    }
  }

  private static boolean allText(JsonNode container) {
    Iterator<JsonNode> it = container.elements();
    while (it.hasNext()) {
      if (!it.next().isTextual()) {
        return false;
      }
    }
    return true;
  }

  private String newId() {
    byte[] b = new byte[12];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  static ObjectNode view(ObjectNode n) {
    ObjectNode v = n.deepCopy();
    v.remove("_serviceId");
    return v;
  }

  @Override
  public void close() {
    stores.values().forEach(JsonStore::close);
  }
}
