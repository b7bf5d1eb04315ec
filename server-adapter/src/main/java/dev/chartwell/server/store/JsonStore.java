package dev.chartwell.server.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * JSON objects by id in a {@link DocumentStore}: the form every management resource is kept in.
 * Listing returns the matching objects oldest first (by {@code createdAt}, then {@code id}).
 *
 * <p>The collection's {@linkplain Collection#secretFields() secret fields} are encrypted in the
 * file ({@link Secrets#encrypt}, bound to the collection, the object's {@code id} and the field)
 * and plain in the objects this class hands out. Opening a store encrypts any secret an earlier
 * version left in plain text.
 */
public final class JsonStore implements AutoCloseable {
  /**
   * Oldest first: by {@code createdAt} as an instant, then {@code id}. The instant, not its text:
   * ISO-8601 text leaves out a whole second's fraction ({@code ...:01Z}), which sorts after the
   * younger {@code ...:01.005Z}. An object without a readable {@code createdAt} comes first.
   */
  public static final Comparator<ObjectNode> OLDEST_FIRST =
      Comparator.comparing(JsonStore::createdAt).thenComparing(n -> n.path("id").asText());

  private final DocumentStore docs;
  private final ObjectMapper mapper;
  private final Secrets secrets;

  /** The writes' generation, and the documents parsed so far unless the collection has secrets. */
  private final ParsedDocuments parsed = new ParsedDocuments();

  private final boolean keepsParsed;

  private JsonStore(DocumentStore docs, ObjectMapper mapper, Secrets secrets) {
    this.docs = docs;
    this.mapper = mapper;
    this.secrets = secrets;
    this.keepsParsed = docs.collection().secretFields().isEmpty();
  }

  /**
   * Opens a collection that holds no secrets.
   *
   * @param dataDir the data directory
   * @param collection which collection
   * @param mapper the JSON codec
   * @return the store
   * @throws IOException when the file cannot be opened
   * @throws IllegalArgumentException when the collection has secret fields (open it with the
   *     server's {@link Secrets})
   */
  public static JsonStore open(Path dataDir, Collection collection, ObjectMapper mapper)
      throws IOException {
    if (!collection.secretFields().isEmpty()) {
      throw new IllegalArgumentException(collection + " holds secrets: open it with a key");
    }
    return new JsonStore(DocumentStore.open(dataDir, collection), mapper, null);
  }

  /**
   * Opens a collection, encrypting its secret fields with the server's key (and any an earlier
   * version stored in plain text, now).
   *
   * @param dataDir the data directory
   * @param collection which collection
   * @param mapper the JSON codec
   * @param secrets the server's key
   * @return the store
   * @throws IOException when the file cannot be opened
   */
  public static JsonStore open(
      Path dataDir, Collection collection, ObjectMapper mapper, Secrets secrets)
      throws IOException {
    JsonStore store = new JsonStore(DocumentStore.open(dataDir, collection), mapper, secrets);
    try {
      store.encryptPlainSecrets();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  private void encryptPlainSecrets() {
    if (docs.collection().secretFields().isEmpty()) {
      return;
    }
    for (String id : docs.keys()) {
      docs.compute(
          id,
          (k, doc) -> {
            if (doc == null) {
              return null;
            }
            ObjectNode stored = parse(doc);
            for (String f : docs.collection().secretFields()) {
              JsonNode v = stored.get(f);
              if (v != null && !v.isNull() && !(v.isTextual() && Secrets.isEncrypted(v.asText()))) {
                return write(read(doc)); // decrypts what is encrypted, then encrypts all
              }
            }
            return doc;
          });
    }
  }

  /**
   * The object stored under an id, as of this call: a write that returned before it is seen. The
   * object is the caller's to change. A collection without secret fields keeps the objects it
   * parsed ({@link ParsedDocuments}) and hands out copies: the read of a source or service on every
   * request costs no file read and no parsing.
   *
   * @param id an id
   * @return the object, if stored
   */
  public Optional<ObjectNode> get(String id) {
    if (!keepsParsed) {
      return docs.get(id).map(this::read);
    }
    long generation = parsed.generation();
    ObjectNode known = parsed.get(id, generation);
    if (known == null) {
      Optional<String> doc = docs.get(id);
      if (doc.isEmpty()) {
        return Optional.empty();
      }
      known = read(doc.get());
      parsed.put(id, generation, known, doc.get().length());
    }
    return Optional.of(known.deepCopy());
  }

  /**
   * A number that changes with every write: what a caller derived from objects read under one
   * generation still holds while it is current.
   *
   * @return the current generation
   */
  public long generation() {
    return parsed.generation();
  }

  /**
   * @param id an id
   * @param object the object to store under it
   */
  public void put(String id, JsonNode object) {
    try {
      docs.put(id, write(object));
    } finally {
      parsed.changed();
    }
  }

  /**
   * @param id an id
   * @return whether it was stored
   */
  public boolean remove(String id) {
    try {
      return docs.remove(id);
    } finally {
      parsed.changed();
    }
  }

  /**
   * Atomically changes one object (Chronicle Map's compute is atomic per key).
   *
   * @param id the id
   * @param change receives the current object (or {@code null}) and returns the new one (or {@code
   *     null} to remove it); it may throw to leave the object unchanged
   */
  public void compute(String id, UnaryOperator<ObjectNode> change) {
    try {
      docs.compute(
          id,
          (k, doc) -> {
            ObjectNode next = change.apply(doc == null ? null : read(doc));
            return next == null ? null : write(next);
          });
    } finally {
      parsed.changed();
    }
  }

  /**
   * @param filter which objects
   * @return the matching objects, oldest first
   */
  public List<ObjectNode> list(Predicate<ObjectNode> filter) {
    List<ObjectNode> out = new ArrayList<>();
    for (String doc : docs.values()) {
      ObjectNode n = read(doc);
      if (filter.test(n)) {
        out.add(n);
      }
    }
    out.sort(OLDEST_FIRST);
    return out;
  }

  private static Instant createdAt(ObjectNode n) {
    try {
      return Instant.parse(n.path("createdAt").asText());
    } catch (DateTimeParseException e) {
      return Instant.MIN;
    }
  }

  private ObjectNode read(String doc) {
    ObjectNode n = parse(doc);
    for (String f : docs.collection().secretFields()) {
      JsonNode v = n.get(f);
      if (v != null && v.isTextual() && Secrets.isEncrypted(v.asText())) {
        try {
          n.set(f, mapper.readTree(secrets.decrypt(v.asText(), context(n, f))));
        } catch (JsonProcessingException e) {
          throw new UncheckedIOException("corrupt stored secret", e);
        }
      }
    }
    return n;
  }

  private ObjectNode parse(String doc) {
    try {
      return (ObjectNode) mapper.readTree(doc);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("corrupt stored document", e);
    }
  }

  private String write(JsonNode node) {
    JsonNode stored = node;
    for (String f : docs.collection().secretFields()) {
      JsonNode v = node.get(f);
      if (v != null && !v.isNull()) {
        if (stored == node) {
          stored = node.deepCopy(); // the caller's object stays plain
        }
        ((ObjectNode) stored).put(f, secrets.encrypt(text(v), context(node, f)));
      }
    }
    return text(stored);
  }

  private String text(JsonNode node) {
    try {
      return mapper.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String context(JsonNode n, String field) {
    return docs.collection().mapName() + "/" + n.path("id").asText() + "/" + field;
  }

  @Override
  public void close() {
    docs.close();
  }
}
