package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v2/traces/{traceId}} over HTTP: spans sent over OTLP come back as one trace with
 * their parent links, services, kinds, status, times, attributes and events; another trace's spans
 * never mix in; and the refusals name their cause.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TraceRouteIntegrationTest {
  static final long T0 = 1_767_225_600_000L * 1_000_000L; // 2026-01-01T00:00:00Z in ns
  static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
  static final String OTHER = "4bf92f3577b34da6a3ce929d0e0e4736";

  V2Fixture f;
  String traces;
  String logs;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    otlp(
        "/v1/logs",
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
            + "{\"stringValue\":\"api\"}}]},\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\""
            + T0
            + "\",\"traceId\":\""
            + TRACE
            + "\",\"spanId\":\""
            + OtlpTraces.spanId(0)
            + "\",\"body\":{\"stringValue\":\"checkout started\"}}]}]}]}");
    for (String body : OtlpTraces.trace(TRACE, 7, 2, T0, List.of("api", "db"), 4)) {
      otlp("/v1/traces", body);
    }
    for (String body : OtlpTraces.trace(OTHER, 3, 2, T0, List.of("web"), 10)) {
      otlp("/v1/traces", body);
    }
    for (JsonNode s : f.ok("GET", "/api/v2/sources", null).get("data")) {
      if (s.get("kind").asText().equals("trace")) {
        traces = s.get("id").asText();
      } else if (s.get("kind").asText().equals("log")) {
        logs = s.get("id").asText();
      }
    }
  }

  private void otlp(String path, String body) throws Exception {
    HttpResponse<String> r =
        f.http.send(
            "POST",
            path,
            body,
            "Authorization",
            "Bearer " + f.token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  @Test
  void everySpanOfTheTraceWithItsParentServiceStatusTimesAttributesAndEvents() throws Exception {
    JsonNode t = f.ok("GET", "/api/v2/traces/" + TRACE + "?sourceId=" + traces, null).get("data");
    assertEquals(TRACE, t.get("traceId").asText());
    assertEquals(traces, t.get("sourceId").asText());
    assertEquals(logs, t.get("logSourceId").asText(), "the trace source names its log source");
    assertEquals(7, t.get("spanCount").asInt());
    assertEquals(false, t.get("truncated").asBoolean());
    assertEquals("2026-01-01T00:00:00Z", t.get("startTime").asText());
    assertEquals(100_000_000L, t.get("durationNs").asLong());
    Map<String, JsonNode> byId = new HashMap<>();
    t.get("spans").forEach(s -> byId.put(s.get("spanId").asText(), s));
    assertEquals(7, byId.size());
    JsonNode root = byId.get(OtlpTraces.spanId(0));
    assertTrue(root.get("parentSpanId").isNull(), root.toString());
    assertEquals("GET /checkout", root.get("name").asText());
    assertEquals("api", root.get("service").asText());
    assertEquals("SPAN_KIND_SERVER", root.get("kind").asText());
    assertEquals("STATUS_CODE_OK", root.get("statusCode").asText());
    assertEquals(0, root.get("startOffsetNs").asLong());
    assertEquals(100_000_000L, root.get("durationNs").asLong());
    assertEquals("0", root.get("attributes").get("span.number").asText());
    assertEquals("api", root.get("resource").get("service.name").asText());
    for (int i = 1; i < 7; i++) {
      JsonNode s = byId.get(OtlpTraces.spanId(i));
      assertEquals(OtlpTraces.spanId((i - 1) / 2), s.get("parentSpanId").asText());
      assertEquals(i % 2 == 0 ? "api" : "db", s.get("service").asText());
      assertEquals("SPAN_KIND_CLIENT", s.get("kind").asText());
      long depth = OtlpTraces.depth(i, 2);
      assertEquals(depth * 1_000_000L + ((i - 1) % 2) * 10_000L, s.get("startOffsetNs").asLong());
    }
    JsonNode failed = byId.get(OtlpTraces.spanId(5));
    assertEquals("STATUS_CODE_ERROR", failed.get("statusCode").asText());
    assertEquals("deadline exceeded", failed.get("statusMessage").asText());
    JsonNode event = failed.get("events").get(0);
    assertEquals("exception", event.get("name").asText());
    assertEquals(5, event.get("offsetNs").asLong());
    assertEquals("Timeout", event.get("attributes").get("exception.type").asText());
    assertEquals(0, root.get("events").size());
  }

  @Test
  void theOnlyTraceSourceIsTheDefaultAndTheApiKeyReadsToo() throws Exception {
    JsonNode t = f.ok("GET", "/api/v2/traces/" + OTHER, null).get("data");
    assertEquals(3, t.get("spanCount").asInt());
    t.get("spans").forEach(s -> assertEquals("web", s.get("service").asText()));
    JsonNode key =
        f.cloud(
            "POST",
            "/v1/organizations/" + dev.chartwell.server.TestServers.ORG + "/keys",
            "{\"name\":\"reader\",\"roles\":[\"developer\"]}");
    HttpResponse<String> r =
        f.http.send(
            "GET",
            "/api/v2/traces/" + TRACE,
            null,
            "Authorization",
            dev.chartwell.server.http.HttpTestClient.basic(
                key.get("keyId").textValue(), key.get("keySecret").textValue()),
            "X-Service-Id",
            f.serviceId);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(7, V2Fixture.MAPPER.readTree(r.body()).get("data").get("spanCount").asInt());
  }

  @Test
  void refusalsNameTheirCause() throws Exception {
    assertTrue(
        f.fails(404, "GET", "/api/v2/traces/ffffffffffffffffffffffffffffffff", null)
            .contains("has no spans in source " + traces),
        "an unknown trace");
    assertTrue(
        f.fails(400, "GET", "/api/v2/traces/abc'def", null).contains("traceId: must be"),
        "a trace id that is not one");
    assertTrue(
        f.fails(400, "GET", "/api/v2/traces/" + TRACE + "?sourceId=" + logs, null)
            .contains("is a log source"));
    assertTrue(
        f.fails(400, "GET", "/api/v2/traces/" + TRACE + "?startTime=yesterday", null)
            .contains("startTime: must be an ISO-8601 time"));
    assertTrue(
        f.fails(
                404,
                "GET",
                "/api/v2/traces/"
                    + TRACE
                    + "?startTime=2026-02-01T00:00:00Z&endTime=2026-03-01T00:00:00Z",
                null)
            .contains("has no spans"),
        "a range without the trace");
    assertEquals(
        401,
        f.http
            .send("GET", "/api/v2/traces/" + TRACE, null, "Authorization", "Bearer wrong")
            .statusCode());
  }
}
