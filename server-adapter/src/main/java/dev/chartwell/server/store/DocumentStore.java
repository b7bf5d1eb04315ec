package dev.chartwell.server.store;

import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

/**
 * A durable map from id to JSON document, persisted in a Chronicle Map file. Every write is in the
 * memory-mapped file when the call returns, so it survives the process being killed. Chronicle Map
 * serializes concurrent writers per segment; {@link #compute} is atomic per key.
 *
 * <p>Every document written is measured first: one larger than its collection's {@link
 * Collection#maxDocumentBytes} is refused with 413 before Chronicle Map sees it, so the map never
 * meets an entry larger than it was sized for.
 */
public final class DocumentStore implements AutoCloseable {
  /**
   * The stores open in this process by file: a backup reads a running server's stores through them
   * (a Chronicle Map file cannot be copied while it is written).
   */
  private static final Map<Path, DocumentStore> OPEN = new ConcurrentHashMap<>();

  private final ChronicleMap<String, String> map;
  private final Path openMarker;
  private final Collection collection;
  private final Path key; // in OPEN

  private DocumentStore(
      ChronicleMap<String, String> map, Path openMarker, Collection collection, Path key) {
    this.key = key;
    this.map = map;
    this.openMarker = openMarker;
    this.collection = collection;
  }

  /**
   * Opens (or creates, or recovers after a crash) a persisted collection.
   *
   * @param dataDir the data directory
   * @param collection which collection (file, sizes, document limit)
   * @return the store
   * @throws IOException when the file cannot be created or read
   */
  public static DocumentStore open(Path dataDir, Collection collection) throws IOException {
    Path file = dataDir.resolve(collection.fileName());
    ChronicleMapBuilder<String, String> builder = shaped(collection);
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
      Files.createFile(marker, OwnerOnly.fileAttributes());
    }
    OwnerOnly.restrict(file); // Chronicle Map creates it as the umask says
    DocumentStore store = new DocumentStore(map, marker, collection, key(dataDir, collection));
    OPEN.put(store.key, store);
    return store;
  }

  /**
   * @param dataDir a data directory
   * @param collection a collection
   * @return the store of that collection this process has open, if it has one
   */
  public static Optional<DocumentStore> openedBy(Path dataDir, Collection collection) {
    return Optional.ofNullable(OPEN.get(key(dataDir, collection)));
  }

  private static Path key(Path dataDir, Collection collection) {
    return dataDir.toAbsolutePath().normalize().resolve(collection.fileName());
  }

  /** The typical key: a 24-hex-digit id or a UUID, as UTF-8 with its length. */
  private static final int KEY_BYTES = 40;

  /** Chronicle Map's own bytes per entry beyond key and value, in chunks' terms. */
  private static final int ENTRY_OVERHEAD = 16;

  /**
   * Sizes a collection's map to start small and grow: one segment whose tiers each hold two of the
   * largest documents, so that any document fits one tier, and as many extra tiers as {@link
   * Collection#maxEntries} typical documents need (plus a quarter). Chronicle Map allocates a new
   * tier only when the ones it has are full, so an empty map is about two largest documents long
   * instead of {@code maxEntries} typical ones (an empty data directory: about 10 MB instead of 283
   * MB), and a full one holds what it holds today. Management writes are rare, so one segment (one
   * lock) is plenty.
   */
  static ChronicleMapBuilder<String, String> shaped(Collection c) {
    int average = c.averageDocumentBytes();
    int chunk = Integer.highestOneBit(Math.max(64, average / 4));
    long largestChunks = chunks(c.maxDocumentBytes(), chunk);
    long chunksPerTier = 2 * largestChunks;
    long entriesPerTier = Math.max(1, chunksPerTier / chunks(average, chunk));
    double tiers = Math.ceil(1.25 * c.maxEntries() / entriesPerTier) + 1;
    return ChronicleMap.of(String.class, String.class)
        .name(c.mapName())
        .entries(entriesPerTier)
        .averageKeySize(KEY_BYTES)
        .averageValueSize(average)
        .actualSegments(1)
        .entriesPerSegment(entriesPerTier)
        .actualChunkSize(chunk)
        .actualChunksPerSegmentTier(chunksPerTier)
        .maxBloatFactor(Math.min(MAX_BLOAT, tiers));
  }

  /** Chronicle Map's limit on extra tiers relative to the configured entries. */
  private static final double MAX_BLOAT = 1000;

  private static long chunks(int documentBytes, int chunk) {
    return (documentBytes + KEY_BYTES + ENTRY_OVERHEAD + chunk - 1) / chunk;
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
    checkSize(document);
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
    return map.compute(
        id,
        (k, old) -> {
          String next = update.apply(k, old);
          if (next != null) {
            checkSize(next);
          }
          return next;
        });
  }

  /**
   * @return the collection this store holds
   */
  public Collection collection() {
    return collection;
  }

  private void checkSize(String document) {
    collection
        .sizeProblem(document)
        .ifPresent(
            problem -> {
              throw new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, problem);
            });
  }

  /**
   * @param id a document id
   * @return whether it existed
   */
  public boolean remove(String id) {
    return map.remove(id) != null;
  }

  /**
   * @return a copy of every document id
   */
  public List<String> keys() {
    return new ArrayList<>(map.keySet());
  }

  /**
   * @return a copy of every document by id, as stored (secret fields encrypted)
   */
  public Map<String, String> entries() {
    return new HashMap<>(map);
  }

  /**
   * @return a copy of every document
   */
  public List<String> values() {
    return new ArrayList<>(map.values());
  }

  @Override
  public void close() {
    OPEN.remove(key, this);
    map.close();
    try {
      Files.deleteIfExists(openMarker);
    } catch (IOException e) {
      // The next start will then recover the file, which is safe, only slower and noisier.
    }
  }
}
