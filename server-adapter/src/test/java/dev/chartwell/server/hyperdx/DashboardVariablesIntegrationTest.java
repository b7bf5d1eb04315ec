package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dashboard variables through both APIs: a dashboard created through HyperDX's API with a variable
 * (a filter with {@code isVariableEnabled} and {@code variableName}) and tiles naming {@code
 * $service} in their where reads back unchanged through the Cloud API, and a replacement through
 * the Cloud API (whose document lacks the variable fields) keeps them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardVariablesIntegrationTest {
  V2Fixture f;
  String source;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    source = f.logSource("otel_logs");
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private String dashboard() {
    return "{\"name\":\"By service\",\"tiles\":[{\"name\":\"errors\",\"x\":0,\"y\":0,\"w\":12,"
        + "\"h\":4,\"config\":{\"displayType\":\"line\",\"sourceId\":\""
        + source
        + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\"ServiceName:$service"
        + " SeverityText:error\"}]}},{\"name\":\"sql\",\"x\":12,\"y\":0,\"w\":12,\"h\":4,"
        + "\"config\":{\"displayType\":\"line\",\"sourceId\":\""
        + source
        + "\",\"select\":[{\"aggFn\":\"count\",\"where\":\"ServiceName = '$service'\","
        + "\"whereLanguage\":\"sql\"}]}}],\"filters\":[{\"type\":\"QUERY_EXPRESSION\","
        + "\"name\":\"Service\",\"expression\":\"ServiceName\",\"sourceId\":\""
        + source
        + "\",\"isVariableEnabled\":true,\"variableName\":\"service\"}]}";
  }

  @Test
  void aVariableRoundTripsThroughBothApis() throws Exception {
    JsonNode made = f.ok("POST", "/api/v2/dashboards", dashboard()).get("data");
    String id = made.get("id").asText();
    JsonNode filter = made.get("filters").get(0);
    assertTrue(filter.get("isVariableEnabled").asBoolean(), made.toString());
    assertEquals("service", filter.get("variableName").asText());

    JsonNode cloud = f.cloud("GET", f.clickstack("dashboards") + "/" + id, null);
    assertEquals(
        "ServiceName:$service SeverityText:error",
        cloud.get("tiles").get(0).get("config").get("select").get(0).get("where").asText());
    assertEquals(
        "ServiceName = '$service'",
        cloud.get("tiles").get(1).get("config").get("select").get(0).get("where").asText());
    assertEquals("ServiceName", cloud.get("filters").get(0).get("expression").asText());
    // The Cloud API's document has no variable fields: its strict clients do not see them ...
    assertFalse(cloud.get("filters").get(0).has("isVariableEnabled"), cloud.toString());

    // ... and a replacement by such a client (what it read, renamed) keeps them.
    ((ObjectNode) cloud).put("name", "By service (renamed)");
    f.cloud("PUT", f.clickstack("dashboards") + "/" + id, cloud.toString());
    JsonNode back = f.ok("GET", "/api/v2/dashboards/" + id, null).get("data");
    assertEquals("By service (renamed)", back.get("name").asText());
    assertEquals(made.get("filters"), back.get("filters"));
    assertEquals(made.get("tiles"), back.get("tiles"));

    // The web UI reads it with an API key and X-Service-Id, variables included.
    HttpResponse<String> byKey =
        f.http.send(
            "GET",
            "/api/v2/dashboards/" + id,
            null,
            "Authorization",
            V2Fixture.ADMIN,
            "X-Service-Id",
            f.serviceId);
    assertEquals(200, byKey.statusCode(), byKey.body());
    assertEquals(
        made.get("filters"), V2Fixture.MAPPER.readTree(byKey.body()).get("data").get("filters"));
  }

  @Test
  void aBadVariableNameIsRefusedByName() throws Exception {
    String bad = dashboard().replace("\"variableName\":\"service\"", "\"variableName\":\"9x\"");
    String e = f.fails(400, "POST", "/api/v2/dashboards", bad);
    assertTrue(e.contains("filters[0].variableName") || e.contains("variableName"), e);
  }
}
