package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code POST /api/v2/search} over HTTP: the events of a source matching a where in a time range,
 * newest first, with the source's default columns or the asked ones, paged; and every rule of the
 * request as a 400 naming the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchIntegrationTest {
  private static final String URL = "/api/v2/search";
  private static final long NOW = System.currentTimeMillis();

  V2Fixture f;
  String source;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    source = f.logSource("otel_logs");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      lines.add(
          event(
              "2026-05-10T00:0" + i + ":00Z",
              i % 2 == 0 ? "api" : "web",
              i % 3 == 0 ? "ERROR" : "INFO",
              "request " + i,
              "GET"));
    }
    // Two recent events: the default range is the 15 minutes before now.
    lines.add(event(NOW - 60_000, "api", "ERROR", "recent one", "POST"));
    lines.add(event(NOW - 30 * 60_000, "api", "ERROR", "half an hour ago", "POST"));
    f.ingest("/api/v2/sources/" + source + "/events", String.join("\n", lines));
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private static String event(Object time, String svc, String sev, String body, String method) {
    return "{\"Timestamp\":"
        + (time instanceof String ? "\"" + time + "\"" : time)
        + ",\"ServiceName\":\""
        + svc
        + "\",\"SeverityText\":\""
        + sev
        + "\",\"Body\":\""
        + body
        + "\",\"LogAttributes\":{\"http.method\":\""
        + method
        + "\"}}";
  }

  private String search(String more) {
    return "{\"sourceId\":\""
        + source
        + "\",\"startTime\":\"2026-05-10T00:00:00Z\",\"endTime\":\"2026-05-10T01:00:00Z\""
        + more
        + "}";
  }

  private List<String> bodies(JsonNode answer) {
    List<String> out = new ArrayList<>();
    answer.get("data").forEach(r -> out.add(r.get("Body").asText()));
    assertEquals(out.size(), answer.get("rows").asInt());
    return out;
  }

  @Test
  void matchingEventsNewestFirstWithTheSourcesDefaultColumns() throws Exception {
    JsonNode r = f.ok("POST", URL, search(",\"where\":\"SeverityText:ERROR\""));
    assertEquals(List.of("request 9", "request 6", "request 3", "request 0"), bodies(r));
    assertEquals(
        "{\"Timestamp\":\"2026-05-10T00:09:00Z\",\"ServiceName\":\"web\",\"Body\":\"request 9\"}",
        r.get("data").get(0).toString());
    r =
        f.ok(
            "POST",
            URL,
            search(
                ",\"where\":\"ServiceName = 'api' AND SeverityText = 'INFO'\",\"whereLanguage\":\"sql\""));
    assertEquals(List.of("request 8", "request 4", "request 2"), bodies(r));
  }

  @Test
  void selectNamesColumnsMapLookupsAndAliases() throws Exception {
    JsonNode r =
        f.ok(
            "POST",
            URL,
            search(
                ",\"where\":\"Body = 'request 1'\",\"whereLanguage\":\"sql\",\"select\":\"Body, LogAttributes['http.method'] AS method,"
                    + " `SeverityText`\""));
    assertEquals(
        "[{\"Body\":\"request 1\",\"method\":\"GET\",\"`SeverityText`\":\"INFO\"}]",
        r.get("data").toString());
  }

  @Test
  void orderPagingAndTheDefaultRange() throws Exception {
    JsonNode r =
        f.ok("POST", URL, search(",\"orderBy\":\"Timestamp ASC\",\"maxResults\":3,\"offset\":2"));
    assertEquals(List.of("request 2", "request 3", "request 4"), bodies(r));
    r = f.ok("POST", URL, search(",\"maxResults\":2,\"offset\":9"));
    assertEquals(List.of("request 0"), bodies(r));
    r = f.ok("POST", URL, search(",\"offset\":10"));
    assertEquals(List.of(), bodies(r));
    // No times: the 15 minutes before now.
    r = f.ok("POST", URL, "{\"sourceId\":\"" + source + "\"}");
    assertEquals(List.of("recent one"), bodies(r));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ,"limit":5 | limit: unknown field
          ,"maxResults":0 | maxResults: must be an integer from 1 to 2000
          ,"maxResults":2001 | maxResults: must be an integer from 1 to 2000
          ,"offset":-1 | offset: must be an integer from 0 to 10000
          ,"whereLanguage":"promql" | whereLanguage: must be one of lucene, sql
          ,"where":"a AND" | where: line 1, column 6: unexpected end of input
          ,"select":"count(*)" | select: 'count(*)' is not a column
          ,"select":"Body; DROP TABLE x" | select: must not hold semicolons or subqueries
          ,"select":"Nope" | select: source SOURCE has no column 'Nope'
          ,"orderBy":"ServiceName" | orderBy: search results are ordered by the source's timestamp column
          """)
  void everyRuleIsA400NamingTheField(String more, String error) throws Exception {
    String e = f.fails(400, "POST", URL, search(more));
    assertTrue(e.contains(error.replace("SOURCE", source)), e);
  }

  @Test
  void timesAndSourcesAreChecked() throws Exception {
    String e =
        f.fails(400, "POST", URL, "{\"sourceId\":\"" + source + "\",\"startTime\":\"yesterday\"}");
    assertTrue(e.contains("startTime: must be an ISO-8601 time with an offset"), e);
    e =
        f.fails(
            400,
            "POST",
            URL,
            "{\"sourceId\":\""
                + source
                + "\",\"startTime\":\"2026-05-10T01:00:00Z\",\"endTime\":\"2026-05-10T00:00:00Z\"}");
    assertTrue(e.contains("endTime: must be after startTime"), e);
    e = f.fails(400, "POST", URL, "{}");
    assertTrue(e.contains("sourceId: is required"), e);
    e = f.fails(404, "POST", URL, "{\"sourceId\":\"0123456789abcdef01234567\"}");
    assertTrue(e.contains("0123456789abcdef01234567"), e);
  }
}
