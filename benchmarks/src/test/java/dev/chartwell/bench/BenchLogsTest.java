package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Event;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchLogsTest {
  private static List<String> lines(int rows, long seed) {
    List<String> out = new ArrayList<>();
    BenchLogs gen = new BenchLogs(rows, seed);
    while (gen.hasNext()) {
      StringBuilder sb = new StringBuilder();
      BenchMain.toJson(gen.next(), sb);
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void theSameSeedGivesTheSameEvents() {
    assertEquals(lines(2_000, 42), lines(2_000, 42));
    assertNotEquals(lines(2_000, 42), lines(2_000, 43));
  }

  @Test
  void theDataSetHasTheSpecifiedShape() {
    BenchLogs gen = new BenchLogs(100_000, 42);
    long errors = 0;
    long timeouts = 0;
    long late = 0;
    long previous = 0;
    Set<Object> services = new HashSet<>();
    Set<Object> hosts = new HashSet<>();
    Set<Object> statuses = new HashSet<>();
    while (gen.hasNext()) {
      Event e = gen.next();
      assertTrue(e.timestamp() >= BenchLogs.END - BenchLogs.SPAN && e.timestamp() < BenchLogs.END);
      late += e.timestamp() < previous ? 1 : 0;
      previous = Math.max(previous, e.timestamp());
      errors += "error".equals(e.fields().get("SeverityText")) ? 1 : 0;
      timeouts += ((String) e.fields().get("Body")).contains("timeout") ? 1 : 0;
      services.add(e.fields().get("ServiceName"));
      hosts.add(e.fields().get("host"));
      statuses.add(e.fields().get("status"));
      assertTrue(((String) e.fields().get("TraceId")).matches("[0-9a-f]{32}"));
      assertTrue(e.fields().containsKey("LogAttributes.http.method"));
      assertTrue(e.fields().get("Duration") instanceof Double);
    }
    assertEquals(10, services.size());
    assertEquals(1_000, hosts.size());
    assertEquals(8, statuses.size());
    assertTrue(errors > 4_000 && errors < 6_000, "about 5% errors: " + errors);
    assertTrue(timeouts > 1_500 && timeouts < 5_000, "a few percent timeout: " + timeouts);
    assertTrue(late > 500, "some late events: " + late);
  }

  /** The typed rows the loaders use are the events, value for value, in the same order. */
  @Test
  void typedRowsAreTheSameEvents() {
    BenchLogs events = new BenchLogs(20_000, 42);
    BenchLogs rows = new BenchLogs(20_000, 42);
    BenchLogs.Row row = new BenchLogs.Row();
    while (events.hasNext()) {
      Event e = events.next();
      rows.next(row);
      assertEquals(e.timestamp(), row.timestamp);
      assertEquals(
          java.util.Map.of(
              "ServiceName", row.serviceName(),
              "SeverityText", row.severityText(),
              "host", row.host,
              "status", row.status,
              "Duration", row.duration,
              "TraceId", row.traceId,
              "LogAttributes.http.method", row.method,
              "Body", row.body),
          e.fields());
      assertEquals(row.body.contains("timeout"), row.timeout);
      assertEquals(row.severityText().equals("error"), row.error());
    }
    assertTrue(!rows.hasNext());
  }

  @Test
  void commandFlagsAreReadAfterTheCommand() {
    assertEquals(
        java.util.Map.of("rows", "10", "out", "/tmp/x"),
        BenchMain.flags(new String[] {"generate", "--rows", "10", "--out", "/tmp/x"}));
  }

  @Test
  void ndjsonNestsLogAttributes() {
    StringBuilder sb = new StringBuilder();
    BenchMain.toJson(new BenchLogs(1, 1).next(), sb);
    assertTrue(sb.toString().contains("\"LogAttributes\":{\"http.method\":\""), sb.toString());
    assertTrue(sb.toString().startsWith("{\"Timestamp\":"), sb.toString());
  }
}
