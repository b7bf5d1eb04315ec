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

  private JsonStore(DocumentStore docs, ObjectMapper mapper) {
    this.docs = docs;
    this.mapper = mapper;
  }

  /**
   * @param dataDir the data directory
   * @param collection which collection
   * @param mapper the JSON codec
   * @return the store
   * @throws IOException when the file cannot be opened
   */
  public static JsonStore open(Path dataDir, Collection collection, ObjectMapper mapper)
      throws IOException {
    return new JsonStore(DocumentStore.open(dataDir, collection), mapper);
  }

  /**
   * @param id an id
   * @return the object, if stored
   */
  public Optional<ObjectNode> get(String id) {
    return docs.get(id).map(this::read);
  }

  /**
   * @param id an id
   * @param object the object to store under it
   */
  public void put(String id, JsonNode object) {
    docs.put(id, write(object));
  }

  /**
   * @param id an id
   * @return whether it was stored
   */
  public boolean remove(String id) {
    return docs.remove(id);
  }

  /**
   * Atomically changes one object (Chronicle Map's compute is atomic per key).
   *
   * @param id the id
   * @param change receives the current object (or {@code null}) and returns the new one (or {@code
   *     null} to remove it); it may throw to leave the object unchanged
   */
  public void compute(String id, UnaryOperator<ObjectNode> change) {
    docs.compute(
        id,
        (k, doc) -> {
          ObjectNode next = change.apply(doc == null ? null : read(doc));
          return next == null ? null : write(next);
        });
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
    try {
      return (ObjectNode) mapper.readTree(doc);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("corrupt stored document", e);
    }
  }

  private String write(JsonNode node) {
    try {
      return mapper.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    docs.close();
  }
}
