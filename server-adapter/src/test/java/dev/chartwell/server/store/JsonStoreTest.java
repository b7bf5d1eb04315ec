package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonStoreTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void listsOldestFirstByTheInstantNotItsText() throws Exception {
    // Instant.toString() leaves out a whole second's ".000": "...:01Z" is older than
    // "...:01.005Z" though its text sorts after it. A service created on a whole second was
    // listed after a younger one (a flaky ServiceScalingIntegrationTest).
    try (JsonStore store = JsonStore.open(dir, Collection.SERVICES, MAPPER)) {
      store.put("b", doc("b", "2026-11-24T22:55:01.005Z"));
      store.put("z", doc("z", "2026-11-24T22:55:01Z"));
      store.put("a", doc("a", "2026-11-24T22:55:00.999Z"));
      store.put("c", doc("c", "2026-11-24T22:55:01.005Z"));
      assertEquals(
          List.of("a", "z", "b", "c"),
          store.list(any -> true).stream().map(n -> n.get("id").asText()).toList());
    }
  }

  private static ObjectNode doc(String id, String createdAt) {
    return MAPPER.createObjectNode().put("id", id).put("createdAt", createdAt);
  }
}
