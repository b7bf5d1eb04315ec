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
 * {@code POST /api/v2/surrounding} over HTTP: the N events before and after a moment from the same
 * service or host (or any column), merged oldest first, the event itself marked; bad requests name
 * the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContextRouteIntegrationTest {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  V2Fixture f;
  String logs;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    logs = f.sendThirtyLogs(T0);
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private String around(String more) throws Exception {
    JsonNode d =
        f.ok(
                "POST",
                "/api/v2/surrounding",
                "{\"sourceId\":\"" + logs + "\",\"time\":\"2026-01-01T00:00:15Z\"" + more + "}")
            .get("data");
    StringBuilder sb = new StringBuilder();
    for (JsonNode e : d.get("events")) {
      sb.append(e.get("Body").asText().replace("line ", ""))
          .append(e.get("_position").asText().equals("at") ? "*" : "")
          .append(' ');
    }
    return d.get("field").asText() + ": " + sb.toString().strip();
  }

  @Test
  void theEventsBeforeAndAfterFromTheSameServiceOrHostOldestFirst() throws Exception {
    assertEquals("ServiceName: 15* 16 17", around(",\"value\":\"db\",\"before\":3,\"after\":2"));
    assertEquals(
        "ServiceName: 12 13 14",
        around(",\"by\":\"service\",\"value\":\"api\",\"before\":3,\"after\":20"),
        "lines 0 to 14 are api: none at or after 15");
    assertEquals(
        "ResourceAttributes.host.name: 7 11 13 15* 17 21",
        around(",\"by\":\"host\",\"value\":\"host-1\",\"before\":3,\"after\":2"),
        "lines 9 and 19 have no host");
    assertEquals(
        "SeverityText: 5 10 15* 20",
        around(",\"field\":\"SeverityText\",\"value\":\"ERROR\",\"before\":2,\"after\":1"));
    assertEquals("ServiceName:", around(",\"value\":\"it's \\\\ quoted\"").strip());
  }

  @Test
  void badRequestsNameTheField() throws Exception {
    String e =
        f.fails(
            400, "POST", "/api/v2/surrounding", "{\"by\":\"pod\",\"field\":\"x\",\"before\":201}");
    assertTrue(e.contains("sourceId: is required"), e);
    assertTrue(e.contains("time: is required"), e);
    assertTrue(e.contains("by: must be service or host"), e);
    assertTrue(e.contains("field: give either by or field"), e);
    assertTrue(e.contains("value: is required"), e);
    assertTrue(e.contains("before: must be an integer from 0 to 200"), e);
    e =
        f.fails(
            400,
            "POST",
            "/api/v2/surrounding",
            "{\"sourceId\":\""
                + logs
                + "\",\"time\":\"2026-01-01T00:00:15Z\",\"field\":\"Nope\",\"value\":\"x\"}");
    assertTrue(e.contains("has no column 'Nope'"), e);
  }
}
