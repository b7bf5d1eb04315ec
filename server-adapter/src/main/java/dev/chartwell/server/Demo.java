package dev.chartwell.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.management.Organization;
import dev.chartwell.server.management.Services;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * {@code --demo}: the service {@code demo}, its log source {@code demo-logs}, about a million
 * deterministic synthetic log events over the 24 hours before the first start and a dashboard of
 * five tiles over them ({@link DemoDashboard}), all created once and kept in the data directory (a
 * later start finds them there and loads nothing).
 */
final class Demo {
  static final int EVENTS = 1_000_000;
  private static final String[] SERVICES = {"api", "web", "auth", "payments", "search", "checkout"};
  private static final int[] SERVICE_WEIGHTS = {30, 25, 15, 12, 10, 8};
  private static final String[] SEVERITIES = {"debug", "info", "warn", "error"};
  private static final int[] SEVERITY_WEIGHTS = {20, 62, 12, 6};
  private static final long[] STATUS = {200, 201, 204, 302, 400, 401, 404, 500, 502, 503};
  private static final int[] STATUS_WEIGHTS = {60, 8, 5, 4, 5, 3, 6, 5, 2, 2};
  private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE"};
  private static final String[] ROUTES = {
    "/api/v1/users", "/api/v1/orders", "/api/v1/cart", "/api/v1/search", "/login", "/health"
  };
  private static final String[] ERRORS = {
    "connection reset by peer", "upstream timeout", "invalid token", "deadlock detected"
  };

  private Demo() {}

  /**
   * Ensures the demo exists and is loaded.
   *
   * @return the lines to print: service id, token, source id, the demo dashboard's URL in the web
   *     UI and a curl command
   */
  static List<String> ensure(
      Organization org,
      Services services,
      Catalog catalog,
      Resources resources,
      ObjectMapper mapper,
      String baseUrl,
      java.util.function.Consumer<String> progress)
      throws InterruptedException {
    LocalService service = LocalService.ensure(org, services, mapper, "demo", Optional.empty());
    String serviceId = service.id();
    String token = service.token();
    String warehouse = service.warehouse();
    String sourceId =
        catalog.sources(warehouse).stream()
            .filter(s -> s.get("name").asText().equals("demo-logs"))
            .findFirst()
            .map(s -> s.get("id").asText())
            .orElseGet(
                () -> {
                  ObjectNode def = mapper.createObjectNode();
                  def.put("name", "demo-logs");
                  def.put("kind", "log");
                  def.put("serviceNameExpression", "ServiceName");
                  def.put("severityTextExpression", "SeverityText");
                  return catalog.createSource(warehouse, def).get("id").asText();
                });
    long end = System.currentTimeMillis();
    Source source = catalog.engineSourceOf(warehouse, sourceId).orElseThrow();
    if (source.stats().rows() == 0) {
      progress.accept(
          String.format(
              java.util.Locale.ROOT,
              "loading %,d demo events (once: they are kept in the data directory)",
              EVENTS));
      long t0 = System.nanoTime();
      load(source, end, progress);
      progress.accept(
          String.format(
              java.util.Locale.ROOT,
              "loaded the demo events in %.1f s",
              (System.nanoTime() - t0) / 1e9));
    }
    long start = end - 24 * 3_600_000L;
    String query =
        "{\"startTime\":"
            + start
            + ",\"endTime\":"
            + end
            + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
            + sourceId
            + "\",\"aggFn\":\"count\",\"where\":\"SeverityText:error\",\"groupBy\":[\"ServiceName\"]}]}";
    String dashboardId =
        DemoDashboard.ensure(resources, mapper, serviceId, warehouse, catalog, sourceId);
    return List.of(
        "demo service id: " + serviceId,
        "demo token: " + token,
        "demo source id: " + sourceId,
        "demo dashboard: " + baseUrl + "/dashboards/" + serviceId + "/" + dashboardId,
        "try: curl -s -H 'Authorization: Bearer "
            + token
            + "' -H 'Content-Type: application/json' -d '"
            + query
            + "' "
            + baseUrl
            + "/api/v2/charts/series");
  }

  /** How often loading says how far it got. */
  private static final long PROGRESS_NANOS = 2_000_000_000L;

  /**
   * About a million events over the 24 hours before {@code end}; the same every time.
   *
   * @param source where they go
   * @param end the newest event's time
   * @param progress told how far loading got, about every two seconds
   */
  static void load(Source source, long end, Consumer<String> progress) {
    long lastSaid = System.nanoTime();
    SplittableRandom random = new SplittableRandom(2026);
    long span = 24 * 3_600_000L;
    List<Event> batch = new ArrayList<>(10_000);
    for (int i = 0; i < EVENTS; i++) {
      long ts = end - span + (span * i) / EVENTS;
      Map<String, Object> f = new HashMap<>();
      String service = SERVICES[pick(random, SERVICE_WEIGHTS)];
      String severity = SEVERITIES[pick(random, SEVERITY_WEIGHTS)];
      long status = STATUS[pick(random, STATUS_WEIGHTS)];
      String method = METHODS[random.nextInt(METHODS.length)];
      String route = ROUTES[random.nextInt(ROUTES.length)];
      double duration = Math.round(Math.exp(random.nextGaussian() + 3.5) * 100) / 100.0;
      f.put("ServiceName", service);
      f.put("SeverityText", severity);
      f.put("host", "ip-10-0-" + random.nextInt(4) + "-" + random.nextInt(40));
      f.put("status", status);
      f.put("Duration", duration);
      f.put("LogAttributes.http.method", method);
      f.put("LogAttributes.http.route", route);
      String body;
      if (severity.equals("error")) {
        String error = ERRORS[random.nextInt(ERRORS.length)];
        f.put("LogAttributes.error.message", error);
        body =
            method
                + " "
                + route
                + " failed with "
                + status
                + ": "
                + error
                + " after "
                + (long) duration
                + "ms";
      } else {
        body =
            method
                + " "
                + route
                + " "
                + status
                + " in "
                + (long) duration
                + "ms user="
                + random.nextInt(5000);
      }
      f.put("Body", body);
      batch.add(new Event(ts, f));
      if (batch.size() == 10_000) {
        source.appendBatch(batch);
        batch.clear();
        if (System.nanoTime() - lastSaid >= PROGRESS_NANOS) {
          lastSaid = System.nanoTime();
          progress.accept(
              String.format(
                  java.util.Locale.ROOT, "loading demo events: %,d of %,d", i + 1, EVENTS));
        }
      }
    }
    source.appendBatch(batch);
    source.seal();
  }

  private static int pick(SplittableRandom random, int[] weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int r = random.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }
}
