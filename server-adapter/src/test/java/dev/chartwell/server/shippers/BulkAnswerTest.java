package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.Json;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The answer written as bytes is the JSON Elasticsearch gives, whatever the text it holds. */
class BulkAnswerTest {
  @Test
  void itemsAsElasticsearchWritesThem() throws Exception {
    var mapper = new Json().mapper();
    BulkAnswer a = new BulkAnswer(mapper, 2, 12, true);
    a.created("create", "logs", null);
    a.created("index", "caf\u00e9 \"q\"", "id\\1\n");
    a.failed("create", "logs", "x", 429, "es_rejected_execution_exception", "busy \u00e9 \"now\"");
    for (int i = 0; i < 1000; i++) {
      a.created("create", "logs", null);
    }
    JsonNode answer = mapper.readTree(a.finish());
    assertEquals(12, answer.get("took").asInt());
    assertTrue(answer.get("errors").booleanValue());
    JsonNode items = answer.get("items");
    assertEquals(1003, items.size());
    JsonNode first = items.get(0).get("create");
    assertEquals("logs", first.get("_index").textValue());
    assertEquals(201, first.get("status").asInt());
    assertEquals("created", first.get("result").textValue());
    assertEquals(1, first.get("_shards").get("successful").asInt());
    JsonNode second = items.get(1).get("index");
    assertEquals("caf\u00e9 \"q\"", second.get("_index").textValue());
    assertEquals("id\\1\n", second.get("_id").textValue());
    JsonNode failed = items.get(2).get("create");
    assertEquals(429, failed.get("status").asInt());
    assertEquals("busy \u00e9 \"now\"", failed.get("error").get("reason").textValue());
    assertTrue(!failed.has("result"));
    Set<String> ids = new HashSet<>();
    for (JsonNode item : items) {
      String id = item.elements().next().get("_id").textValue();
      if (item.has("create") && !id.equals("x")) {
        assertEquals(20, id.length(), id);
        assertTrue(id.matches("[A-Za-z0-9_-]{20}"), id);
        ids.add(id);
      }
    }
    assertEquals(1001, ids.size(), "every id made is new");
  }
}
