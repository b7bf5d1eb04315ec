package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Action lines read from their bytes give the action a tree reading gives; lines that are not
 * actions are refused with the line's number. The lines mix those clients send with spaces,
 * escapes, other metadata, repeated names, non-ASCII text and broken syntax.
 */
class BulkActionsTest {
  private static final ObjectMapper MAPPER = new Json().mapper();
  private static final String NOT_JSON = "400 line 3: not a bulk action (";

  @Test
  void readsAsATreeDoes() {
    qt().withExamples(2000)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              String line = line(new SplittableRandom(seed));
              for (String dflt : new String[] {"dflt", null}) {
                String expected = reference(line, dflt);
                String got = read(line, dflt);
                if (expected.equals(NOT_JSON)) {
                  assertTrue(got.startsWith(NOT_JSON), line + " -> " + got);
                } else {
                  assertEquals(expected, got, line);
                }
              }
            });
  }

  @Test
  void typicalLines() {
    assertEquals("create null null", read("{\"create\":{}}", null));
    assertEquals(
        "index logs-a 7",
        read(" { \"index\" : { \"_index\" : \"logs-a\", \"_id\":\"7\" } }\r", "x"));
    assertEquals("create p null", read("{\"create\":{\"_index\":null}}", "p"));
    assertTrue(read("{\"upsert\":{}}", null).contains("unknown bulk action 'upsert'"));
    assertTrue(read("{\"index\":{}} x", null).startsWith("400 line 3: not a bulk action"));
  }

  private static String read(String line, String dflt) {
    byte[] b = ("\n" + line + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      BulkActions.Action a = BulkActions.read(MAPPER, b, 1, b.length - 1, 3, dflt);
      return a.op() + " " + a.index() + " " + a.id();
    } catch (ApiException e) {
      return e.code().status() + " " + e.getMessage();
    }
  }

  /** The naive reading: a tree. */
  private static String reference(String line, String dflt) {
    JsonNode node;
    try {
      node = MAPPER.readTree(line);
    } catch (Exception e) {
      return NOT_JSON; // followed by what Jackson says
    }
    if (node == null || !node.isObject() || node.size() != 1) {
      return "400 line 3: a bulk action is an object with one of index, create, delete, update";
    }
    String op = node.fieldNames().next();
    if (!List.of("index", "create", "delete", "update").contains(op)) {
      return "400 line 3: unknown bulk action '" + op + "' (index, create, delete or update)";
    }
    JsonNode meta = node.get(op);
    JsonNode id = meta.get("_id");
    return op
        + " "
        + meta.path("_index").asText(dflt)
        + " "
        + (id != null && !id.isNull() && id.isValueNode() ? id.asText() : null);
  }

  private static String line(SplittableRandom r) {
    String[] ops = {"index", "create", "delete", "update", "upsert"};
    String[] values = {
      "\"logs\"",
      "\"a b\"",
      "\"caf\u00e9\"",
      "\"q\\\"x\"",
      "\"\\u0041\"",
      "\"\"",
      "null",
      "5",
      "{}",
      "[1]"
    };
    String[] names = {"_index", "_id", "routing", "_index", "_id"};
    StringBuilder meta = new StringBuilder("{");
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      meta.append(i > 0 ? "," : "")
          .append(r.nextInt(4) == 0 ? " " : "")
          .append('"')
          .append(names[r.nextInt(names.length)])
          .append("\":")
          .append(values[r.nextInt(values.length)]);
    }
    meta.append(r.nextInt(4) == 0 ? " }" : "}");
    String line = "{\"" + ops[r.nextInt(ops.length)] + "\":" + meta + "}";
    return switch (r.nextInt(8)) {
      case 0 -> line.substring(0, r.nextInt(line.length())); // cut short
      case 1 -> line + "x";
      case 2 -> " " + line + " \r";
      case 3 -> "{\"index\":{},\"create\":{}}";
      default -> line;
    };
  }
}
