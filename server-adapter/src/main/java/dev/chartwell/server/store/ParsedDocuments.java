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
 * {@link #MAX_ENTRIES} documents of at most {@link #MAX_CHARS} characters of JSON in all are kept,
 * none larger than {@link #MAX_DOCUMENT_CHARS} (a dashboard may be megabytes: it is parsed when
 * read, as before); filing one past a bound starts over. Not used for collections with secret
 * fields (their decrypted values are not kept in the heap): there it only counts generations.
 */
final class ParsedDocuments {
  /** The most documents kept; enough for every source and service of a typical server. */
  static final int MAX_ENTRIES = 1024;

  /** The most characters of JSON kept in all (the parsed trees take a few times as much heap). */
  static final long MAX_CHARS = 4L << 20;

  /** Larger documents are not kept. */
  static final int MAX_DOCUMENT_CHARS = 64 << 10;

  private record Entry(long generation, ObjectNode document) {}

  private final AtomicLong generation = new AtomicLong();
  private final Map<String, Entry> byId = new ConcurrentHashMap<>();
  private final AtomicLong chars = new AtomicLong(); // of the documents filed since the last start

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
   * Files a document read and parsed in a generation, unless it is too large to keep.
   *
   * @param id its id
   * @param generation the generation taken before it was read
   * @param document the parsed document, never changed afterwards
   * @param length the length of its JSON text
   */
  void put(String id, long generation, ObjectNode document, int length) {
    if (length > MAX_DOCUMENT_CHARS) {
      return;
    }
    if (byId.size() >= MAX_ENTRIES || chars.addAndGet(length) > MAX_CHARS) {
      byId.clear();
      chars.set(length);
    }
    byId.put(id, new Entry(generation, document));
  }

  /** A write to the store has been made (or failed): every entry filed so far is stale. */
  void changed() {
    generation.incrementAndGet();
  }
}
