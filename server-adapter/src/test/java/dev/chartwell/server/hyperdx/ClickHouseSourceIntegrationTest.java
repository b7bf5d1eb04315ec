package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.clickhouse.local.LocalClickHouse;
import dev.chartwell.server.LocalClickHouses;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path over HTTP against a real {@code clickhouse-server} on loopback: a connection (with
 * a password), a source on a ClickHouse table checked with {@code DESCRIBE TABLE}, ingestion
 * through the source (JSONEachRow inserts, the same report), and chart queries and searches
 * answered by ClickHouse SQL equal, byte for byte, to those of a built-in source holding the same
 * events; then the errors: unknown table, wrong password, unreachable host, a query ClickHouse
 * rejects, each naming the connection and never the password.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClickHouseSourceIntegrationTest {
  private static final String PASSWORD = "pa'ss\\w\"rd-7781";
  private static final long T = 1_778_371_200_000L; // 2026-05-10T00:00:00Z
  private static final String TABLE =
      "CREATE TABLE default.logs (Timestamp DateTime, ServiceName String, SeverityText String,"
          + " Body String, status Nullable(Int64), Duration Nullable(Float64),"
          + " `LogAttributes.http.method` Nullable(String)) ENGINE = MergeTree ORDER BY Timestamp";

  LocalClickHouse ch;
  V2Fixture f;
  String connection;
  String external;
  String local;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    ch = LocalClickHouses.start(ClickHouseSourceIntegrationTest.class, PASSWORD);
    ch.query(TABLE);
    f = new V2Fixture(dir);
    connection =
        f.ok(
                "POST",
                "/api/v2/connections",
                "{\"name\":\"ch-test\",\"host\":\""
                    + ch.url()
                    + "\",\"username\":\"default\",\"password\":"
                    + V2Fixture.MAPPER.writeValueAsString(PASSWORD)
                    + "}")
            .get("data")
            .get("id")
            .textValue();
    external = f.logSource("Remote", connection, "logs");
    local = f.logSource("Local", "default", "local_logs");
    List<String> lines = new ArrayList<>();
    String[] services = {"api", "web", "db"};
    String[] severities = {"INFO", "ERROR", "WARN", "debug"};
    for (int i = 0; i < 120; i++) {
      lines.add(
          "{\"Timestamp\":"
              + (T + i * 37_000L)
              + ",\"ServiceName\":\""
              + services[i % 3]
              + "\",\"SeverityText\":\""
              + severities[(i * 7) % 4]
              + "\",\"Body\":\"request "
              + i
              + (i % 5 == 0 ? " connection reset" : " ok")
              + "\""
              + (i % 4 == 0 ? "" : ",\"status\":" + (200 + (i % 3) * 150))
              + (i % 6 == 0 ? "" : ",\"Duration\":" + (i * 1.25))
              + ",\"LogAttributes\":{\"http.method\":\""
              + (i % 2 == 0 ? "GET" : "POST")
              + "\"}}");
    }
    String nd = String.join("\n", lines);
    f.ingest("/api/v2/sources/" + external + "/events", nd);
    f.ingest("/api/v2/sources/" + local + "/events", nd);
  }

  @AfterAll
  void tearDown() throws Exception {
    if (f != null) {
      f.close();
    }
    if (ch != null) {
      ch.close();
      ch.deleteFiles();
    }
  }

  private String chart(String source, String series, String more) throws Exception {
    HttpResponse<String> r = chartRequest(source, series, T + 7_200_000, more);
    assertEquals(200, r.statusCode(), r.body());
    return r.body();
  }

  /** A chart query from {@code T} to {@code end}, its series' {@code SRC} replaced by a source. */
  private HttpResponse<String> chartRequest(String source, String series, long end, String more)
      throws Exception {
    return f.v2(
        "POST",
        "/api/v2/charts/series",
        "{\"startTime\":"
            + T
            + ",\"endTime\":"
            + end
            + more
            + ",\"series\":["
            + series.replace("SRC", source)
            + "]}");
  }

  @Test
  void chartQueriesAnswerAsTheEngineDoes() throws Exception {
    List<String[]> cases =
        List.of(
            new String[] {"{\"sourceId\":\"SRC\",\"aggFn\":\"count\"}", ",\"granularity\":\"5m\""},
            new String[] {
              "{\"sourceId\":\"SRC\",\"aggFn\":\"count\",\"where\":\"SeverityText:error\","
                  + "\"groupBy\":[\"ServiceName\"]}",
              ",\"granularity\":\"15m\""
            },
            new String[] {
              "{\"sourceId\":\"SRC\",\"aggFn\":\"avg\",\"field\":\"Duration\",\"groupBy\":[\"status\"]},"
                  + "{\"sourceId\":\"SRC\",\"aggFn\":\"p95\",\"field\":\"Duration\",\"groupBy\":[\"status\"]}",
              ",\"granularity\":\"30m\""
            },
            new String[] {
              "{\"sourceId\":\"SRC\",\"aggFn\":\"count_distinct\",\"field\":\"Body\","
                  + "\"where\":\"LogAttributes.http.method:get AND NOT reset\"}",
              ""
            },
            new String[] {
              "{\"sourceId\":\"SRC\",\"aggFn\":\"sum\",\"field\":\"status\","
                  + "\"where\":\"status >= 350 AND LogAttributes['http.method'] = 'POST'\","
                  + "\"whereLanguage\":\"sql\"},"
                  + "{\"sourceId\":\"SRC\",\"aggFn\":\"count\"}",
              ",\"granularity\":\"1h\",\"seriesReturnType\":\"ratio\""
            },
            new String[] {
              "{\"sourceId\":\"SRC\",\"aggFn\":\"max\",\"field\":\"Duration\","
                  + "\"where\":\"\\\"connection reset\\\" OR Body:*9*\",\"groupBy\":[\"ServiceName\",\"SeverityText\"]}",
              ",\"granularity\":\"1h\",\"seriesReturnType\":\"column\""
            },
            new String[] {
              "{\"sourceId\":\"SRC\",\"aggFn\":\"last_value\",\"field\":\"Duration\"}",
              ",\"granularity\":\"10m\""
            });
    for (String[] c : cases) {
      String expected = chart(local, c[0], c[1]);
      assertFalse(expected.contains("\"data\":[]"), "the case matches something: " + c[0]);
      assertEquals(expected, chart(external, c[0], c[1]), c[0] + c[1]);
    }
  }

  @Test
  void searchAnswersAsTheEngineDoes() throws Exception {
    for (String more :
        List.of(
            ",\"where\":\"SeverityText:ERROR\"",
            ",\"where\":\"status > 300\",\"whereLanguage\":\"sql\",\"orderBy\":\"Timestamp ASC\","
                + "\"maxResults\":5,\"offset\":3",
            ",\"select\":\"Body, status, Duration, LogAttributes.http.method\",\"maxResults\":7")) {
      String body =
          "{\"sourceId\":\"SRC\",\"startTime\":\"2026-05-10T00:00:00Z\","
              + "\"endTime\":\"2026-05-10T02:00:00Z\""
              + more
              + "}";
      JsonNode a = f.ok("POST", "/api/v2/search", body.replace("SRC", local));
      JsonNode b = f.ok("POST", "/api/v2/search", body.replace("SRC", external));
      assertTrue(a.get("data").size() > 0, more);
      assertEquals(a.get("data"), b.get("data"), more);
    }
  }

  @Test
  void ingestionReportsRejectedLinesAsLocalIngestionDoes() throws Exception {
    JsonNode r =
        f.ok(
            "POST",
            "/api/v2/sources/" + external + "/events",
            "{\"Timestamp\":"
                + (T + 9_000_000)
                + ",\"ServiceName\":\"x\",\"status\":1}\n"
                + "{\"Timestamp\":"
                + (T + 9_000_000)
                + ",\"nope\":\"y\"}\n"
                + "not json\n"
                + "{\"Timestamp\":"
                + (T + 9_000_000)
                + ",\"status\":\"abc\"}");
    assertEquals(1, r.get("accepted").asInt(), r.toString());
    assertEquals(3, r.get("rejected").asInt(), r.toString());
    assertTrue(r.get("errors").get(0).get("error").asText().contains("nope"), r.toString());
    assertEquals(2, r.get("errors").get(0).get("line").asInt(), r.toString());
    assertTrue(r.get("errors").get(2).get("error").asText().contains("status"), r.toString());
  }

  @Test
  void aSourceOnAMissingTableOrColumnIsRefusedSayingWhy() throws Exception {
    String e =
        f.fails(
            400,
            "POST",
            "/api/v2/sources",
            "{\"name\":\"Bad\",\"kind\":\"log\",\"connection\":\""
                + connection
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"no_such\"},"
                + "\"timestampValueExpression\":\"Timestamp\"}");
    assertTrue(e.contains("no_such") && e.contains("ch-test"), e);
    e =
        f.fails(
            400,
            "POST",
            "/api/v2/sources",
            "{\"name\":\"Bad\",\"kind\":\"log\",\"connection\":\""
                + connection
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"logs\"},"
                + "\"timestampValueExpression\":\"Body\"}");
    assertTrue(e.contains("timestampValueExpression") && e.contains("DateTime"), e);
    assertFalse(e.contains(PASSWORD), e);
  }

  @Test
  void errorsNameTheConnectionAndNeverThePassword() throws Exception {
    String query = "{\"sourceId\":\"SRC\",\"aggFn\":\"count\"}";
    // ClickHouse rejects the query: a field of a type the SQL cannot compare (a fault injected by
    // asking the table for a column it lacks through a raw where on a dropped column).
    ch.query("ALTER TABLE default.logs ADD COLUMN extra String");
    String other = f.logSource("Other", connection, "logs");
    ch.query("ALTER TABLE default.logs DROP COLUMN extra");
    HttpResponse<String> r =
        chartRequest(
            other,
            "{\"sourceId\":\"SRC\",\"aggFn\":\"count\",\"where\":\"extra:x\"}",
            T + 60_000,
            "");
    assertEquals(400, r.statusCode(), r.body());
    // named by its status and ClickHouse error code, never by the text of ClickHouse's answer
    assertTrue(
        r.body().contains("ch-test") && r.body().contains("ClickHouse error code"), r.body());
    assertFalse(r.body().contains("DB::Exception"), r.body());
    // a wrong password
    String bad =
        f.ok(
                "POST",
                "/api/v2/connections",
                "{\"name\":\"wrong-pw\",\"host\":\""
                    + ch.url()
                    + "\",\"username\":\"default\",\"password\":\"not-"
                    + "it\"}")
            .get("data")
            .get("id")
            .textValue();
    String e =
        f.fails(
            400,
            "POST",
            "/api/v2/sources",
            "{\"name\":\"Bad\",\"kind\":\"log\",\"connection\":\""
                + bad
                + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"logs\"}}");
    assertTrue(e.contains("wrong-pw") && e.contains("refused user 'default'"), e);
    assertFalse(e.contains("not-it"), e);
    // the right password, then changed to a wrong one: queries answer 400 saying so
    String rotating =
        f.ok(
                "POST",
                "/api/v2/connections",
                "{\"name\":\"rotating\",\"host\":\""
                    + ch.url()
                    + "\",\"username\":\"default\",\"password\":"
                    + V2Fixture.MAPPER.writeValueAsString(PASSWORD)
                    + "}")
            .get("data")
            .get("id")
            .textValue();
    String src = f.logSource("Rotating", rotating, "logs");
    chart(src, query, "");
    f.ok(
        "PUT",
        "/api/v2/connections/" + rotating,
        "{\"name\":\"rotating\",\"host\":\""
            + ch.url()
            + "\",\"username\":\"default\","
            + "\"password\":\"changed-pw\"}");
    r = chartRequest(src, query, T + 1, "");
    assertEquals(400, r.statusCode(), r.body());
    assertTrue(r.body().contains("rotating") && r.body().contains("refused"), r.body());
    assertFalse(r.body().contains("changed-pw") || r.body().contains(PASSWORD), r.body());
    // an unreachable host: the source cannot be created, an existing one answers 503
    int closed = LocalClickHouse.freePort();
    f.ok(
        "PUT",
        "/api/v2/connections/" + rotating,
        "{\"name\":\"rotating\",\"host\":\"http://127.0.0.1:"
            + closed
            + "/\","
            + "\"username\":\"default\",\"queryTimeoutSeconds\":2}");
    r = chartRequest(src, query, T + 1, "");
    assertEquals(503, r.statusCode(), r.body());
    // Refused at once rather than after the connection's 2 s timeout: the answer says so ("cannot
    // connect", not a timeout), where a stopwatch would depend on how busy the machine is.
    assertTrue(r.body().contains("rotating") && r.body().contains("cannot connect"), r.body());
    assertFalse(r.body().contains("no answer within"), r.body());
  }

  @Test
  void patternsAnswerAsTheEngineDoes() throws Exception {
    for (String more :
        new String[] {"", ",\"where\":\"ServiceName = 'api'\",\"whereLanguage\":\"sql\""}) {
      String body =
          ",\"startTime\":\"2026-05-10T00:00:00Z\",\"endTime\":\"2026-05-10T02:00:00Z\""
              + more
              + "}";
      JsonNode remote =
          f.ok("POST", "/api/v2/patterns", "{\"sourceId\":\"" + external + "\"" + body);
      JsonNode mine = f.ok("POST", "/api/v2/patterns", "{\"sourceId\":\"" + local + "\"" + body);
      ((com.fasterxml.jackson.databind.node.ObjectNode) remote.get("data")).remove("sourceId");
      ((com.fasterxml.jackson.databind.node.ObjectNode) mine.get("data")).remove("sourceId");
      assertEquals(mine, remote);
      JsonNode patterns = remote.get("data").get("patterns");
      assertEquals(
          "request <NUM> ok", patterns.get(0).get("pattern").asText(), patterns.toString());
      assertEquals("request <NUM> connection reset", patterns.get(1).get("pattern").asText());
    }
  }
}
