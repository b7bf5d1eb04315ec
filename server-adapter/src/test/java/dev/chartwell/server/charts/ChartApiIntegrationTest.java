package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.SharedServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Service → source → NDJSON ingestion → chart queries over real HTTP, each expected value computed
 * here, independently, from the events sent.
 */
class ChartApiIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ORG = TestServers.ORG;
  static final String BASE = "/v1/organizations/" + ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final long T = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final String[] SVC = {"api", "web", "auth"};
  static final String[] SEV = {"info", "warn", "error"};

  record Ev(
      long ts, String svc, String sev, long status, double duration, String host, String body) {}

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String serviceId;
  String token;
  String sourceId;
  final List<Ev> events = new ArrayList<>();

  /**
   * The query-rule cases share one server, set up as each other test's own: every query they send
   * is refused, so none changes what another sees.
   */
  @RegisterExtension
  static final SharedServer<ChartApiIntegrationTest> SHARED =
      new SharedServer<>(
          ChartApiIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          ChartApiIntegrationTest::tearDown);

  /** Starts this test's own server with a service, its table and a source. */
  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    JsonNode created =
        admin("POST", BASE, "{\"name\":\"Charts\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    awaitRunning(serviceId);
    // The table first, with the type of its status column; then a source that reads it.
    HttpResponse<String> table =
        bearer(
            "PUT",
            "/api/v2/tables/default/app",
            "{\"implicitColumn\":\"Body\",\"bodyColumn\":\"Body\","
                + "\"columns\":[{\"name\":\"status\",\"type\":\"long\"}]}",
            token);
    assertEquals(200, table.statusCode(), table.body());
    JsonNode source =
        admin(
            "POST",
            BASE + "/" + serviceId + "/clickstack/sources",
            "{\"name\":\"app\",\"kind\":\"log\"}");
    sourceId = source.get("id").textValue();
    assertTrue(sourceId.matches("[0-9a-f]{24}"), sourceId);
  }

  /** Points this test at the class's shared server, service and source; it starts none. */
  void useShared() throws Exception {
    ChartApiIntegrationTest shared = SHARED.get();
    http = shared.http;
    serviceId = shared.serviceId;
    token = shared.token;
    sourceId = shared.sourceId;
  }

  @AfterEach
  void tearDown() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  JsonNode admin(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  void awaitRunning(String id) throws Exception {
    for (int i = 0; i < 100; i++) {
      if (admin("GET", BASE + "/" + id, null).get("state").textValue().equals("running")) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("not running");
  }

  HttpResponse<String> bearer(String method, String path, String body, String tok)
      throws Exception {
    return http.send(
        method,
        path,
        body,
        "Authorization",
        "Bearer " + tok,
        "Content-Type",
        path.endsWith("/events") ? "application/x-ndjson" : "application/json");
  }

  /** Generates events, sends them as NDJSON with a few bad lines, and checks the report. */
  void ingest() throws Exception {
    Random random = new Random(7);
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      long ts = T + random.nextInt(3_600_000);
      Ev e =
          new Ev(
              ts,
              SVC[random.nextInt(3)],
              SEV[random.nextInt(3)],
              random.nextInt(4) == 0 ? 500 : 200,
              Math.round(random.nextDouble() * 1000) / 10.0,
              "h" + random.nextInt(12),
              random.nextInt(5) == 0 ? "request timeout after 30s" : "GET /users ok");
      events.add(e);
      Map<String, Object> json = new LinkedHashMap<>();
      // Three timestamp forms: ms, ns and ISO-8601.
      json.put(
          "Timestamp",
          i % 3 == 0
              ? (Object) ts
              : i % 3 == 1
                  ? (Object) (ts * 1_000_000L)
                  : java.time.Instant.ofEpochMilli(ts).toString());
      json.put("ServiceName", e.svc());
      json.put("SeverityText", e.sev());
      json.put("status", e.status());
      json.put("Duration", e.duration());
      json.put("LogAttributes", Map.of("host", e.host(), "tags", List.of("a", "b")));
      json.put("Body", e.body());
      ndjson.append(MAPPER.writeValueAsString(json)).append('\n');
      if (i == 10) {
        ndjson.append("{not json\n"); // line 12
        ndjson.append("{\"ServiceName\":\"api\"}\n"); // line 13: no timestamp
        ndjson.append("{\"Timestamp\":").append(T).append(",\"status\":\"abc\"}\n"); // line 14
        ndjson.append("[1,2]\n"); // line 15
        ndjson.append("{\"Timestamp\":").append(T).append(",\"Body\":\"x \\ud83d\"}\n"); // 16
        // lines 17 and 18: values quoted in errors, one cut inside a surrogate pair, one unpaired
        ndjson.append("{\"Timestamp\":").append(T).append(",\"status\":\"");
        ndjson.append("a".repeat(63)).append("\\ud83d\\ude00 and more\"}\n");
        ndjson.append("{\"Timestamp\":").append(T).append(",\"status\":\"x \\ud83d\"}\n");
      }
    }
    HttpResponse<String> r =
        bearer("POST", "/api/v2/sources/" + sourceId + "/events", ndjson.toString(), token);
    assertEquals(200, r.statusCode(), r.body());
    JsonNode report = MAPPER.readTree(r.body());
    assertEquals(300, report.get("accepted").intValue());
    assertEquals(7, report.get("rejected").intValue());
    assertEquals(12, report.get("errors").get(0).get("line").intValue());
    assertTrue(report.get("errors").get(0).get("error").textValue().startsWith("malformed JSON"));
    assertEquals(
        "{\"line\":13,\"error\":\"Timestamp: is required\"}",
        report.get("errors").get(1).toString());
    assertEquals(14, report.get("errors").get(2).get("line").intValue());
    assertTrue(
        report
            .get("errors")
            .get(2)
            .get("error")
            .textValue()
            .contains("field 'status' is a long column"));
    assertEquals(
        "{\"line\":15,\"error\":\"each event must be a JSON object\"}",
        report.get("errors").get(3).toString());
    assertEquals(
        "{\"line\":16,\"error\":\"field 'Body': the string has an unpaired UTF-16 surrogate at"
            + " index 2 (U+D83D); only valid Unicode text can be stored\"}",
        report.get("errors").get(4).toString());
    assertEquals(
        "{\"line\":17,\"error\":\"field 'status' is a long column; '"
            + "a".repeat(63)
            + "...' cannot be stored in it (not a number)\"}",
        report.get("errors").get(5).toString());
    assertEquals(
        "{\"line\":18,\"error\":\"field 'status' is a long column; 'x \uFFFD' cannot be stored"
            + " in it (not a number)\"}",
        report.get("errors").get(6).toString());
  }

  JsonNode chart(String body) throws Exception {
    HttpResponse<String> r = bearer("POST", "/api/v2/charts/series", body, token);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("data");
  }

  String series(String aggFn, String field, String where, String extra) {
    return "{\"sourceId\":\""
        + sourceId
        + "\",\"aggFn\":\""
        + aggFn
        + "\""
        + (field == null ? "" : ",\"field\":\"" + field + "\"")
        + (where == null ? "" : ",\"where\":" + quote(where))
        + extra
        + "}";
  }

  static String quote(String s) {
    try {
      return MAPPER.writeValueAsString(s);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  String query(String granularity, String... series) {
    return "{\"startTime\":"
        + T
        + ",\"endTime\":"
        + (T + 3_600_000)
        + ",\"granularity\":\""
        + granularity
        + "\",\"series\":["
        + String.join(",", series)
        + "]}";
  }

  static long bucket(long ts, long g) {
    return Math.floorDiv(ts, g) * g;
  }

  TreeMap<Long, Long> expectedCounts(long g, Predicate<Ev> filter) {
    TreeMap<Long, Long> m = new TreeMap<>();
    events.stream()
        .filter(filter)
        .filter(e -> e.ts() <= T + 3_600_000)
        .forEach(e -> m.merge(bucket(e.ts(), g), 1L, Long::sum));
    return m;
  }

  @Test
  void countsSumsAveragesQuantilesDistinctGroupsAndRatios() throws Exception {
    start();
    ingest();
    // count per 1m where SeverityText:error
    JsonNode errors = chart(query("1m", series("count", null, "SeverityText:error", "")));
    TreeMap<Long, Long> expected = expectedCounts(60_000, e -> e.sev().equals("error"));
    assertEquals(expected.size(), errors.size());
    int i = 0;
    for (Map.Entry<Long, Long> e : expected.entrySet()) {
      JsonNode row = errors.get(i++);
      assertEquals(e.getKey(), row.get("ts_bucket").longValue());
      assertEquals("[]", row.get("group").toString());
      assertTrue(row.get("series_0.data").isIntegralNumber());
      assertEquals(e.getValue(), row.get("series_0.data").longValue());
    }

    // sum and avg of Duration per 1h, grouped by ServiceName
    JsonNode grouped =
        chart(
            query(
                "1h",
                series("sum", "Duration", null, ",\"groupBy\":[\"ServiceName\"]"),
                series("avg", "Duration", null, ",\"groupBy\":[\"ServiceName\"]")));
    for (JsonNode row : grouped) {
      String svc = row.get("group").get(0).textValue();
      double sum = events.stream().filter(e -> e.svc().equals(svc)).mapToDouble(Ev::duration).sum();
      long n = events.stream().filter(e -> e.svc().equals(svc)).count();
      assertEquals(sum, row.get("series_0.data").doubleValue(), 1e-6);
      assertEquals(sum / n, row.get("series_1.data").doubleValue(), 1e-6);
    }
    assertEquals(3, grouped.size());

    // quantile 0.9, count_distinct of a nested field, per 1h
    JsonNode q =
        chart(
            query(
                "1h",
                series("quantile", "Duration", null, ",\"level\":0.9"),
                series("count_distinct", "LogAttributes.host", null, "")));
    double[] sorted = events.stream().mapToDouble(Ev::duration).sorted().toArray();
    double h = (sorted.length - 1) * 0.9;
    int lo = (int) Math.floor(h);
    double p90 = sorted[lo] + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]);
    assertEquals(p90, q.get(0).get("series_0.data").doubleValue(), 1e-9);
    Set<String> hosts = new HashSet<>();
    events.forEach(e -> hosts.add(e.host()));
    assertEquals(hosts.size(), q.get(0).get("series_1.data").longValue());

    // ratio of errors to all events per 10m
    JsonNode ratio =
        chart(
            "{\"startTime\":"
                + T
                + ",\"endTime\":"
                + (T + 3_600_000)
                + ",\"granularity\":\"10m\",\"seriesReturnType\":\"ratio\",\"series\":["
                + series("count", null, "SeverityText:error", "")
                + ","
                + series("count", null, null, "")
                + "]}");
    TreeMap<Long, Long> all = expectedCounts(600_000, e -> true);
    TreeMap<Long, Long> err = expectedCounts(600_000, e -> e.sev().equals("error"));
    assertEquals(all.size(), ratio.size());
    for (JsonNode row : ratio) {
      long b = row.get("ts_bucket").longValue();
      assertEquals(
          err.getOrDefault(b, 0L) / (double) all.get(b),
          row.get("series_0.data").doubleValue(),
          1e-12);
    }

    // SQL and Lucene where forms
    long sql =
        sumOf(
            chart(
                query(
                    "1h",
                    "{\"sourceId\":\""
                        + sourceId
                        + "\",\"aggFn\":\"count\",\"whereLanguage\":\"sql\",\"where\":\"status >= 500 AND ServiceName = 'api'\"}")));
    assertEquals(
        events.stream().filter(e -> e.status() >= 500 && e.svc().equals("api")).count(), sql);
    long bare = sumOf(chart(query("1h", series("count", null, "timeout", ""))));
    assertEquals(events.stream().filter(e -> e.body().contains("timeout")).count(), bare);
    long nested =
        sumOf(
            chart(
                query(
                    "1h",
                    series("count", null, "LogAttributes.host:\"h1\" -SeverityText:info", ""))));
    assertEquals(
        events.stream().filter(e -> e.host().equals("h1") && !e.sev().equals("info")).count(),
        nested);
    long range = sumOf(chart(query("1h", series("count", null, "Duration:[10 TO 50}", ""))));
    assertEquals(
        events.stream().filter(e -> e.duration() >= 10 && e.duration() < 50).count(), range);
  }

  static long sumOf(JsonNode data) {
    long n = 0;
    for (JsonNode row : data) {
      n += row.get("series_0.data").longValue();
    }
    return n;
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"endTime\":1767225600000,\"series\":[SERIES]} | startTime: is required",
        "{\"startTime\":\"x\",\"endTime\":1767225600000,\"series\":[SERIES]} | startTime: must be an integer (epoch milliseconds)",
        "{\"startTime\":1767225600000.5,\"endTime\":1767225600000,\"series\":[SERIES]} | startTime: must be an integer (epoch milliseconds)",
        "{\"startTime\":1767225,\"endTime\":1767225600000,\"series\":[SERIES]} | startTime: must be epoch milliseconds (a positive integer of at least 13 digits)",
        "{\"startTime\":1767225600001,\"endTime\":1767225600000,\"series\":[SERIES]} | endTime: must not be before startTime",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"granularity\":\"3m\",\"series\":[SERIES]} | granularity: must be one of 30s, 1m, 5m, 10m, 15m, 30m, 1h, 2h, 6h, 12h, 1d, 2d, 7d, 30d, auto",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000} | series: is required",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[]} | series: must hold 1 to 5 series, got 0",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[SERIES,SERIES,SERIES,SERIES,SERIES,SERIES]} | series: must hold 1 to 5 series, got 6",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"median\"}]} | series[0].aggFn: must be one of count, count_distinct, sum, avg, min, max, quantile, last_value, any, p50, p90, p95, p99, count_per_sec, count_per_min, count_per_hour, increase, none",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"avg\"}]} | series[0].field: is required for aggFn avg",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"quantile\",\"field\":\"Duration\",\"level\":1.5}]} | series[0].level: must be between 0 and 1",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"count\",\"whereLanguage\":\"kql\"}]} | series[0].whereLanguage: must be one of lucene, sql",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"count\",\"groupBy\":\"svc\"}]} | series[0].groupBy: must be an array of field names",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[SERIES,{\"sourceId\":\"SOURCE\",\"aggFn\":\"count\",\"groupBy\":[\"a\"]}]} | series[1].groupBy: every series must have the same groupBy as series[0] []",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"seriesReturnType\":\"ratio\",\"series\":[SERIES]} | seriesReturnType: ratio needs exactly 2 series, got 1",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"seriesReturnType\":\"pie\",\"series\":[SERIES]} | seriesReturnType: must be one of column, ratio",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"count\",\"groupBy\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]}]} | series[0].groupBy: at most 10 fields",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"aggFn\":\"count\"}]} | series[0].sourceId: is required",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"colour\":1,\"series\":[SERIES]} | colour: unknown field",
        "{\"startTime\":1767225600000,\"endTime\":1767225600000,\"series\":[{\"sourceId\":\"SOURCE\",\"aggFn\":\"count\",\"where\":\"a AND\"}]} | series[0].where: line 1, column 6: unexpected end of input",
      })
  void everyQueryRuleIsA400NamingTheField(String body, String message) throws Exception {
    useShared();
    String series = "{\"sourceId\":\"" + sourceId + "\",\"aggFn\":\"count\"}";
    HttpResponse<String> r =
        bearer(
            "POST",
            "/api/v2/charts/series",
            body.replace("SERIES", series).replace("SOURCE", sourceId),
            token);
    assertEquals(400, r.statusCode(), r.body());
    assertEquals("BAD_REQUEST: " + message, MAPPER.readTree(r.body()).get("error").textValue());
  }

  @Test
  void unknownAndForeignSourcesAre404() throws Exception {
    start();
    HttpResponse<String> r =
        bearer(
            "POST",
            "/api/v2/charts/series",
            query("1h", "{\"sourceId\":\"000000000000000000000000\",\"aggFn\":\"count\"}"),
            token);
    assertEquals(404, r.statusCode(), r.body());
    assertEquals(
        "NOT_FOUND: series[0].sourceId: source 000000000000000000000000 not found",
        MAPPER.readTree(r.body()).get("error").textValue());
    // Another service in its own warehouse cannot see this source.
    JsonNode other =
        admin("POST", BASE, "{\"name\":\"Other\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    awaitRunning(other.get("service").get("id").textValue());
    String otherToken = other.get("password").textValue();
    assertEquals(
        404,
        bearer(
                "POST",
                "/api/v2/charts/series",
                query("1h", series("count", null, null, "")),
                otherToken)
            .statusCode());
    assertEquals(
        404,
        bearer("POST", "/api/v2/sources/" + sourceId + "/events", "{}", otherToken).statusCode());
  }

  @Test
  void authenticationAndServiceState() throws Exception {
    start();
    String q = query("1h", series("count", null, null, ""));
    assertEquals(401, http.send("POST", "/api/v2/charts/series", q).statusCode());
    assertEquals(401, bearer("POST", "/api/v2/charts/series", q, "wrong").statusCode());
    assertEquals(200, bearer("POST", "/api/v2/charts/series", q, token).statusCode());
    // a rotated password stops the old token at once
    String fresh =
        admin("PATCH", BASE + "/" + serviceId + "/password", "{}").get("password").textValue();
    assertEquals(401, bearer("POST", "/api/v2/charts/series", q, token).statusCode());
    assertEquals(200, bearer("POST", "/api/v2/charts/series", q, fresh).statusCode());
    // a stopped service answers 409 for queries and ingestion
    admin("PATCH", BASE + "/" + serviceId + "/state", "{\"command\":\"stop\"}");
    HttpResponse<String> stopped = bearer("POST", "/api/v2/charts/series", q, fresh);
    assertEquals(409, stopped.statusCode(), stopped.body());
    assertTrue(
        stopped.body().contains("Current state: 'stopping'")
            || stopped.body().contains("Current state: 'stopped'"));
    assertEquals(
        409, bearer("POST", "/api/v2/sources/" + sourceId + "/events", "{}", fresh).statusCode());
  }

  @Test
  void readOnlyServicesShareTheWarehouseButCannotIngest() throws Exception {
    start();
    ingest();
    String warehouse =
        admin("GET", BASE + "/" + serviceId, null).get("dataWarehouseId").textValue();
    JsonNode ro =
        admin(
            "POST",
            BASE,
            "{\"name\":\"Reader\",\"provider\":\"aws\",\"region\":\"us-east-1\",\"dataWarehouseId\":\""
                + warehouse
                + "\",\"isReadonly\":true,\"numReplicas\":1}");
    awaitRunning(ro.get("service").get("id").textValue());
    String roToken = ro.get("password").textValue();
    assertEquals(300, sumOf(chart(query("1h", series("count", null, null, "")))));
    HttpResponse<String> shared =
        bearer(
            "POST", "/api/v2/charts/series", query("1h", series("count", null, null, "")), roToken);
    assertEquals(200, shared.statusCode(), shared.body());
    assertEquals(300, sumOf(MAPPER.readTree(shared.body()).get("data")));
    HttpResponse<String> write =
        bearer("POST", "/api/v2/sources/" + sourceId + "/events", "{}", roToken);
    assertEquals(403, write.statusCode(), write.body());
    assertEquals(
        1,
        admin(
                "GET",
                BASE + "/" + ro.get("service").get("id").textValue() + "/clickstack/sources",
                null)
            .size());
  }

  @Test
  void jsonArraysAndTheDeletionOfASource() throws Exception {
    start();
    String array =
        "[{\"Timestamp\":"
            + T
            + ",\"Body\":\"a\"},{\"Timestamp\":\"2026-01-01T00:00:01+01:00\",\"Body\":\"b\"}]";
    HttpResponse<String> r =
        http.send(
            "POST",
            "/api/v2/sources/" + sourceId + "/events",
            array,
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals("{\"accepted\":2,\"rejected\":0,\"errors\":[]}", r.body());
    assertEquals(
        415,
        http.send(
                "POST",
                "/api/v2/sources/" + sourceId + "/events",
                array,
                "Authorization",
                "Bearer " + token,
                "Content-Type",
                "text/csv")
            .statusCode());
    // Ingestion once took text/plain and untyped bodies; the documented rule is 415.
    for (String type : new String[] {"text/plain", null}) {
      HttpResponse<String> refused =
          type == null
              ? http.sendAsIs(
                  "POST",
                  "/api/v2/sources/" + sourceId + "/events",
                  array,
                  "Authorization",
                  "Bearer " + token)
              : http.sendAsIs(
                  "POST",
                  "/api/v2/sources/" + sourceId + "/events",
                  array,
                  "Authorization",
                  "Bearer " + token,
                  "Content-Type",
                  type);
      assertEquals(415, refused.statusCode(), refused.body());
      assertTrue(
          refused
              .body()
              .contains("one of application/json, application/jsonl, application/x-ndjson"),
          refused.body());
    }
    admin("DELETE", BASE + "/" + serviceId + "/clickstack/sources/" + sourceId, null);
    assertEquals(
        404,
        bearer("POST", "/api/v2/charts/series", query("1h", series("count", null, null, "")), token)
            .statusCode());
  }
}
