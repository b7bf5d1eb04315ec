package dev.chartwell.server.prometheus;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.otlp.OtelTable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The decoded series of segments ({@link SegmentSeries}), one entry per segment and metric name,
 * kept between queries within a bound on their bytes and evicted least recently used first. Shared
 * by every service of a server.
 *
 * <p>An entry can never be stale: a segment is immutable, and an entry belongs to the segment
 * object it was decoded from (its key is a token the segment keeps, {@link Segment#derived}).
 * Samples written later land in other segments (the head's), which a query reads as well; a merge
 * makes a new segment, whose series are decoded anew, while the entries of the merged ones are
 * never asked for again and age out. Segments of fewer than {@link #MIN_ROWS} rows (the small parts
 * of a growing head, replaced as it grows) are not kept: reading them directly costs little.
 */
final class SeriesCache {
  /** The fewest rows of a segment whose series are kept. */
  static final int MIN_ROWS = 4096;

  private static final String TOKEN = "promql series cache token";

  private final long capacity;
  private final int minRows;
  private final Map<Key, SegmentSeries> entries = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;
  private long hits;
  private long misses;

  /** An entry's key: the segment's token (compared by identity) and the metric name. */
  private record Key(Object token, String name) {}

  /**
   * @param capacity the most bytes kept
   * @param minRows the fewest rows of a segment whose series are kept ({@link #MIN_ROWS}; tests
   *     make it small)
   */
  SeriesCache(long capacity, int minRows) {
    this.capacity = capacity;
    this.minRows = minRows;
  }

  /**
   * A cache of an eighth of the heap.
   *
   * @return the cache
   */
  static SeriesCache ofHeap() {
    return new SeriesCache(Runtime.getRuntime().maxMemory() / 8, MIN_ROWS);
  }

  /**
   * @param segment a segment
   * @return whether its series are kept
   */
  boolean keeps(Segment segment) {
    return segment.rows() >= minRows;
  }

  /**
   * The series of one name in a segment, from the cache or decoded now (and kept when they fit).
   *
   * @param table the segment's table
   * @param segment the segment (the caller holds a reference)
   * @param name a Prometheus metric name
   * @param direct the most series keys made by arithmetic alone ({@link SeriesKeys#DIRECT})
   * @return the series
   */
  SegmentSeries series(OtelTable table, Segment segment, String name, long direct) {
    Key key = new Key(segment.derived(TOKEN, s -> new Object()), name);
    synchronized (this) {
      SegmentSeries known = entries.get(key);
      if (known != null) {
        hits++;
        return known;
      }
      misses++;
    }
    SegmentSeries decoded = SegmentSeries.decode(table, segment, name, direct);
    long size = decoded.bytes();
    if (size > capacity / 4) {
      return decoded; // would push out too much for one entry
    }
    synchronized (this) {
      SegmentSeries raced = entries.putIfAbsent(key, decoded);
      if (raced != null) {
        return raced;
      }
      bytes += size;
      Iterator<SegmentSeries> eldest = entries.values().iterator();
      while (bytes > capacity) {
        bytes -= eldest.next().bytes();
        eldest.remove();
      }
    }
    return decoded;
  }

  /**
   * @return the bytes kept now
   */
  synchronized long bytes() {
    return bytes;
  }

  /**
   * @return how many entries are kept now
   */
  synchronized int entries() {
    return entries.size();
  }

  /**
   * @return how many look-ups found their entry
   */
  synchronized long hits() {
    return hits;
  }

  /**
   * @return how many look-ups decoded their series
   */
  synchronized long misses() {
    return misses;
  }
}
