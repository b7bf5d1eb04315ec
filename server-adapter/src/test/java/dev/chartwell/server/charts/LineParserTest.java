package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.EventBatch;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The byte reader takes the plain lines that make up nearly every request (so that they never pay
 * for the general reader), and leaves everything unusual alone, the batch as it was. What it takes
 * is checked against the general reading by {@link EventReaderProperties}.
 */
class LineParserTest {
  private final EventBatch batch = new EventBatch();
  private final LineParser parser = new LineParser("Timestamp", batch);

  /** Reads a line followed by a newline and the next line's start; says whether it took it. */
  private boolean parse(String line) {
    byte[] bytes = ("xx" + line + "\n{\"y").getBytes(StandardCharsets.UTF_8);
    int end = parser.parse(bytes, 2, bytes.length, false);
    if (end >= 0) {
      assertEquals(bytes.length - 4, end, "the line ends at its newline");
    }
    return end >= 0;
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
    assertTrue(parse("{\"Timestamp\":1767139200000000000 , \"a\" : { \"b\" : { } } }\r"));
    assertTrue(
        parse(
            "{\"Timestamp\":1,\"n\":9223372036854775807,\"e\":1.5e3,\"z\":-0.0,"
                + "\"s\":0.000123,\"l\":358.01728757263413}"));
    assertEquals(4, batch.size());
    assertEquals(
        Map.of("n", Long.MAX_VALUE, "e", 1500.0, "z", 0.0, "s", 0.000123, "l", 358.01728757263413),
        batch.event(3).fields());
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

  /** A line read against the one before it still finds its own names and their repeats. */
  @Test
  void aLineReadAgainstTheOneBeforeKeepsItsOwnNames() {
    assertTrue(parse("{\"Timestamp\":1,\"a\":{\"b\":1},\"c\":2}"));
    assertTrue(parse("{\"Timestamp\":1,\"a\":1,\"b\":2}")); // b one level up
    assertEquals(Map.of("a", 1L, "b", 2L), batch.event(1).fields());
    assertFalse(parse("{\"Timestamp\":1,\"a\":1,\"a\":2}")); // a repeat of a name read alike
    assertFalse(parse("{\"Timestamp\":1,\"a\":1,\"b\":2,\"Timestamp\":3}"));
    assertTrue(parse("{\"Timestamp\":1,\"a\":1}")); // fewer names than the line before
    assertTrue(parse("{\"Timestamp\":1,\"a\":1,\"b\":2,\"d\":3}")); // more
    assertEquals(Map.of("a", 1L, "b", 2L, "d", 3L), batch.event(3).fields());
    assertEquals(4, batch.size());
  }

  /** Numbers read as the JDK reads them, to the bit, whichever way the byte reader takes. */
  @Test
  void numbersReadExactly() {
    java.util.Random random = new java.util.Random(3);
    for (int i = 0; i < 200_000; i++) {
      String text =
          switch (random.nextInt(5)) {
            case 0 -> Double.toString(Double.longBitsToDouble(random.nextLong() >>> 2));
            case 1 -> Double.toString(Math.exp(random.nextGaussian() * 5));
            case 2 -> random.nextInt(100_000) + "." + random.nextInt(1_000_000);
            case 3 ->
                (random.nextInt(20) - 10)
                    + "."
                    + Long.toString(random.nextLong() & Long.MAX_VALUE)
                    + "e"
                    + (random.nextInt(60) - 30);
            default -> "0.000" + random.nextInt(1000) + "E" + (random.nextInt(50) - 25);
          };
      if (!parse("{\"Timestamp\":1,\"v\":" + text + "}")) {
        continue; // left to the general reader (not finite, and so on)
      }
      double expected = Double.parseDouble(text);
      Object actual = batch.event(batch.size() - 1).fields().get("v");
      if (expected == Math.rint(expected) && !text.contains(".") && !text.contains("e")) {
        assertEquals((long) expected, actual, text);
      } else {
        assertEquals(Double.doubleToLongBits(expected == 0 ? 0.0 : expected), bits(actual), text);
      }
      batch.clear();
    }
  }

  private static long bits(Object v) {
    return Double.doubleToLongBits((Double) v);
  }

  /** The ISO-8601 form shippers write is read from its bytes, the others left to Java's parser. */
  @Test
  void takesTheCommonIsoTimestamps() {
    assertTrue(parse("{\"Timestamp\":\"2026-01-01T00:00:00.123456Z\",\"a\":1}"));
    assertTrue(parse("{\"Timestamp\":\"2026-01-01T02:00:00.5+02:00\"}"));
    assertEquals(1767225600123L, batch.timestampAt(0));
    assertEquals(1767225600500L, batch.timestampAt(1));
    assertEquals(Map.of("a", 1L), batch.event(0).fields());
  }

  /** An event left open takes the caller's fields before it is ended. */
  @Test
  void parseOpenLeavesTheEventToTheCaller() {
    byte[] line = "{\"Timestamp\":7,\"a\":1}".getBytes(StandardCharsets.UTF_8);
    assertEquals(line.length, parser.parseOpen(line, 0, line.length, true));
    batch.putString(batch.field("_id"), "x1");
    batch.endEvent();
    assertEquals(Map.of("a", 1L, "_id", "x1"), batch.event(0).fields());
    byte[] other = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    assertEquals(-1, parser.parseOpen(other, 0, other.length, true));
    batch.startEvent(); // none is open
    batch.abandonEvent();
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
      "{\"Timestamp\":\"2026-01-01 00:00:00Z\"}", // an ISO form other than the common one
      "{\"Timestamp\":\"2026-01-01T00:00:00Z\",\"Timestamp\":\"2026-01-01T00:00:00Z\"}",
      "{\"Timestamp\":-1}",
      "{\"a\":1}",
      "{\"Timestamp\":1,\"a\":\"\\ud800\"}",
      "{\"Timestamp\":1,\"a\":\"\t\"}",
      "{\"Timestamp\":1} x",
      "{\"Timestamp\":1,\"a\":-9223372036854775808}",
      "{\"Timestamp\":1,\"a\":9223372036854775808}",
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
    assertEquals(-1, parser.parse(invalid, 0, invalid.length, true));
    assertEquals(1, batch.size());
    assertTrue(parse("{\"Timestamp\":1,\"a\":1}"), "and goes on afterwards");
    assertEquals(Map.of("a", 1L), batch.event(1).fields());
    byte[] unfinished = "{\"Timestamp\":1,\"a\":1}".getBytes(StandardCharsets.UTF_8);
    assertEquals(-1, parser.parse(unfinished, 0, unfinished.length, false), "more may follow");
    assertEquals(unfinished.length, parser.parse(unfinished, 0, unfinished.length, true));
    assertEquals(3, batch.size());
  }
}
