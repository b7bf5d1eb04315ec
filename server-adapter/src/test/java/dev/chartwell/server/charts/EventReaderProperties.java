package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.Event;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.JsonErrors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * NDJSON lines and JSON array bodies are streamed straight into events, a plain line straight from
 * its bytes ({@link LineParser}), any other by Jackson's streaming reader. Both must make the
 * events of a naive reading (the line as a tree, then flattened), and a line that is not one plain
 * object must be refused with what the tree reader says of it. The lines mix what the byte reader
 * takes with everything it must leave to the others: numbers at and past a long, malformed numbers
 * and literals, escapes of every kind (unpaired surrogates too), raw control characters, names that
 * flatten onto each other, deep nesting.
 */
class EventReaderProperties {
  private static final ObjectMapper MAPPER = new Json().mapper();

  @Test
  void streamedLinesReadAsTreesDo() {
    qt().withExamples(300).forAll(longs().all()).checkAssert(EventReaderProperties::sameEvents);
  }

  /**
   * A body of many lines: most of a few shapes (the same names in the same order, as one producer
   * writes them, which the byte reader reads against the line before), some departing from them
   * part way, some not plain at all. Each line must read as it does alone.
   */
  @Test
  void linesOfAFewShapesReadAsEachDoesAlone() {
    qt().withExamples(100).forAll(longs().all()).checkAssert(EventReaderProperties::sameBody);
  }

  private static void sameBody(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> shapes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      shapes.add(object(random, 0, true));
    }
    StringBuilder body = new StringBuilder();
    List<String> events = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    int lines = 1 + random.nextInt(40);
    for (int n = 1; n <= lines; n++) {
      String line =
          random.nextInt(5) == 0
              ? line(random)
              : revalue(shapes.get(random.nextInt(shapes.size())), random);
      body.append(line).append(random.nextInt(10) == 0 ? "\r\n" : "\n");
      Read alone = read(line + "\n");
      events.addAll(alone.events());
      for (String e : alone.errors()) {
        errors.add(n + e.substring(e.indexOf(':')));
      }
    }
    assertEquals(new Read(events, errors), read(body.toString()), body.toString());
  }

  /** The same names in the same order, other values of the same kinds. */
  private static String revalue(String shape, SplittableRandom random) {
    StringBuilder out = new StringBuilder();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(":(-?[0-9][0-9.eE+-]*)").matcher(shape);
    while (m.find()) {
      m.appendReplacement(
          out, ":" + (random.nextBoolean() ? m.group(1) : Integer.toString(random.nextInt(99))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** A JSON array body was refused element by element as "trailing tokens" (the fix's test). */
  @Test
  void aJsonArrayBodyIsReadElementByElement() {
    Read read =
        read("[{\"Timestamp\":1767225600000,\"a\":[1,{\"b\":2}]}, {\"Timestamp\":1767225600001}]");
    assertEquals(
        new Read(List.of("1767225600000 a=[1,{\"b\":2}]:String ", "1767225600001 "), List.of()),
        read);
  }

  private static void sameEvents(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 20; i++) {
      String line = line(random);
      Read streamed = read(line + "\n");
      String expected;
      if (line.isBlank()) {
        expected = new Read(List.of(), List.of()).toString(); // skipped
      } else {
        try {
          expected = reference(MAPPER.readTree(line)).toString();
          assertEquals(expected, read("[" + line + "]").toString(), "as an array body: " + line);
        } catch (JsonProcessingException e) {
          expected = new Read(List.of(), List.of("1: " + JsonErrors.describeInLine(e))).toString();
        }
      }
      assertEquals(expected, streamed.toString(), line);
    }
  }

  /** The naive reading: the whole line as a tree, checked, then flattened. */
  private static Read reference(JsonNode node) {
    if (!node.isObject()) {
      return new Read(List.of(), List.of("1: each event must be a JSON object"));
    }
    String nonFinite = JsonErrors.nonFiniteNumberPath(node);
    if (nonFinite != null) {
      return new Read(
          List.of(),
          List.of(
              "1: "
                  + nonFinite
                  + ": number out of range (larger than a 64-bit floating-point number)"));
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    flatten("", node, fields);
    Object ts = fields.remove("Timestamp");
    if (ts == null) {
      return new Read(List.of(), List.of("1: Timestamp: is required"));
    }
    long millis;
    try {
      millis = EventReader.timestamp(ts);
    } catch (IllegalArgumentException e) {
      return new Read(List.of(), List.of("1: Timestamp: " + e.getMessage()));
    }
    return new Read(List.of(millis + " " + describe(new Event(millis, fields))), List.of());
  }

  private static void flatten(String prefix, JsonNode node, Map<String, Object> out) {
    node.fields()
        .forEachRemaining(
            f -> {
              String name = prefix.isEmpty() ? f.getKey() : prefix + "." + f.getKey();
              JsonNode v = f.getValue();
              if (v.isObject()) {
                flatten(name, v, out);
              } else if (v.isArray()) {
                out.put(name, v.toString());
              } else if (v.isTextual()) {
                out.put(name, v.textValue());
              } else if (v.isBoolean()) {
                out.put(name, v.booleanValue());
              } else if (v.isIntegralNumber()) {
                out.put(name, v.canConvertToLong() ? (Object) v.longValue() : v.bigIntegerValue());
              } else if (v.isNumber()) {
                out.put(name, v.doubleValue()); // a decimal: -0.0 reads as 0.0
              }
            });
  }

  private record Read(List<String> events, List<String> errors) {}

  private static Read read(String body) {
    EventReader reader = new EventReader(MAPPER, "Timestamp");
    List<String> events = new ArrayList<>();
    try {
      reader.read(
          new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
          (batch, lines) -> {
            for (int i = 0; i < batch.size(); i++) {
              Event e = batch.event(i);
              events.add(e.timestamp() + " " + describe(e));
            }
            return List.of();
          });
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    List<String> errors = new ArrayList<>();
    reader.errors().forEach(e -> errors.add(e.line() + ": " + e.error()));
    return new Read(events, errors);
  }

  /**
   * Each field with its value's class, so that 1 and 1.0 and "1" differ; by name (a batch lists an
   * event's fields in the order the batch first met them).
   */
  private static String describe(Event e) {
    StringBuilder out = new StringBuilder();
    new java.util.TreeMap<>(e.fields())
        .forEach(
            (k, v) ->
                out.append(k)
                    .append('=')
                    .append(v)
                    .append(':')
                    .append(v.getClass().getSimpleName())
                    .append(' '));
    return out.toString();
  }

  private static String line(SplittableRandom r) {
    return switch (r.nextInt(15)) {
      case 14 -> {
        String[] lines = {
          "{\"Timestamp\":1767225600000,\"b\":{\"c\":1},\"b.c\":2}", // names that flatten alike
          "{\"b\":{\"c\":1},\"Timestamp\":1767225600000,\"b\":{\"d\":2}}", // a duplicate name
          "{\"Timestamp\":1767225600000,\"Timestamp\":1767225600001}",
          "{\"Timestamp\":1767225600000,\"t\":{\"Timestamp\":5}}",
          "{\"Timestamp\":1767225600000.5}",
          "{\"Timestamp\":true}",
          "{\"Timestamp\":null,\"a\":1}",
          "{\"Timestamp\":0}",
          "{\"Timestamp\":99999999999999999999}",
          "{\"Timestamp\":\"2026-01-01T00:00:00.123+02:00\",\"a\":\"x\"}",
          "\t{ \"Timestamp\" : 1767225600000 , \"a\" : { } }\r",
          "{}",
          "{\"\":1,\"Timestamp\":1767225600000}",
          "{\"Timestamp\":1767225600000,\"a\":\"\u0001\"}",
        };
        yield lines[r.nextInt(lines.length)];
      }
      case 12 -> "{\"Timestamp\":1767225600000,\"a\":" + malformed(r) + "}";
      case 13 ->
          "{\"Timestamp\":1767225600000,\"n\":" + "{\"n\":".repeat(40) + "1" + "}".repeat(41);
      case 0 -> "{\"Timestamp\":1767225600000,\"a\":1} 2"; // trailing value
      case 1 -> r.nextBoolean() ? "5" : "null"; // not an object (a "[" would make an array body)
      case 2 -> "{\"Timestamp\":1767225600000,\"a\":"; // cut short
      case 3 -> "{\"Timestamp\":1767225600000,\"a\":1,\"a\":2}"; // duplicate key
      case 4 -> r.nextBoolean() ? "  " : "\"text\"";
      default -> object(r, 0, true);
    };
  }

  private static String object(SplittableRandom r, int depth, boolean root) {
    StringBuilder out = new StringBuilder("{");
    List<String> fields = new ArrayList<>();
    if (root && r.nextInt(10) > 0) {
      fields.add("\"Timestamp\":" + timestamp(r));
    }
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      fields.add("\"" + name(r, i) + "\":" + value(r, depth));
    }
    out.append(String.join(r.nextBoolean() ? "," : " , ", fields));
    return out.append('}').toString();
  }

  /** Values Jackson refuses or reads its own way; the byte reader must leave them to it. */
  private static String malformed(SplittableRandom r) {
    String[] values = {
      "01",
      "-",
      "1.",
      ".5",
      "1e",
      "+1",
      "-01",
      "1.5e+",
      "tru",
      "nul",
      "truex",
      "nulls",
      "fals",
      "\"tab\there\"",
      "\"\\x\"",
      "\"\\u12\"",
      "\"\\ud800\"",
      "\"\\udc00 x\"",
      "\"\\ud800\\u0041\"",
      "\"unterminated",
      "NaN",
      "Infinity",
      "-Infinity",
      "[1,",
      "{\"x\"}",
      "{\"x\":}",
      "\"\u007f\"",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775808",
      "-9223372036854775809",
      "123456789012345678",
      "1234567890123456789",
      "0.1e-400",
      "-0",
      "0e0",
      "\"\\/\\b\\f\\r\\u0000\"",
      "\"a\\\"b\"",
      "true ",
      " 5 "
    };
    return values[r.nextInt(values.length)];
  }

  private static String timestamp(SplittableRandom r) {
    return switch (r.nextInt(5)) {
      case 0 -> "\"2026-01-01T00:00:00Z\"";
      case 4 -> '"' + IsoTimesProperties.text(r) + '"'; // mostly the form the byte reader takes
      case 1 -> "1767225600000000000";
      case 2 -> "-5";
      default -> Long.toString(1_767_225_600_000L + r.nextInt(1000));
    };
  }

  private static String name(SplittableRandom r, int i) {
    String[] names = {"a", "b.c", "\u00e9t\u00e9", "k\\\"q", "\\u0041", "x y"};
    return names[r.nextInt(names.length)] + i;
  }

  private static String value(SplittableRandom r, int depth) {
    return switch (r.nextInt(depth < 3 ? 13 : 11)) {
      case 0 -> "null";
      case 1 -> r.nextBoolean() ? "true" : "false";
      case 2 -> Long.toString(r.nextLong());
      case 3 -> "123456789012345678901234567890";
      case 4 -> Double.toString(r.nextDouble() * 1000);
      case 5 -> r.nextBoolean() ? "1e309" : "-0.0";
      case 6 -> r.nextBoolean() ? "1E2" : "2.50";
      case 7 -> "\"plain text " + r.nextInt(100) + "\"";
      case 8 -> "\"caf\u00e9 \\u00e9 \\ud83d\\ude00 \\n\\t\\\"\"";
      case 9 -> "\"\"";
      case 10 -> Integer.toString(r.nextInt(1000));
      case 11 -> object(r, depth + 1, false);
      default -> "[1, 2.5, \"s\", {\"x\":[true,null]}, " + (r.nextBoolean() ? "1e400" : "3") + "]";
    };
  }
}
