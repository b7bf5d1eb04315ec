package dev.chartwell.server.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parsed documents of one {@link JsonStore}, so that a document read on every request (a
 * chart's source, the service its token belongs to) is not read from Chronicle Map and parsed each
 * time.
 *
 * <p>Coherence comes from a generation: every write to the store counts one, after it is made. A
 * reader takes the generation before it reads the file and files what it parsed under it; an entry
 * serves only readers of the same generation. So an entry parsed from a document that a write was
 * replacing meanwhile is never served after that write returned: it belongs to the generation
 * before it. Any write makes every entry stale, which suits documents that change rarely.
 *
 * <p>Entries are the store's own objects: callers get copies ({@link JsonStore#get}). At most
 * {@link #MAX_ENTRIES} are kept; filing one more starts over. Not used for collections with secret
 * fields (their decrypted values are not kept in the heap): there it only counts generations.
 */
final class ParsedDocuments {
  /** The most documents kept; enough for every source and service of a typical server. */
  static final int MAX_ENTRIES = 1024;

  private record Entry(long generation, ObjectNode document) {}

  private final AtomicLong generation = new AtomicLong();
  private final Map<String, Entry> byId = new ConcurrentHashMap<>();

  /**
   * @return the current generation: take it before reading the file
   */
  long generation() {
    return generation.get();
  }

  /**
   * @param id a document id
   * @param generation the reader's generation
   * @return the document parsed in that generation, or {@code null}
   */
  ObjectNode get(String id, long generation) {
    Entry e = byId.get(id);
    return e != null && e.generation == generation ? e.document : null;
  }

  /**
   * Files a document read and parsed in a generation.
   *
   * @param id its id
   * @param generation the generation taken before it was read
   * @param document the parsed document, never changed afterwards
   */
  void put(String id, long generation, ObjectNode document) {
    if (byId.size() >= MAX_ENTRIES) {
      byId.clear();
    }
    byId.put(id, new Entry(generation, document));
  }

  /** A write to the store has been made (or failed): every entry filed so far is stale. */
  void changed() {
    generation.incrementAndGet();
  }
}
