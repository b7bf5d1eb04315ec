package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.HttpTestClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --demo}: created and loaded once (the events are kept), and the printed query works. */
class DemoIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dataDir;

  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  private ChartwellServer start() throws Exception {
    log.reset();
    return ChartwellServer.start(
        ServerConfig.parse(
            new String[] {"--port", "0", "--data-dir", dataDir.toString(), "--demo"}, Map.of()),
        new PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Every demo event: the printed query without its filter, from an hour earlier. */
  private static long total(HttpTestClient http, String body, String token) throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode query =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            MAPPER.readTree(
                body.replace(
                    ",\"where\":\"SeverityText:error\",\"groupBy\":[\"ServiceName\"]", ""));
    query.put("startTime", query.get("startTime").longValue() - 3_600_000L);
    String all = MAPPER.writeValueAsString(query);
    long total = 0;
    for (JsonNode row :
        MAPPER
            .readTree(
                http.send("POST", "/api/v2/charts/series", all, "Authorization", "Bearer " + token)
                    .body())
            .get("data")) {
      total += row.get("series_0.data").longValue();
    }
    return total;
  }

  private static String fact(List<String> banner, String prefix) {
    return banner.stream()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no '" + prefix + "' in " + banner))
        .substring(prefix.length());
  }

  @Test
  void demoIsCreatedOnceAndItsPrintedQueryReturnsAChart() throws Exception {
    String serviceId;
    String sourceId;
    try (ChartwellServer server = start()) {
      List<String> banner = server.banner();
      serviceId = fact(banner, "demo service id: ");
      sourceId = fact(banner, "demo source id: ");
      String token = fact(banner, "demo token: ");
      String curl = fact(banner, "try: ");
      assertTrue(curl.contains("Bearer " + token), curl);
      String body = curl.substring(curl.indexOf("-d '") + 4, curl.lastIndexOf("' http"));

      HttpTestClient http = new HttpTestClient(server.port());
      HttpResponse<String> r =
          http.send("POST", "/api/v2/charts/series", body, "Authorization", "Bearer " + token);
      assertEquals(200, r.statusCode(), r.body());
      JsonNode data = MAPPER.readTree(r.body()).get("data");
      assertTrue(data.size() > 20, "a non-empty chart: " + data.size() + " rows");
      assertTrue(data.get(0).get("series_0.data").longValue() > 0);

      assertEquals(Demo.EVENTS, total(http, body, token));
      assertTrue(log.toString().contains("loading 1,000,000 demo events"), log.toString());
    }
    try (ChartwellServer again = start()) {
      assertEquals(serviceId, fact(again.banner(), "demo service id: "), "created once");
      assertEquals(sourceId, fact(again.banner(), "demo source id: "));
      String token = fact(again.banner(), "demo token: ");
      String curl = fact(again.banner(), "try: ");
      String body = curl.substring(curl.indexOf("-d '") + 4, curl.lastIndexOf("' http"));
      HttpTestClient http = new HttpTestClient(again.port());
      HttpResponse<String> r =
          http.send("POST", "/api/v2/charts/series", body, "Authorization", "Bearer " + token);
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(MAPPER.readTree(r.body()).get("data").size() > 20, "the kept events answer");
      assertEquals(Demo.EVENTS, total(http, body, token), "kept, not loaded again");
      String dashboardUrl = fact(again.banner(), "demo dashboard: ");
      String dashboardId = dashboardUrl.substring(dashboardUrl.lastIndexOf('/') + 1);
      assertEquals(
          "http://127.0.0.1:" + again.port() + "/dashboards/" + serviceId + "/" + dashboardId,
          dashboardUrl);
      HttpResponse<String> dashboard =
          http.send(
              "GET", "/api/v2/dashboards/" + dashboardId, null, "Authorization", "Bearer " + token);
      assertEquals(200, dashboard.statusCode(), dashboard.body());
      JsonNode tiles = MAPPER.readTree(dashboard.body()).get("data").get("tiles");
      assertEquals(5, tiles.size(), "five tiles over the demo data");
      HttpResponse<String> page =
          http.send("GET", "/dashboards/" + serviceId + "/" + dashboardId, null);
      assertEquals(200, page.statusCode());
      assertTrue(page.body().contains("<script"), "the UI's page: " + page.body());
      assertTrue(!log.toString().contains("loading"), log.toString());
      assertTrue(log.toString().contains("opening 1 sources"), log.toString());
    }
  }
}
