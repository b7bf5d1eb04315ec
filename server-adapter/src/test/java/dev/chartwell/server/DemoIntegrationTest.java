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

/** {@code --demo}: created once, loaded at every start, and the printed query works. */
class DemoIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dataDir;

  private ChartwellServer start() throws Exception {
    return ChartwellServer.start(
        ServerConfig.parse(
            new String[] {"--port", "0", "--data-dir", dataDir.toString(), "--demo"}, Map.of()),
        new PrintStream(new ByteArrayOutputStream(), true));
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

      String all =
          body.replace(",\"where\":\"SeverityText:error\",\"groupBy\":[\"ServiceName\"]", "");
      long total = 0;
      for (JsonNode row :
          MAPPER
              .readTree(
                  http.send(
                          "POST", "/api/v2/charts/series", all, "Authorization", "Bearer " + token)
                      .body())
              .get("data")) {
        total += row.get("series_0.data").longValue();
      }
      assertEquals(Demo.EVENTS, total);
    }
    try (ChartwellServer again = start()) {
      assertEquals(serviceId, fact(again.banner(), "demo service id: "), "created once");
      assertEquals(sourceId, fact(again.banner(), "demo source id: "));
      String token = fact(again.banner(), "demo token: ");
      String curl = fact(again.banner(), "try: ");
      String body = curl.substring(curl.indexOf("-d '") + 4, curl.lastIndexOf("' http"));
      HttpResponse<String> r =
          new HttpTestClient(again.port())
              .send("POST", "/api/v2/charts/series", body, "Authorization", "Bearer " + token);
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(MAPPER.readTree(r.body()).get("data").size() > 20, "events are loaded again");
    }
  }
}
