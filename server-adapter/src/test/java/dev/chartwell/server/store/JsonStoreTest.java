package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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

  @Test
  void aReadSeesEveryWriteThatReturnedBeforeIt() throws Exception {
    try (JsonStore store = JsonStore.open(dir, Collection.SOURCES, MAPPER)) {
      store.put("s", doc("s", "2026-11-24T22:55:00Z").put("v", 1));
      assertEquals(1, store.get("s").orElseThrow().get("v").asInt());
      assertEquals(1, store.get("s").orElseThrow().get("v").asInt(), "kept, still current");
      store.put("s", doc("s", "2026-11-24T22:55:00Z").put("v", 2));
      assertEquals(2, store.get("s").orElseThrow().get("v").asInt());
      store.compute("s", n -> n.put("v", 3));
      assertEquals(3, store.get("s").orElseThrow().get("v").asInt());
      assertThrows(
          IllegalStateException.class,
          () ->
              store.compute(
                  "s",
                  n -> {
                    throw new IllegalStateException("refused");
                  }));
      assertEquals(3, store.get("s").orElseThrow().get("v").asInt());
      assertTrue(store.remove("s"));
      assertFalse(store.get("s").isPresent());
    }
  }

  @Test
  void aCallerChangesItsCopyNotTheStore() throws Exception {
    try (JsonStore store = JsonStore.open(dir, Collection.SOURCES, MAPPER)) {
      store.put("s", doc("s", "2026-11-24T22:55:00Z").put("name", "kept"));
      store.get("s").orElseThrow().put("name", "changed").putObject("extra");
      ObjectNode again = store.get("s").orElseThrow();
      assertEquals("kept", again.get("name").asText());
      assertFalse(again.has("extra"));
    }
  }

  @Test
  void readersBesideAWriterNeverSeeAnOlderVersionThanTheLastWritten() throws Exception {
    int versions = 5_000;
    try (JsonStore store = JsonStore.open(dir, Collection.SOURCES, MAPPER)) {
      store.put("s", doc("s", "2026-11-24T22:55:00Z").put("v", 0));
      AtomicLong written = new AtomicLong(); // the last version whose put has returned
      AtomicReference<String> failure = new AtomicReference<>();
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        Thread r =
            new Thread(
                () -> {
                  while (written.get() < versions && failure.get() == null) {
                    long before = written.get();
                    long seen = store.get("s").orElseThrow().get("v").asLong();
                    if (seen < before) {
                      failure.set("read version " + seen + " after version " + before + " was");
                    }
                  }
                });
        r.start();
        readers.add(r);
      }
      for (int v = 1; v <= versions && failure.get() == null; v++) {
        store.put("s", doc("s", "2026-11-24T22:55:00Z").put("v", v));
        written.set(v);
      }
      written.set(versions); // the readers stop even when a failure ended the writes
      for (Thread r : readers) {
        r.join();
      }
      assertEquals(null, failure.get());
    }
  }

  @Test
  void moreDocumentsThanKeptAreStillReadRight() throws Exception {
    try (JsonStore store = JsonStore.open(dir, Collection.SOURCES, MAPPER)) {
      int n = ParsedDocuments.MAX_ENTRIES + 10;
      for (int i = 0; i < n; i++) {
        store.put("s" + i, doc("s" + i, "2026-11-24T22:55:00Z").put("v", i));
      }
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) {
          assertEquals(i, store.get("s" + i).orElseThrow().get("v").asInt());
        }
      }
    }
  }

  private static ObjectNode doc(String id, String createdAt) {
    return MAPPER.createObjectNode().put("id", id).put("createdAt", createdAt);
  }
}
