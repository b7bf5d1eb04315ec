package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.source.EventBatch;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The byte reader takes the plain lines that make up nearly every request (so that they never pay
 * for the general reader), and leaves everything unusual alone, the batch as it was. What it takes
 * is checked against the general reading by {@link EventReaderProperties}.
 */
class LineParserTest {
  private final LineParser parser = new LineParser("Timestamp");
  private final EventBatch batch = new EventBatch();

  private boolean parse(String line) {
    byte[] bytes = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    return parser.parse(bytes, 2, bytes.length - 2, batch);
  }

  @Test
  void takesTypicalLines() {
    String line =
        "{\"Timestamp\":1767139200000,\"ServiceName\":\"svc-2\",\"host\":\"host-172\","
            + "\"TraceId\":\"d5d67354c1769e734af2e9e9ee536fcc\",\"Duration\":7.736066055648802,"
            + "\"Body\":\"email 37945 sent to customer 151\",\"SeverityText\":\"info\","
            + "\"status\":301,\"LogAttributes\":{\"http.method\":\"GET\"},\"ok\":true,\"x\":null}";
    assertTrue(parse(line));
    assertTrue(parse(line.replace("svc-2", "caf\u00e9 \\u00e9 \\ud83d\\ude00 \\\"q\\\"")));
    assertTrue(parse("{\"Timestamp\":1767139200000000000 , \"a\" : { \"b\" : { } } }"));
    assertEquals(3, batch.size());
    assertEquals(
        Map.of(
            "ServiceName", "svc-2",
            "host", "host-172",
            "TraceId", "d5d67354c1769e734af2e9e9ee536fcc",
            "Duration", 7.736066055648802,
            "Body", "email 37945 sent to customer 151",
            "SeverityText", "info",
            "status", 301L,
            "LogAttributes.http.method", "GET",
            "ok", true),
        batch.event(0).fields());
    assertEquals(1767139200000L, batch.timestampAt(0));
    assertEquals("caf\u00e9 \u00e9 \ud83d\ude00 \"q\"", batch.event(1).fields().get("ServiceName"));
    assertEquals(1767139200000L, batch.timestampAt(2)); // nanoseconds read as milliseconds
  }

  @Test
  void leavesEverythingUnusualToTheGeneralReader() {
    String[] lines = {
      "{\"Timestamp\":1,\"a\":[1]}",
      "{\"Timestamp\":1,\"a\\u0041\":1}",
      "{\"Timestamp\":1,\"a\":12345678901234567890}",
      "{\"Timestamp\":1,\"a\":1e999}",
      "{\"Timestamp\":1,\"a\":1,\"a\":2}",
      "{\"Timestamp\":1,\"a\":null,\"a\":2}",
      "{\"Timestamp\":1,\"a\":{},\"a\":2}",
      "{\"Timestamp\":1,\"a\":{\"b\":1},\"a.b\":2}",
      "{\"Timestamp\":\"2026-01-01T00:00:00Z\"}",
      "{\"Timestamp\":-1}",
      "{\"a\":1}",
      "{\"Timestamp\":1,\"a\":\"\\ud800\"}",
      "{\"Timestamp\":1,\"a\":\"\t\"}",
      "{\"Timestamp\":1} x",
      "[{\"Timestamp\":1}]",
      "",
    };
    batch.startEvent();
    batch.timestamp(5);
    batch.endEvent(); // the batch holds one event already
    for (String line : lines) {
      assertFalse(parse(line), line);
      assertEquals(1, batch.size(), line);
    }
    byte[] invalid = "{\"Timestamp\":1,\"a\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8);
    invalid[invalid.length - 3] = (byte) 0xC0; // an overlong form
    assertFalse(parser.parse(invalid, 0, invalid.length, batch));
    assertEquals(1, batch.size());
    assertTrue(parse("{\"Timestamp\":1,\"a\":1}"), "and goes on afterwards");
    assertEquals(Map.of("a", 1L), batch.event(1).fields());
  }
}
