package dev.chartwell.server.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

/**
 * A durable map from id to JSON document, persisted in a Chronicle Map file. Every write is in the
 * memory-mapped file when the call returns, so it survives the process being killed. Chronicle Map
 * serializes concurrent writers per segment; {@link #compute} is atomic per key.
 */
public final class DocumentStore implements AutoCloseable {
  private final ChronicleMap<String, String> map;
  private final Path openMarker;

  private DocumentStore(ChronicleMap<String, String> map, Path openMarker) {
    this.map = map;
    this.openMarker = openMarker;
  }

  /**
   * Opens (or creates, or recovers after a crash) a persisted collection.
   *
   * @param file the Chronicle Map file
   * @param name the collection name (for Chronicle's diagnostics)
   * @param maxEntries the largest number of documents expected
   * @param averageDocumentBytes the typical size of one JSON document
   * @return the store
   * @throws IOException when the file cannot be created or read
   */
  public static DocumentStore open(
      Path file, String name, long maxEntries, int averageDocumentBytes) throws IOException {
    ChronicleMapBuilder<String, String> builder =
        ChronicleMap.of(String.class, String.class)
            .name(name)
            .entries(maxEntries)
            .averageKeySize(40)
            .averageValueSize(averageDocumentBytes)
            .maxBloatFactor(4.0);
    // A marker file exists while the store is open. Found at start, it means the last process
    // died with the store open (kill -9, power loss): the file is then opened through recovery,
    // which releases segment locks that process may have held. The data directory lock makes this
    // process the only user of the file, as recovery requires.
    Path marker = file.resolveSibling(file.getFileName() + ".open");
    boolean crashed = Files.exists(marker);
    ChronicleMap<String, String> map =
        crashed && Files.exists(file)
            ? builder.recoverPersistedTo(file.toFile(), true)
            : builder.createPersistedTo(file.toFile());
    if (!crashed) {
      Files.createFile(marker);
    }
    return new DocumentStore(map, marker);
  }

  /**
   * @param id a document id
   * @return the document, if present
   */
  public Optional<String> get(String id) {
    return Optional.ofNullable(map.get(id));
  }

  /**
   * @param id a document id
   * @param document the JSON text to store under it
   */
  public void put(String id, String document) {
    map.put(id, document);
  }

  /**
   * Atomically replaces (or creates, or removes) one document.
   *
   * @param id the document id
   * @param update receives the id and the current document (or {@code null}) and returns the new
   *     one (or {@code null} to remove it)
   * @return the new document, or {@code null} when removed
   */
  public String compute(String id, BiFunction<String, String, String> update) {
    return map.compute(id, update);
  }

  /**
   * @param id a document id
   * @return whether it existed
   */
  public boolean remove(String id) {
    return map.remove(id) != null;
  }

  /**
   * @return a copy of every document
   */
  public List<String> values() {
    return new ArrayList<>(map.values());
  }

  @Override
  public void close() {
    map.close();
    try {
      Files.deleteIfExists(openMarker);
    } catch (IOException e) {
      // The next start will then recover the file, which is safe, only slower and noisier.
    }
  }
}
