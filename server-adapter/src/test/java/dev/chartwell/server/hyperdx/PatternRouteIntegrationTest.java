package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v2/patterns} over HTTP: lines of known templates come back as their patterns
 * with exact counts, sparklines, samples and wheres whose counts are checked; more events than the
 * sample reads are sampled and say so; bad requests name the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PatternRouteIntegrationTest {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final String RANGE =
      "\"startTime\":\"2026-01-01T00:00:00Z\",\"endTime\":\"2026-01-01T01:00:00Z\"";

  V2Fixture f;
  String logs;
  String big;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    logs = f.logSource("Logs", "default", "logs");
    StringBuilder lines = new StringBuilder();
    int n = 0;
    for (int i = 0; i < 12; i++) {
      n =
          line(
              lines, n, i < 6 ? "api" : "web", "user " + (100 + i) + " logged in from 10.0.0." + i);
    }
    for (int i = 0; i < 8; i++) {
      n = line(lines, n, "api", "payment " + (7000 + i) + " authorized amount " + i * 3 + " cents");
    }
    for (int i = 0; i < 5; i++) {
      n = line(lines, n, "db", "disk usage at " + (50 + i) + " percent on volume " + i);
    }
    for (int i = 0; i < 2; i++) {
      n = line(lines, n, "db", "in from user logged " + i + " times");
    }
    f.ingest("/api/v2/sources/" + logs + "/events", lines.toString());

    big = f.logSource("Big", "default", "big");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 15_000; i++) {
      String body =
          switch (i % 3) {
            case 0 -> "cache miss for key session:" + i + " (" + i % 97 + " bytes)";
            case 1 -> "GET /api/v1/users/" + i + " 200 in " + i % 50 + "ms";
            default -> "order " + i + " cancelled by user " + i % 13;
          };
      many.append("{\"Timestamp\":").append(T0 + i * 200L).append(",\"Body\":\"");
      many.append(body).append("\",\"ServiceName\":\"s\"}\n");
    }
    f.ingest("/api/v2/sources/" + big + "/events", many.toString());
  }

  private static int line(StringBuilder out, int n, String service, String body) {
    out.append("{\"Timestamp\":").append(T0 + n * 60_000L).append(",\"Body\":\"").append(body);
    out.append("\",\"ServiceName\":\"").append(service).append("\"}\n");
    return n + 1;
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private JsonNode patterns(String source, String more) throws Exception {
    return f.ok(
            "POST", "/api/v2/patterns", "{\"sourceId\":\"" + source + "\"," + RANGE + more + "}")
        .get("data");
  }

  private static Map<String, JsonNode> byPattern(JsonNode d) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    d.get("patterns").forEach(p -> out.put(p.get("pattern").asText(), p));
    return out;
  }

  @Test
  void theTemplatesWithExactCountsLargestFirst() throws Exception {
    JsonNode d = patterns(logs, "");
    assertEquals("Body", d.get("field").asText());
    assertFalse(d.get("sampled").asBoolean());
    assertEquals(27, d.get("eventsMatched").asLong());
    assertEquals(27, d.get("eventsConsidered").asLong());
    assertEquals("5m", d.get("granularity").asText(), "1m would cut the hour into 61");
    assertEquals(13, d.get("bucketStarts").size(), "01:00:00 itself is in the range");
    Map<String, JsonNode> p = byPattern(d);
    assertEquals(
        "[user <NUM> logged in from <IP>, payment <NUM> authorized amount <NUM> cents,"
            + " disk usage at <NUM> percent on volume <NUM>, in from user logged <NUM> times]",
        p.keySet().toString());
    JsonNode login = p.get("user <NUM> logged in from <IP>");
    assertEquals(12, login.get("count").asLong());
    assertEquals("user", login.get("where").asText(), "its other words single out no fewer");
    assertEquals(14, login.get("whereCount").asLong(), "the two reordered lines match it too");
    assertEquals(2, login.get("otherMatches").asLong());
    assertEquals("user 111 logged in from 10.0.0.11", login.get("sample").get("text").asText());
    assertEquals("2026-01-01T00:11:00Z", login.get("sample").get("time").asText());
    long[] spark = {5, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; // a login a minute from 00:00
    for (int b = 0; b < 13; b++) {
      assertEquals(spark[b], login.get("sparkline").get(b).asLong(), "bucket " + b);
    }
    JsonNode disk = p.get("disk usage at <NUM> percent on volume <NUM>");
    assertEquals(5, disk.get("count").asLong());
    assertEquals(0, disk.get("otherMatches").asLong());
    assertEquals(5, disk.get("whereCount").asLong());
  }

  @Test
  void narrowedByTheWhereNewestFirstAndLimited() throws Exception {
    JsonNode d = patterns(logs, ",\"where\":\"ServiceName:api\",\"order\":\"newest\",\"limit\":1");
    assertEquals(14, d.get("eventsMatched").asLong());
    assertEquals(2, d.get("patternCount").asInt());
    JsonNode only = d.get("patterns").get(0);
    assertEquals("payment <NUM> authorized amount <NUM> cents", only.get("pattern").asText());
    assertEquals("(ServiceName:api) payment", only.get("where").asText());
    assertEquals(8, only.get("whereCount").asLong());
    assertEquals(1, d.get("patterns").size());
  }

  @Test
  void sqlWheresAndAnotherField() throws Exception {
    JsonNode d = patterns(logs, ",\"where\":\"ServiceName = 'web'\",\"whereLanguage\":\"sql\"");
    JsonNode login = d.get("patterns").get(0);
    assertEquals(6, login.get("count").asLong());
    assertEquals("(ServiceName = 'web')", login.get("where").asText(), "every web line is a login");
    assertEquals(6, login.get("whereCount").asLong());
    d = patterns(logs, ",\"where\":\"ServiceName != 'web'\",\"whereLanguage\":\"sql\"");
    login = byPattern(d).get("user <NUM> logged in from <IP>");
    assertEquals(6, login.get("count").asLong());
    assertEquals(
        "(ServiceName != 'web') AND hasToken(`Body`, 'user')", login.get("where").asText());
    assertEquals(8, login.get("whereCount").asLong(), "and the two reordered lines");
    d = patterns(logs, ",\"field\":\"ServiceName\"");
    assertEquals("[api, db, web]", byPattern(d).keySet().stream().sorted().toList().toString());
    assertEquals("ServiceName:api", byPattern(d).get("api").get("where").asText());
    assertEquals(14, byPattern(d).get("api").get("whereCount").asLong());
  }

  @Test
  void moreEventsThanTheSampleAreSampledAndSaySo() throws Exception {
    JsonNode d = patterns(big, "");
    assertTrue(d.get("sampled").asBoolean());
    assertEquals(15_000, d.get("eventsMatched").asLong());
    long considered = d.get("eventsConsidered").asLong();
    assertTrue(
        considered > PatternSample.SAMPLE - 10 && considered <= PatternSample.SAMPLE,
        "read " + considered);
    Map<String, JsonNode> p = byPattern(d);
    assertEquals(3, p.size(), p.keySet().toString());
    long rows = 0;
    for (JsonNode x : p.values()) {
      assertEquals(5_000, x.get("whereCount").asLong(), x.get("where").asText());
      assertEquals(
          5_000, x.get("count").asLong(), "no other line read has its words: the where's count");
      assertEquals(0, x.get("otherMatches").asLong());
      rows += x.get("sampleRows").asLong();
    }
    assertEquals(considered, rows, "every row read is in one pattern");
    assertTrue(p.containsKey("GET /api/v1/users/<NUM> <NUM> in <DURATION>"), p.keySet().toString());
  }

  @Test
  void badRequestsNameTheField() throws Exception {
    String e =
        f.fails(
            400,
            "POST",
            "/api/v2/patterns",
            "{" + RANGE + ",\"limit\":0,\"order\":\"size\",\"x\":1,\"whereLanguage\":\"kql\"}");
    assertTrue(e.contains("sourceId: is required"), e);
    assertTrue(e.contains("limit: must be an integer from 1 to 100"), e);
    assertTrue(e.contains("order: must be count or newest"), e);
    assertTrue(e.contains("x: unknown field"), e);
    assertTrue(e.contains("whereLanguage: must be one of lucene, sql"), e);
    String src = "{\"sourceId\":\"" + logs + "\",";
    e = f.fails(400, "POST", "/api/v2/patterns", src + RANGE + ",\"field\":\"Nope\"}");
    assertTrue(e.contains("field: source " + logs + " has no column 'Nope'"), e);
    e =
        f.fails(
            400,
            "POST",
            "/api/v2/patterns",
            src + "\"startTime\":\"2025-01-01T00:00:00Z\",\"endTime\":\"2026-01-01T00:00:00Z\"}");
    assertTrue(e.contains("endTime: the range is longer than 31 days"), e);
    e = f.fails(400, "POST", "/api/v2/patterns", src + RANGE + ",\"where\":\"(((\"}");
    assertTrue(e.contains("where"), e);
    f.fails(404, "POST", "/api/v2/patterns", "{\"sourceId\":\"aaaaaaaaaaaaaaaaaaaaaaaa\"}");
  }
}
