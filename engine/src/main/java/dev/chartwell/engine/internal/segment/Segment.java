package dev.chartwell.engine.internal.segment;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * An immutable, time-sorted block of events in columnar form. Rows are numbered in timestamp order,
 * so a time range is a row range found by binary search, never a scan. A segment is either sealed
 * (part of a source's history) or a frozen view of the source's head taken for one query.
 *
 * <p>A segment lives on the heap (built from a head) or in a memory-mapped {@link SegmentFile}. A
 * mapped segment is shared by its source and the queries reading it: each holds a reference ({@link
 * #acquire}, {@link #release}) and the mapping goes when the last is released; before a query reads
 * it, {@link #verify} checks the file's checksum (once). Its id, row count and time range are on
 * the heap and can be read without a reference.
 */
public final class Segment {
  private final long id;
  private final int rows;
  private final Timestamps timestamps;
  private final Map<String, Column> columns;
  private final String implicitColumn;
  private volatile TokenIndex tokenIndex;
  private Supplier<TokenIndex> lazyTokens; // guarded by this; dropped once built
  private final AtomicInteger unindexedReads = new AtomicInteger();
  private final long bytes;
  private final long minTimestamp;
  private final long maxTimestamp;
  private final MappedFile file;
  private final long orderBase;
  private final Map<String, Object> derived = new ConcurrentHashMap<>();
  private final LazyColumns lazyColumns; // null: every column built

  /**
   * A heap segment of a head's part, whose token index is built when it is first asked for, and
   * whose columns are either given or ({@code lazyColumns}) built when a query first reads them.
   */
  Segment(
      long id,
      long firstRow,
      int rows,
      Timestamps timestamps,
      Map<String, Column> columns,
      LazyColumns lazyColumns,
      String implicitColumn,
      Supplier<TokenIndex> tokens) {
    this(
        id,
        rows,
        timestamps,
        columns,
        implicitColumn,
        null,
        rows == 0 ? 0 : timestamps.get(0),
        rows == 0 ? 0 : timestamps.get(rows - 1),
        null,
        (id << 32) + firstRow,
        lazyColumns);
    this.lazyTokens = tokens;
  }

  Segment(
      long id,
      int rows,
      Timestamps timestamps,
      Map<String, Column> columns,
      String implicitColumn,
      TokenIndex tokenIndex,
      long minTimestamp,
      long maxTimestamp,
      MappedFile file) {
    this(
        id,
        rows,
        timestamps,
        columns,
        implicitColumn,
        tokenIndex,
        minTimestamp,
        maxTimestamp,
        file,
        id << 32,
        null);
  }

  Segment(
      long id,
      int rows,
      Timestamps timestamps,
      Map<String, Column> columns,
      String implicitColumn,
      TokenIndex tokenIndex,
      long minTimestamp,
      long maxTimestamp,
      MappedFile file,
      long orderBase,
      LazyColumns lazyColumns) {
    this.id = id;
    this.lazyColumns = lazyColumns;
    this.orderBase = orderBase;
    this.rows = rows;
    this.timestamps = timestamps;
    this.columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
    this.implicitColumn = implicitColumn;
    this.tokenIndex = tokenIndex;
    this.minTimestamp = minTimestamp;
    this.maxTimestamp = maxTimestamp;
    this.file = file;
    long total = 64 + timestampBytes(); // the token index is added when asked (built on first use)
    for (Column c : this.columns.values()) {
      total += c.bytes();
    }
    this.bytes = file != null ? file.length() : total;
  }

  /**
   * @return an id unique within its source, increasing in sealing order
   */
  public long id() {
    return id;
  }

  /**
   * Orders rows of equal timestamps across segments as they arrived: a segment sealed later, or a
   * later part of a head, gives greater keys, and within a segment rows of equal timestamps keep
   * their arrival order.
   *
   * @param row a row of this segment
   * @return the row's key
   */
  public long orderKey(int row) {
    return orderBase + row;
  }

  /**
   * @return number of rows
   */
  public int rows() {
    return rows;
  }

  /**
   * @param row a row
   * @return its timestamp, epoch milliseconds
   */
  public long timestamp(int row) {
    return timestamps.get(row);
  }

  /**
   * Decodes the timestamps of a run of rows, faster than one {@link #timestamp} call a row.
   *
   * @param from first row
   * @param to one past the last row
   * @param out receives the timestamps from index 0
   */
  public void timestamps(int from, int to, long[] out) {
    timestamps.get(from, to, out);
  }

  /**
   * @return the earliest timestamp (undefined when empty); needs no reference
   */
  public long minTimestamp() {
    return minTimestamp;
  }

  /**
   * @return the latest timestamp (undefined when empty); needs no reference
   */
  public long maxTimestamp() {
    return maxTimestamp;
  }

  /** One timestamp in every {@link #SAMPLE_EVERY} rows, read once: a small index on the heap. */
  private volatile long[] sampled;

  private static final int SAMPLE_SHIFT = 8;
  private static final int SAMPLE_EVERY = 1 << SAMPLE_SHIFT;

  /**
   * @param ts a timestamp
   * @return the first row whose timestamp is at least {@code ts} ({@link #rows()} when none)
   */
  public int firstRowAtOrAfter(long ts) {
    // Narrow the range with the sampled timestamps (heap) before reading packed ones.
    long[] samples = sampled();
    // k: the first sample at or after ts (samples[k] is row k << SAMPLE_SHIFT's timestamp), by a
    // search whose branches every call takes: a branch taken only when ts equals a sample was
    // compiled as a trap during a start-up warm-up and deoptimized the first real query
    int k = 0;
    int end = samples.length;
    while (k < end) {
      int mid = (k + end) >>> 1;
      if (samples[mid] < ts) {
        k = mid + 1;
      } else {
        end = mid;
      }
    }
    int lo = k == 0 ? 0 : ((k - 1) << SAMPLE_SHIFT) + 1;
    int hi = Math.min(rows, k << SAMPLE_SHIFT); // samples[k] >= ts: the answer is no later
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (timestamps.get(mid) < ts) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private long[] sampled() {
    long[] s = sampled;
    if (s == null) {
      s = new long[(rows + SAMPLE_EVERY - 1) >> SAMPLE_SHIFT];
      for (int i = 0; i < s.length; i++) {
        s[i] = timestamps.get(i << SAMPLE_SHIFT);
      }
      sampled = s;
    }
    return s;
  }

  /**
   * @param name a column name
   * @return the column, or {@code null} when no event of this segment has the field
   */
  public Column column(String name) {
    return lazyColumns != null ? lazyColumns.get(name) : columns.get(name);
  }

  /**
   * @return every column by name
   */
  public Map<String, Column> columns() {
    return lazyColumns != null ? lazyColumns.all() : columns;
  }

  /**
   * @return the name of the implicit (full-text) column, or {@code null}
   */
  public String implicitColumn() {
    return implicitColumn;
  }

  /**
   * @return the token index of the implicit column, or {@code null} when it has no values here
   */
  public TokenIndex tokenIndex() {
    TokenIndex t = tokenIndex;
    if (t == null) {
      synchronized (this) {
        if (lazyTokens != null) {
          tokenIndex = lazyTokens.get();
          lazyTokens = null;
        }
        t = tokenIndex;
      }
    }
    return t;
  }

  /**
   * @return whether the token index is built (or there is none to build): {@link #tokenIndex()}
   *     answers at once
   */
  public boolean hasTokenIndex() {
    if (tokenIndex != null) {
      return true;
    }
    synchronized (this) {
      return tokenIndex != null || lazyTokens == null;
    }
  }

  /**
   * Whether a query should read this segment's text for a bare term, phrase or pattern rather than
   * build its token index now: while the index is not built, for a segment of at most {@code
   * maxRows} rows (a head's newest part: a few rows are read faster than indexed), for its first
   * {@code reads} such queries. A part that stays (ingestion paused or stopped) is then indexed by
   * the next query, instead of being read again by every one; under ingestion a newer tail takes
   * its place before that. Each call that answers {@code true} counts as one of those reads.
   *
   * @param maxRows the most rows a segment may have to be read instead
   * @param reads how many queries read it before one builds the index
   * @return whether to read the values instead of the token index
   */
  public boolean readUnindexed(int maxRows, int reads) {
    if (rows > maxRows || hasTokenIndex()) {
      return false;
    }
    return unindexedReads.getAndIncrement() < reads;
  }

  /**
   * @return bytes of the timestamps
   */
  public long timestampBytes() {
    return timestamps.bytes();
  }

  /**
   * @return bytes of the token index
   */
  public long tokenIndexBytes() {
    TokenIndex t = tokenIndex; // not built for it when it is built on first use
    return t == null ? 0 : t.bytes();
  }

  /**
   * @return bytes of the whole segment: its file's length when mapped, else an estimate of its heap
   */
  public long bytes() {
    if (lazyColumns != null) { // a query's part: its columns are built to be counted
      long total = bytes + tokenIndexBytes();
      for (Column c : lazyColumns.all().values()) {
        total += c.bytes();
      }
      return total;
    }
    return file != null ? bytes : bytes + tokenIndexBytes();
  }

  /**
   * @return the heap the segment's data takes: 0 when mapped from a file
   */
  public long heapBytes() {
    return file == null ? bytes() : 0;
  }

  /**
   * @return the segment file this segment is mapped from, or {@code null} when it is on the heap
   */
  public Path file() {
    return file == null ? null : file.path();
  }

  /**
   * A value derived from this segment's data (such as the per-block summaries that aggregation
   * reads instead of rows), computed by the first caller that asks for it under its key and kept,
   * on the heap, as long as the segment. A mapped segment's caller holds a reference.
   *
   * @param key what is derived, and from which column
   * @param compute computes it from the segment; never returns {@code null}
   * @param <T> its type (one key, one type)
   * @return the value
   */
  @SuppressWarnings("unchecked")
  public <T> T derived(String key, Function<Segment, T> compute) {
    return (T) derived.computeIfAbsent(key, k -> compute.apply(this));
  }

  /** The timestamps, for writing the segment to a file. */
  Timestamps timestamps() {
    return timestamps;
  }

  /**
   * Takes a reference on a mapped segment, so that its mapping stays until {@link #release}.
   *
   * @return whether the segment can be read (always for a heap segment; false once a mapped segment
   *     was retired and released by every reader)
   */
  public boolean acquire() {
    return file == null || file.acquire();
  }

  /** Gives back a reference taken by {@link #acquire} (or the owner's, from opening). */
  public void release() {
    if (file != null) {
      file.release();
    }
  }

  /**
   * The owner lets go of a mapped segment: once no reader holds it, the mapping is released and
   * then {@code afterRelease} runs (typically: delete the file). Does nothing for a heap segment.
   *
   * @param afterRelease what to do with the file once it is unmapped, or {@code null} to keep it
   */
  public void retire(Runnable afterRelease) {
    if (file != null) {
      file.retire(afterRelease);
    }
  }

  /**
   * Checks a mapped segment's content checksum before its first use (once; later calls answer from
   * memory). The caller holds a reference.
   *
   * @return {@code null} when the segment can be used, else what is wrong with its file
   */
  public String verify() {
    return file == null ? null : file.verify();
  }

  /**
   * @return whether the content was verified (always true on the heap)
   */
  public boolean isVerified() {
    return file == null || file.isVerified();
  }

  static long bitmapBytes(ImmutableRoaringBitmap b) {
    return b == null ? 0 : 32 + b.serializedSizeInBytes();
  }
}
