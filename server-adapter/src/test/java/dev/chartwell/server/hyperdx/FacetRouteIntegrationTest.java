package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v2/facets} over HTTP: the top values with counts of the source's default fields
 * (service, severity, host) or of the asked ones, narrowed by the where, ranked by count; a field
 * with too many values or no column answers its own error; bad requests name the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FacetRouteIntegrationTest {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final String RANGE =
      "\"startTime\":\"2026-01-01T00:00:00Z\",\"endTime\":\"2026-01-01T01:00:00Z\"";

  V2Fixture f;
  String logs;
  String wide;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    logs = f.sendThirtyLogs(T0);
    wide = f.logSource("Wide", "default", "wide");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i <= 10_000; i++) {
      lines.append("{\"Timestamp\":").append(T0 + i).append(",\"Body\":\"b").append(i);
      lines.append("\",\"ServiceName\":\"s").append(i % 3).append("\"}\n");
    }
    f.ingest("/api/v2/sources/" + wide + "/events", lines.toString());
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private JsonNode facets(String source, String more) throws Exception {
    return f.ok("POST", "/api/v2/facets", "{\"sourceId\":\"" + source + "\"," + RANGE + more + "}")
        .get("data");
  }

  private static String values(JsonNode facet) {
    StringBuilder sb = new StringBuilder();
    facet
        .get("values")
        .forEach(
            v ->
                sb.append(v.get("value").asText())
                    .append('=')
                    .append(v.get("count").asLong())
                    .append(' '));
    return sb.toString().strip();
  }

  @Test
  void theDefaultFieldsTopValuesWithCounts() throws Exception {
    JsonNode d = facets(logs, "");
    assertEquals(30, d.get("total").asLong());
    JsonNode fields = d.get("fields");
    assertEquals("ServiceName", fields.get(0).get("field").asText());
    assertEquals("api=15 db=10 web=5", values(fields.get(0)));
    assertEquals(3, fields.get(0).get("distinct").asInt());
    assertEquals("SeverityText", fields.get(1).get("field").asText());
    assertEquals("INFO=24 ERROR=6", values(fields.get(1)));
    assertEquals("ResourceAttributes.host.name", fields.get(2).get("field").asText());
    assertEquals("host-0=15 host-1=12", values(fields.get(2)));
    assertEquals(3, fields.get(2).get("missingCount").asLong(), "lines 9, 19 and 29 have no host");
    assertEquals(3, fields.size(), fields.toString());
  }

  @Test
  void askedFieldsNarrowedByTheWhereAndALimit() throws Exception {
    JsonNode d =
        facets(
            logs,
            ",\"where\":\"SeverityText:ERROR\",\"fields\":[\"ServiceName\","
                + "\"ResourceAttributes['host.name']\"],\"limit\":1");
    assertEquals(6, d.get("total").asLong());
    assertEquals("api=3", values(d.get("fields").get(0)));
    assertEquals(3, d.get("fields").get(0).get("otherCount").asLong(), "db 2, web 1");
    assertEquals("ResourceAttributes.host.name", d.get("fields").get(1).get("field").asText());
    assertEquals("host-0=3", values(d.get("fields").get(1)));
    d =
        facets(
            logs,
            ",\"where\":\"SeverityText = 'ERROR' AND ServiceName = 'db'\",\"whereLanguage\":\"sql\",\"fields\":[\"ServiceName\"]");
    assertEquals("db=2", values(d.get("fields").get(0)));
  }

  @Test
  void aFieldWithTooManyValuesOrNoColumnAnswersItsOwnError() throws Exception {
    JsonNode d = facets(wide, ",\"fields\":[\"Body\",\"ServiceName\",\"Nope\"]");
    JsonNode fields = d.get("fields");
    assertTrue(
        fields.get(0).get("error").asText().contains("more than 10,000 distinct values"),
        fields.toString());
    assertEquals("s0=3334 s1=3334 s2=3333", values(fields.get(1)));
    assertEquals("source " + wide + " has no column 'Nope'", fields.get(2).get("error").asText());
    assertEquals(10_001, d.get("total").asLong());
  }

  @Test
  void badRequestsNameTheField() throws Exception {
    String e =
        f.fails(400, "POST", "/api/v2/facets", "{" + RANGE + ",\"fields\":[],\"limit\":0,\"x\":1}");
    assertTrue(e.contains("sourceId: is required"), e);
    assertTrue(e.contains("fields: must be an array of 1 to 10"), e);
    assertTrue(e.contains("limit: must be an integer from 1 to 100"), e);
    assertTrue(e.contains("x: unknown field"), e);
    e = f.fails(400, "POST", "/api/v2/facets", "{\"sourceId\":\"" + logs + "\",\"where\":\"(((\"}");
    assertTrue(e.contains("where"), e);
    f.fails(404, "POST", "/api/v2/facets", "{\"sourceId\":\"aaaaaaaaaaaaaaaaaaaaaaaa\"}");
  }
}
