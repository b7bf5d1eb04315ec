package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceStats;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chartwell's own {@code GET /api/v2/stats}: for each source of the Bearer token's warehouse, the
 * events its table holds, how fast they arrive, how far sealing lags behind and how many bytes they
 * take on disk. Answers use the HyperDX envelope {@code {"data": ...}}.
 */
public final class StatsRoutes {
  private StatsRoutes() {}

  /**
   * @param router where to add the route
   * @param services the services (tokens)
   * @param catalog the sources and their tables
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router, Services services, Catalog catalog, long maxBodyBytes) {
    router.add(
        "GET",
        "/api/v2/stats",
        ChartRoutes.serviceToken(services),
        maxBodyBytes,
        req -> stats(req, catalog));
  }

  private static Response stats(Request req, Catalog catalog) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    String warehouse = p.warehouseId();
    List<Map<String, Object>> sources = new ArrayList<>();
    for (ObjectNode s : catalog.sources(warehouse)) {
      String id = s.get("id").asText();
      Optional<SourceStats> st = catalog.engineSourceOf(warehouse, id).map(Source::stats);
      sources.add(view(s, st));
    }
    return Response.json(200, Map.of("data", Map.of("sources", sources)));
  }

  /** One source: its ids and table, then its table's figures (zeros when it holds nothing yet). */
  private static Map<String, Object> view(ObjectNode source, Optional<SourceStats> stats) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("id", source.get("id").asText());
    v.put("name", source.path("name").asText());
    v.put("databaseName", source.path("from").path("databaseName").asText(null));
    v.put("tableName", source.path("from").path("tableName").asText(null));
    v.put("rows", stats.map(SourceStats::rows).orElse(0L));
    v.put("segments", stats.map(SourceStats::segments).orElse(0));
    v.put("headRows", stats.map(SourceStats::headRows).orElse(0L));
    v.put("headBytes", stats.map(SourceStats::headBytes).orElse(0L));
    v.put("sealBacklog", stats.map(SourceStats::sealBacklog).orElse(0));
    v.put("sealBacklogRows", stats.map(SourceStats::sealBacklogRows).orElse(0L));
    v.put("appendsHeldBack", stats.map(SourceStats::appendsHeldBack).orElse(0L));
    v.put("heldBackMillis", stats.map(SourceStats::heldBackMillis).orElse(0L));
    v.put("acceptedEvents", stats.map(SourceStats::acceptedEvents).orElse(0L));
    v.put(
        "eventsPerSecond", stats.map(s -> Math.round(s.eventsPerSecond() * 10) / 10.0).orElse(0.0));
    v.put("diskBytes", stats.map(SourceStats::diskBytes).orElse(0L));
    v.put("logBytes", stats.map(SourceStats::logBytes).orElse(0L));
    return v;
  }
}
