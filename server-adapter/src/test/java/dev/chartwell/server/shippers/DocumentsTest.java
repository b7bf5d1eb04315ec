package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.http.Json;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Elasticsearch documents the byte reader leaves to Jackson read as our NDJSON lines are: before
 * the rule was shared, a document turned integers past 64 bits into doubles (losing digits) and
 * refused nesting from 33 levels that an NDJSON line could have up to 64.
 */
class DocumentsTest {
  private final Documents documents = new Documents(new Json().mapper());

  private Map<String, Object> read(String doc) throws Documents.Invalid {
    byte[] bytes = ("xx" + doc + "yy").getBytes(StandardCharsets.UTF_8);
    return documents.read(bytes, 2, bytes.length - 2);
  }

  @Test
  void integersPast64BitsAreKeptExactlyAsInNdjson() throws Exception {
    assertEquals(
        new BigInteger("98765432109876543210"), read("{\"n\":98765432109876543210}").get("n"));
  }

  @Test
  void nestingUpToTheServersLimitIsAcceptedAsInNdjson() throws Exception {
    String deep = "{\"n\":".repeat(40) + "1" + "}".repeat(40);
    assertEquals(1, read(deep).size());
    String tooDeep = "{\"n\":".repeat(70) + "1" + "}".repeat(70);
    Documents.Invalid e = assertThrows(Documents.Invalid.class, () -> read(tooDeep));
    assertTrue(e.getMessage().contains("deeper than 64"), e.getMessage());
  }

  @Test
  void problemsAreNamedInOurWords() {
    assertTrue(
        assertThrows(Documents.Invalid.class, () -> read("{\"a\":1e999}"))
            .getMessage()
            .startsWith("a: number out of range"));
    assertEquals(
        "the document must be a JSON object",
        assertThrows(Documents.Invalid.class, () -> read("[1]")).getMessage());
  }
}
