package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** What the parsed documents keep, and for which generation. */
class ParsedDocumentsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void anEntryServesItsGenerationOnly() {
    ParsedDocuments docs = new ParsedDocuments();
    ObjectNode d = MAPPER.createObjectNode().put("id", "a");
    long g = docs.generation();
    docs.put("a", g, d, 10);
    assertSame(d, docs.get("a", g));
    docs.changed();
    assertNull(docs.get("a", docs.generation()), "a write made it stale");
    assertSame(d, docs.get("a", g), "still there for a reader of the old generation");
  }

  @Test
  void documentsPastTheBoundsAreNotKept() {
    ParsedDocuments docs = new ParsedDocuments();
    long g = docs.generation();
    docs.put("large", g, MAPPER.createObjectNode(), ParsedDocuments.MAX_DOCUMENT_CHARS + 1);
    assertNull(docs.get("large", g), "a document larger than kept");
    docs.put("first", g, MAPPER.createObjectNode(), ParsedDocuments.MAX_DOCUMENT_CHARS);
    long filed = ParsedDocuments.MAX_DOCUMENT_CHARS;
    int i = 0;
    while (filed + ParsedDocuments.MAX_DOCUMENT_CHARS <= ParsedDocuments.MAX_CHARS) {
      docs.put("d" + i++, g, MAPPER.createObjectNode(), ParsedDocuments.MAX_DOCUMENT_CHARS);
      filed += ParsedDocuments.MAX_DOCUMENT_CHARS;
    }
    assertNotNull(docs.get("first", g), "within the characters kept in all");
    docs.put("over", g, MAPPER.createObjectNode(), ParsedDocuments.MAX_DOCUMENT_CHARS);
    assertNull(docs.get("first", g), "one past the characters kept: started over");
    assertNotNull(docs.get("over", g));
    for (int k = 0; k < ParsedDocuments.MAX_ENTRIES; k++) {
      docs.put("small" + k, g, MAPPER.createObjectNode(), 1);
    }
    assertNull(docs.get("over", g), "one past the documents kept: started over");
  }
}
