package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.internal.query.Backend;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WherePrinter;
import dev.chartwell.parser.WhereSyntaxException;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Kind;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.management.Services;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Resolves stored alerts into {@link AlertSpec}s: the service must be running; a tile alert runs
 * its tile's series (the last select item, or the ratio of two with {@code asRatio}; the tile's
 * {@code groupBy}); a saved-search alert counts the events matching the search's {@code where} and
 * {@code filters}, grouped by the alert's {@code groupBy}. What no longer resolves (a tile removed
 * from its dashboard, a source deleted) is reported, not evaluated.
 */
final class AlertSpecs {
  /**
   * A stored alert, resolved or not.
   *
   * @param alertId the alert
   * @param spec what to evaluate, or {@code null}
   * @param errorType {@code INVALID_ALERT} (its definition no longer resolves) or {@code
   *     QUERY_ERROR} (its service is not running), or {@code null}
   * @param error why it cannot be evaluated now, or {@code null}
   */
  record Resolved(String alertId, AlertSpec spec, String errorType, String error) {}

  private final Resources resources;
  private final Catalog catalog;
  private final Services services;

  AlertSpecs(Resources resources, Catalog catalog, Services services) {
    this.resources = resources;
    this.catalog = catalog;
    this.services = services;
  }

  /**
   * @return every stored alert, resolved
   */
  List<Resolved> all() {
    Map<String, Optional<ObjectNode>> cache = new HashMap<>();
    List<Resolved> out = new ArrayList<>();
    for (ObjectNode a : resources.allAlerts()) {
      String id = a.path("id").asText();
      try {
        out.add(new Resolved(id, resolve(a, cache), null, null));
      } catch (Unresolved e) {
        out.add(new Resolved(id, null, e.type, e.getMessage()));
      }
    }
    return out;
  }

  /** Why an alert cannot be evaluated. */
  private static final class Unresolved extends Exception {
    private static final long serialVersionUID = 1L;

    private final String type;

    Unresolved(String message) {
      this("INVALID_ALERT", message);
    }

    Unresolved(String type, String message) {
      super(message, null, false, false);
      this.type = type;
    }
  }

  private AlertSpec resolve(ObjectNode a, Map<String, Optional<ObjectNode>> cache)
      throws Unresolved {
    String serviceId = a.path("_serviceId").asText();
    ObjectNode service =
        services
            .byId(serviceId)
            .orElseThrow(() -> new Unresolved("service " + serviceId + " no longer exists"));
    if (!service.path("state").asText().equals("running")) {
      throw new Unresolved(
          "QUERY_ERROR",
          "the service is "
              + service.path("state").asText()
              + "; alerts are evaluated while it is running");
    }
    String warehouse = service.path("dataWarehouseId").asText();
    AlertSpec.Target target;
    String searchName = null;
    String dashboardName = null;
    String tileName = null;
    if (a.path("source").asText("tile").equals("saved_search")) {
      String searchId = a.path("savedSearchId").asText();
      ObjectNode search =
          lookup(cache, Kind.SAVED_SEARCH, serviceId, searchId)
              .orElseThrow(() -> new Unresolved("saved search " + searchId + " no longer exists"));
      searchName = search.path("name").asText();
      target = searchTarget(search, a.path("groupBy").asText(""), warehouse);
    } else {
      String dashboardId = a.path("dashboardId").asText();
      String tileId = a.path("tileId").asText();
      ObjectNode dashboard =
          lookup(cache, Kind.DASHBOARD, serviceId, dashboardId)
              .orElseThrow(() -> new Unresolved("dashboard " + dashboardId + " no longer exists"));
      JsonNode tile = null;
      for (JsonNode t : dashboard.path("tiles")) {
        if (t.path("id").asText().equals(tileId)) {
          tile = t;
        }
      }
      if (tile == null) {
        throw new Unresolved(
            "tile "
                + tileId
                + " is no longer on dashboard '"
                + dashboard.path("name").asText()
                + "'");
      }
      dashboardName = dashboard.path("name").asText();
      tileName = tile.path("name").asText();
      target = tileTarget(tile.path("config"), warehouse);
    }
    long interval = Schedule.intervalMillis(a.path("interval").asText());
    Long startAt =
        a.path("scheduleStartAt").isTextual()
            ? OffsetDateTime.parse(a.get("scheduleStartAt").textValue()).toInstant().toEpochMilli()
            : null;
    Schedule schedule =
        new Schedule(interval, a.path("scheduleOffsetMinutes").asLong(0) * 60_000, startAt);
    Threshold threshold =
        new Threshold(
            a.path("thresholdType").asText(),
            a.path("threshold").asDouble(),
            a.path("thresholdMax").asDouble(0));
    Transition.Rules rules =
        new Transition.Rules(
            threshold,
            Math.max(1, a.path("numConsecutiveWindows").asInt(1)),
            a.path("renotifyIntervalMinutes").asLong(0) * 60_000);
    long silencedUntil =
        a.path("silenced").path("until").isTextual()
            ? OffsetDateTime.parse(a.get("silenced").get("until").textValue())
                .toInstant()
                .toEpochMilli()
            : 0;
    return new AlertSpec(
        a.path("id").asText(),
        serviceId,
        schedule,
        rules,
        silencedUntil,
        webhooks(a),
        target,
        text(a, "name"),
        text(a, "message"),
        text(a, "savedSearchId"),
        searchName,
        text(a, "dashboardId"),
        dashboardName,
        text(a, "tileId"),
        tileName);
  }

  /** The webhook ids of {@code channels} (HyperDX's list) or else {@code channel}. */
  private static List<String> webhooks(ObjectNode a) {
    Set<String> ids = new LinkedHashSet<>();
    JsonNode channels = a.path("channels").isArray() ? a.get("channels") : null;
    for (JsonNode c : channels != null ? channels : List.of(a.path("channel"))) {
      if (c.path("type").asText().equals("webhook") && c.path("webhookId").isTextual()) {
        ids.add(c.get("webhookId").textValue());
      }
    }
    return List.copyOf(ids);
  }

  private Optional<ObjectNode> lookup(
      Map<String, Optional<ObjectNode>> cache, Kind kind, String serviceId, String id) {
    return cache.computeIfAbsent(
        kind + "/" + serviceId + "/" + id, k -> resources.lookup(kind, serviceId, id));
  }

  private AlertSpec.Target tileTarget(JsonNode config, String warehouse) throws Unresolved {
    String table = table(config.path("sourceId").asText(), warehouse);
    JsonNode select = config.path("select");
    if (!select.isArray() || select.isEmpty()) {
      throw new Unresolved("the tile has no select item to evaluate");
    }
    List<String> groupBy = fields(config.path("groupBy").asText(""));
    boolean ratio = config.path("asRatio").asBoolean(false) && select.size() == 2;
    List<Series> series = new ArrayList<>();
    for (int i = ratio ? 0 : select.size() - 1; i < select.size(); i++) {
      series.add(series(select.get(i), table, groupBy));
    }
    return new AlertSpec.Target(
        series,
        ratio ? SeriesReturnType.RATIO : SeriesReturnType.COLUMN,
        backend(config.path("sourceId").asText(), warehouse));
  }

  private static Series series(JsonNode item, String table, List<String> groupBy)
      throws Unresolved {
    String fn = item.path("aggFn").asText();
    AggFn aggFn =
        AggFn.fromWireName(fn)
            .filter(f -> !f.isCount() || f == AggFn.COUNT)
            .orElseThrow(
                () -> new Unresolved("aggregation '" + fn + "' gives no value to compare"));
    String field = aggFn == AggFn.COUNT ? null : text(item, "valueExpression");
    Double level = item.path("level").isNumber() ? item.get("level").doubleValue() : null;
    return new Series(
        table,
        aggFn,
        field,
        level,
        item.path("where").asText(""),
        Languages.engine(language(item.path("whereLanguage").asText("lucene"))),
        groupBy);
  }

  private AlertSpec.Target searchTarget(ObjectNode search, String groupBy, String warehouse)
      throws Unresolved {
    String table = table(search.path("sourceId").asText(), warehouse);
    List<Expr> parts = new ArrayList<>();
    try {
      parts.add(
          WhereParser.parse(
              search.path("where").asText(""),
              language(search.path("whereLanguage").asText("lucene"))));
      for (JsonNode f : search.path("filters")) {
        parts.add(WhereParser.parse(f.path("condition").asText(""), WhereLanguage.SQL));
      }
    } catch (WhereSyntaxException e) {
      throw new Unresolved("the saved search's filter does not parse: " + e.getMessage());
    }
    parts.removeIf(e -> e instanceof Expr.MatchAll);
    Expr all = and(parts);
    WhereLanguage language = WhereLanguage.SQL;
    if (WherePrinter.canPrint(
        and(parts.stream().map(AlertSpecs::lucene).toList()), WhereLanguage.LUCENE)) {
      all = and(parts.stream().map(AlertSpecs::lucene).toList());
      language = WhereLanguage.LUCENE;
    } else if (!WherePrinter.canPrint(all, WhereLanguage.SQL)) {
      throw new Unresolved(
          "the saved search's Lucene where and its SQL filters cannot be combined (a filter uses"
              + " SQL that Lucene cannot express); write the where in SQL");
    }
    Series count =
        new Series(
            table,
            AggFn.COUNT,
            null,
            null,
            WherePrinter.print(all, language),
            Languages.engine(language),
            fields(groupBy));
    return new AlertSpec.Target(
        List.of(count),
        SeriesReturnType.COLUMN,
        backend(search.path("sourceId").asText(), warehouse));
  }

  private static Expr and(List<Expr> parts) {
    return parts.isEmpty()
        ? new Expr.MatchAll()
        : parts.size() == 1 ? parts.get(0) : new Expr.And(parts);
  }

  /**
   * The same filter with each {@code IN} written as equalities Lucene can express ({@code field IN
   * ('a', 'b')} matches exactly what {@code field = 'a' OR field = 'b'} does), so that a Lucene
   * {@code where} and the SQL filters HyperDX's facets write can be combined.
   */
  private static Expr lucene(Expr e) {
    if (e instanceof Expr.In in) {
      List<Expr> eqs = new ArrayList<>();
      for (String v : new LinkedHashSet<>(in.values())) {
        eqs.add(new Expr.Compare(in.operand(), Expr.CompareOp.EQ, v));
      }
      return eqs.size() == 1 ? eqs.get(0) : new Expr.Or(eqs);
    }
    if (e instanceof Expr.And a) {
      return new Expr.And(a.operands().stream().map(AlertSpecs::lucene).toList());
    }
    if (e instanceof Expr.Or o) {
      return new Expr.Or(o.operands().stream().map(AlertSpecs::lucene).toList());
    }
    if (e instanceof Expr.Not n) {
      return new Expr.Not(lucene(n.operand()));
    }
    return e;
  }

  /** The ClickHouse backend of a source on an external connection; {@code null}: the engine. */
  private Backend backend(String sourceId, String warehouse) {
    return catalog.clickHouseSourceOf(warehouse, sourceId).isPresent()
        ? new ClickHouseBackend(id -> catalog.clickHouseSourceOf(warehouse, id))
        : null;
  }

  private String table(String sourceId, String warehouse) throws Unresolved {
    if (catalog.clickHouseSourceOf(warehouse, sourceId).isPresent()) {
      return sourceId; // the ClickHouse backend knows sources by their own ids
    }
    return catalog
        .engineSourceOf(warehouse, sourceId)
        .map(Source::id)
        .orElseThrow(() -> new Unresolved("source " + sourceId + " no longer exists"));
  }

  /**
   * @param groupBy a group-by expression: field names separated by commas
   * @return the names
   */
  static List<String> fields(String groupBy) {
    List<String> out = new ArrayList<>();
    for (String f : groupBy.split(",")) {
      if (!f.isBlank()) {
        out.add(f.strip());
      }
    }
    return out;
  }

  private static WhereLanguage language(String wire) {
    return WhereLanguage.fromWireName(wire).orElse(WhereLanguage.LUCENE);
  }

  private static String text(JsonNode n, String field) {
    return n.path(field).isTextual() ? n.get(field).textValue() : null;
  }
}
