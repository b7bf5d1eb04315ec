package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.chartwell.server.http.Json;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one rule that turns a JSON object into an event's fields. */
class JsonFieldsTest {
  private static final Json JSON = new Json();

  private static Map<String, Object> read(String json) throws Exception {
    Map<String, Object> out = new LinkedHashMap<>();
    try (JsonParser p = JSON.mapper().createParser(json)) {
      assertEquals(JsonToken.START_OBJECT, p.nextToken());
      JsonFields.read(p, out);
      assertEquals(JsonToken.END_OBJECT, p.currentToken(), "the object is read to its end");
    }
    return out;
  }

  @Test
  void objectsFlattenArraysStayTextNullIsAbsent() throws Exception {
    Map<String, Object> f =
        read(
            "{\"a\":{\"b\":{\"c\":\"x\"},\"d\":true},\"e\":[1,{\"f\":2.5},[null]],\"g\":null,"
                + "\"h\":-0.0,\"i\":7,\"j\":false}");
    assertEquals(
        Map.of(
            "a.b.c",
            "x",
            "a.d",
            true,
            "e",
            "[1,{\"f\":2.5},[null]]",
            "h",
            0.0,
            "i",
            7L,
            "j",
            false),
        f);
    assertEquals("[a.b.c, a.d, e, h, i, j]", f.keySet().toString(), "in the order written");
    assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits((Double) f.get("h")));
  }

  @Test
  void integersPast64BitsStayExactForTheEngineToJudge() throws Exception {
    assertEquals(
        new BigInteger("123456789012345678901234567890"),
        read("{\"n\":123456789012345678901234567890}").get("n"));
  }

  @Test
  void numbersTooLargeForADoubleAreRefusedNamingTheField() {
    JsonFields.Refused e =
        assertThrows(JsonFields.Refused.class, () -> read("{\"a\":{\"b\":1e400}}"));
    assertEquals(
        "a.b: number out of range (larger than a 64-bit floating-point number)", e.getMessage());
    e = assertThrows(JsonFields.Refused.class, () -> read("{\"list\":[1,[2,{\"x\":[0,2e999]}]]}"));
    assertTrue(e.getMessage().startsWith("list[1][1].x[1]: number out of range"), e.getMessage());
  }

  @Test
  void nestingIsLimitedAtTheServersJsonLimit() throws Exception {
    int max = JsonFields.MAX_DEPTH;
    String deepest = "{\"n\":".repeat(max) + "1" + "}".repeat(max);
    assertEquals(1L, read(deepest).values().iterator().next());
    // A tree's parser does not carry the server's limit: the rule refuses by itself.
    String tooDeep = "{\"n\":".repeat(max + 1) + "1" + "}".repeat(max + 1);
    var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(tooDeep);
    try (JsonParser p = tree.traverse()) {
      p.nextToken();
      JsonFields.Refused e =
          assertThrows(JsonFields.Refused.class, () -> JsonFields.read(p, new LinkedHashMap<>()));
      assertTrue(
          e.getMessage().startsWith("nested deeper than " + max + " levels at 'n.n.n"),
          e.getMessage());
    }
    String deepArray = "{\"a\":" + "[".repeat(max) + "]".repeat(max) + "}";
    try (JsonParser p =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(deepArray).traverse()) {
      p.nextToken();
      assertThrows(JsonFields.Refused.class, () -> JsonFields.read(p, new LinkedHashMap<>()));
    }
  }
}
