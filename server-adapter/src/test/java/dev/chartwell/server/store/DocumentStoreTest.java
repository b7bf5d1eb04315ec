package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentStoreTest {
  @TempDir Path dir;

  @Test
  void persistedChronicleMapSurvivesCloseAndReopen() throws IOException {
    Path file = dir.resolve("things.dat");
    try (DocumentStore store = DocumentStore.open(file, "things", 1000, 128)) {
      store.put("a", "{\"n\":1}");
      store.put("b", "{\"n\":2}");
      store.compute("a", (k, v) -> "{\"n\":10}");
      assertTrue(store.remove("b"));
    }
    try (DocumentStore store = DocumentStore.open(file, "things", 1000, 128)) {
      assertEquals(Optional.of("{\"n\":10}"), store.get("a"));
      assertEquals(Optional.empty(), store.get("b"));
      assertEquals(1, store.values().size());
      assertFalse(store.remove("b"));
    }
  }

  @Test
  void aStoreLeftOpenByACrashedProcessIsRecovered() throws IOException {
    Path file = dir.resolve("crash.dat");
    DocumentStore crashed = DocumentStore.open(file, "crash", 1000, 128);
    crashed.put("a", "kept");
    assertTrue(java.nio.file.Files.exists(dir.resolve("crash.dat.open")), "marker while open");
    // The process dies here: no close(), the marker stays. (Release the mapping for the test.)
    java.nio.file.Files.copy(dir.resolve("crash.dat.open"), dir.resolve("marker.bak"));
    crashed.close();
    java.nio.file.Files.move(dir.resolve("marker.bak"), dir.resolve("crash.dat.open"));
    try (DocumentStore recovered = DocumentStore.open(file, "crash", 1000, 128)) {
      assertEquals(Optional.of("kept"), recovered.get("a"));
    }
    assertFalse(
        java.nio.file.Files.exists(dir.resolve("crash.dat.open")), "clean close removes it");
  }

  @Test
  void dataDirectoryIsExclusive() throws IOException {
    try (DataDirectory first = DataDirectory.open(dir.resolve("data"))) {
      IOException e = assertThrows(IOException.class, () -> DataDirectory.open(first.root()));
      assertTrue(e.getMessage().contains("in use by another Chartwell server"), e.getMessage());
    }
    DataDirectory.open(dir.resolve("data")).close();
  }
}
