package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DocumentStoreTest {
  @TempDir Path dir;

  @Test
  void persistedChronicleMapSurvivesCloseAndReopen() throws IOException {
    try (DocumentStore store = DocumentStore.open(dir, Collection.ALERTS)) {
      store.put("a", "{\"n\":1}");
      store.put("b", "{\"n\":2}");
      store.compute("a", (k, v) -> "{\"n\":10}");
      assertTrue(store.remove("b"));
    }
    try (DocumentStore store = DocumentStore.open(dir, Collection.ALERTS)) {
      assertEquals(Optional.of("{\"n\":10}"), store.get("a"));
      assertEquals(Optional.empty(), store.get("b"));
      assertEquals(1, store.values().size());
      assertFalse(store.remove("b"));
    }
  }

  @Test
  void aStoreLeftOpenByACrashedProcessIsRecovered() throws IOException {
    DocumentStore crashed = DocumentStore.open(dir, Collection.WEBHOOKS);
    crashed.put("a", "kept");
    assertTrue(java.nio.file.Files.exists(dir.resolve("webhooks.dat.open")), "marker while open");
    // The process dies here: no close(), the marker stays. (Release the mapping for the test.)
    java.nio.file.Files.copy(dir.resolve("webhooks.dat.open"), dir.resolve("marker.bak"));
    crashed.close();
    java.nio.file.Files.move(dir.resolve("marker.bak"), dir.resolve("webhooks.dat.open"));
    try (DocumentStore recovered = DocumentStore.open(dir, Collection.WEBHOOKS)) {
      assertEquals(Optional.of("kept"), recovered.get("a"));
    }
    assertFalse(
        java.nio.file.Files.exists(dir.resolve("webhooks.dat.open")), "clean close removes it");
  }

  @Test
  void dataDirectoryIsExclusive() throws IOException {
    try (DataDirectory first = DataDirectory.open(dir.resolve("data"))) {
      IOException e = assertThrows(IOException.class, () -> DataDirectory.open(first.root()));
      assertTrue(e.getMessage().contains("in use by another Chartwell server"), e.getMessage());
    }
    DataDirectory.open(dir.resolve("data")).close();
  }

  /** A JSON string document of exactly {@code bytes} UTF-8 bytes, mostly a two-byte letter. */
  static String document(int bytes) {
    int letters = (bytes - 2) / 2;
    return "\"" + "\u00e9".repeat(letters) + "x".repeat(bytes - 2 - 2 * letters) + "\"";
  }

  @ParameterizedTest
  @EnumSource(Collection.class)
  void everyCollectionHoldsADocumentOfItsLimitAndRefusesOneByteMore(Collection c)
      throws IOException {
    int limit = c.maxDocumentBytes();
    String largest = document(limit);
    assertEquals(limit, Collection.utf8Length(largest));
    try (DocumentStore store = DocumentStore.open(dir, c)) {
      store.put("a", largest);
      store.compute("b", (k, v) -> largest);
      assertEquals(Optional.of(largest), store.get("a"));
      assertEquals(Optional.of(largest), store.get("b"));
      for (int i = 0; i < 8; i++) {
        store.put("more" + i, largest); // several in one segment still fit
      }
      String over = document(limit + 1);
      ApiException put = assertThrows(ApiException.class, () -> store.put("c", over));
      assertEquals(ErrorCode.PAYLOAD_TOO_LARGE, put.code());
      assertEquals(
          "the "
              + c.noun()
              + " is larger than "
              + limit
              + " bytes (as stored JSON: "
              + (limit + 1)
              + " bytes)",
          put.getMessage());
      assertThrows(ApiException.class, () -> store.compute("a", (k, v) -> over));
      assertEquals(Optional.of(largest), store.get("a"), "a refused compute changes nothing");
      assertEquals(Optional.empty(), store.get("c"));
    }
  }

  /** The maps start small and grow: each still holds the documents it is sized for. */
  @ParameterizedTest
  @EnumSource(Collection.class)
  void everyCollectionGrowsToItsMaxEntriesOfTypicalDocuments(Collection c) throws IOException {
    String typical = document(c.averageDocumentBytes());
    try (DocumentStore store = DocumentStore.open(dir, c)) {
      for (long i = 0; i < c.maxEntries(); i++) {
        store.put(String.format("%024x", i), typical);
      }
      store.put("largest", document(c.maxDocumentBytes()));
      assertEquals(Optional.of(typical), store.get(String.format("%024x", c.maxEntries() - 1)));
    }
    try (DocumentStore store = DocumentStore.open(dir, c)) {
      assertEquals(c.maxEntries() + 1, store.values().size());
    }
  }

  @Test
  void utf8LengthCountsLikeTheEncoder() {
    for (String s : new String[] {"", "abc", "\u00e9", "\u20ac", "\ud83d\ude00"}) {
      assertEquals(
          s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, Collection.utf8Length(s), s);
    }
  }

  @Test
  void anOpenStoreIsFoundByItsDataDirectoryUntilItIsClosed() throws Exception {
    DocumentStore store = DocumentStore.open(dir, Collection.ROLES);
    store.put("a", "{\"id\":\"a\"}");
    assertEquals(
        java.util.Optional.of(store),
        DocumentStore.openedBy(dir.resolve(".").resolve("x").resolve(".."), Collection.ROLES));
    assertEquals(java.util.Map.of("a", "{\"id\":\"a\"}"), store.entries());
    assertEquals(java.util.Optional.empty(), DocumentStore.openedBy(dir, Collection.ALERTS));
    store.close();
    assertEquals(java.util.Optional.empty(), DocumentStore.openedBy(dir, Collection.ROLES));
  }
}
