package dev.chartwell.engine.source;

import dev.chartwell.engine.segment.Segment;
import dev.chartwell.engine.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A named stream of events with a dynamic schema: sealed segments plus a mutable head.
 *
 * <p>Appends are serialized per source. An event is validated completely before anything of it is
 * written, so a rejected event leaves no trace (not even a new column). When the head reaches the
 * segment size it is sealed into a time-sorted {@link Segment}.
 *
 * <p>{@link #snapshot()} gives a query a consistent view: every event acknowledged before the call
 * and none half-written. The head's rows are copied under the lock (array copies only) and sealed
 * outside it; that frozen head is cached until the next append, so repeated queries do not redo it.
 */
public final class Source {
  private final String id;
  private final SourceSpec spec;
  private final int segmentRows;
  private final Consumer<Source> onSealed;
  private final Runnable admission;
  private final long maxHeadBytes;

  private final Object lock = new Object();
  private volatile Schema schema = Schema.empty();
  private volatile List<Segment> sealed = List.of();
  private SegmentBuilder head;
  private long nextSegmentId;
  private long version;
  private volatile FrozenHead frozenHead;
  private long evictedSegments;
  private long evictedRows;
  private volatile long headBytes;
  private volatile long sealedBytes;

  private record FrozenHead(long version, Segment segment) {}

  /**
   * @param id the source id
   * @param spec the definition
   * @param segmentRows rows per sealed segment
   * @param onSealed told after each seal (the engine enforces its memory limit there)
   * @param admission asked before each append; throws {@link WritesRefusedException} to refuse it
   * @param maxHeadBytes the head is sealed when it holds this many bytes, even before {@code
   *     segmentRows} rows
   */
  Source(
      String id,
      SourceSpec spec,
      int segmentRows,
      Consumer<Source> onSealed,
      Runnable admission,
      long maxHeadBytes) {
    this.id = Objects.requireNonNull(id);
    this.spec = spec;
    this.segmentRows = segmentRows;
    this.onSealed = onSealed;
    this.admission = admission;
    this.maxHeadBytes = maxHeadBytes;
    this.head = new SegmentBuilder(Math.min(segmentRows, 1024));
    if (spec.implicitColumn() != null) {
      define(spec.implicitColumn(), ColumnType.STRING);
    }
    for (ColumnSpec c : spec.columns()) {
      if (!c.name().equals(spec.implicitColumn())) {
        define(c.name(), c.type());
      }
    }
  }

  /**
   * Creates a source; the engine is the usual caller.
   *
   * @param id the source id
   * @param spec the definition
   * @param segmentRows rows per sealed segment
   * @param onSealed told after each seal
   * @param admission asked before each append; throws {@link WritesRefusedException} to refuse it
   * @param maxHeadBytes the head is sealed when it holds this many bytes ({@link Long#MAX_VALUE}:
   *     only by rows)
   * @return the source
   */
  public static Source create(
      String id,
      SourceSpec spec,
      int segmentRows,
      Consumer<Source> onSealed,
      Runnable admission,
      long maxHeadBytes) {
    return new Source(id, spec, segmentRows, onSealed, admission, maxHeadBytes);
  }

  /**
   * @return the source id
   */
  public String id() {
    return id;
  }

  /**
   * @return the definition
   */
  public SourceSpec spec() {
    return spec;
  }

  /**
   * @return the current schema
   */
  public Schema schema() {
    return schema;
  }

  /**
   * Appends one event.
   *
   * @param event the event
   * @throws RejectedEventException when the event cannot be stored; nothing of it is kept
   * @throws WritesRefusedException when the engine refuses writes for now (memory)
   */
  public void append(Event event) {
    admission.run();
    boolean sealedNow;
    synchronized (lock) {
      sealedNow = appendLocked(event);
      headBytes = head.bytes();
    }
    if (sealedNow) {
      onSealed.accept(this);
    }
  }

  /**
   * Appends events, keeping the valid ones.
   *
   * @param events the events
   * @return how many were stored and why the others were not
   * @throws WritesRefusedException when the engine refuses writes for now (memory); nothing of the
   *     batch is kept
   */
  public AppendResult appendBatch(List<Event> events) {
    admission.run();
    List<AppendResult.Rejection> rejections = new ArrayList<>();
    boolean sealedAny = false;
    synchronized (lock) {
      for (int i = 0; i < events.size(); i++) {
        try {
          sealedAny |= appendLocked(events.get(i));
        } catch (RejectedEventException e) {
          rejections.add(new AppendResult.Rejection(i, e.getMessage()));
        }
      }
      headBytes = head.bytes();
    }
    if (sealedAny) {
      onSealed.accept(this);
    }
    return new AppendResult(events.size() - rejections.size(), rejections);
  }

  /** Seals the head now (if it has rows), for example before a benchmark or a shutdown. */
  public void seal() {
    boolean sealedNow;
    synchronized (lock) {
      sealedNow = sealLocked();
      headBytes = head.bytes();
    }
    if (sealedNow) {
      onSealed.accept(this);
    }
  }

  /**
   * A consistent view for one query.
   *
   * @return the sealed segments and the frozen head, oldest first
   */
  public Snapshot snapshot() {
    List<Segment> segments;
    SegmentBuilder copy = null;
    long v;
    long headId;
    FrozenHead cached;
    synchronized (lock) {
      segments = sealed;
      v = version;
      headId = nextSegmentId;
      cached = frozenHead;
      if ((cached == null || cached.version() != v) && head.rows() > 0) {
        copy = head.copy();
      }
    }
    Segment headSegment = null;
    if (cached != null && cached.version() == v) {
      headSegment = cached.segment();
    } else if (copy != null) {
      headSegment = copy.build(headId, spec.implicitColumn());
      FrozenHead fresh = new FrozenHead(v, headSegment);
      synchronized (lock) {
        if (version == v) {
          frozenHead = fresh;
        }
      }
    }
    List<Segment> all = new ArrayList<>(segments.size() + 1);
    all.addAll(segments);
    if (headSegment != null && headSegment.rows() > 0) {
      all.add(headSegment);
    }
    return new Snapshot(schema, List.copyOf(all));
  }

  /**
   * The segments and schema a query runs on.
   *
   * @param schema the schema at snapshot time
   * @param segments sealed segments and the frozen head
   */
  public record Snapshot(Schema schema, List<Segment> segments) {
    /**
     * @return total rows
     */
    public long rows() {
      long n = 0;
      for (Segment s : segments) {
        n += s.rows();
      }
      return n;
    }
  }

  /**
   * @return sealed segments, oldest first (the head is not included)
   */
  public List<Segment> sealedSegments() {
    return sealed;
  }

  /**
   * Drops a sealed segment to free memory.
   *
   * @param segment a sealed segment of this source
   * @return whether it was still there
   */
  public boolean evict(Segment segment) {
    synchronized (lock) {
      List<Segment> next = new ArrayList<>(sealed);
      if (!next.remove(segment)) {
        return false;
      }
      setSealed(next);
      evictedSegments++;
      evictedRows += segment.rows();
      return true;
    }
  }

  /**
   * @return the bytes the unsealed head holds (as of the last append or seal), without locking
   */
  public long headBytes() {
    return headBytes;
  }

  /**
   * @return the bytes of the sealed segments still held
   */
  public long sealedBytes() {
    return sealedBytes;
  }

  private void setSealed(List<Segment> segments) {
    long total = 0;
    for (Segment s : segments) {
      total += s.bytes();
    }
    sealed = List.copyOf(segments);
    sealedBytes = total;
  }

  /**
   * @return rows, segments and bytes (per column) of this source
   */
  public SourceStats stats() {
    List<Segment> segments;
    long headRows;
    long headBytes;
    long evSegments;
    long evRows;
    synchronized (lock) {
      segments = sealed;
      headRows = head.rows();
      headBytes = head.bytes();
      evSegments = evictedSegments;
      evRows = evictedRows;
    }
    Map<String, Long> columnBytes = new HashMap<>();
    long rows = headRows;
    long timestampBytes = 0;
    long tokenBytes = 0;
    long bytes = headBytes;
    for (Segment s : segments) {
      rows += s.rows();
      bytes += s.bytes();
      timestampBytes += s.timestampBytes();
      tokenBytes += s.tokenIndexBytes();
      s.columns().forEach((name, c) -> columnBytes.merge(name, c.bytes(), Long::sum));
    }
    List<SourceStats.ColumnBytes> columns = new ArrayList<>();
    for (Schema.Column c : schema.columns()) {
      columns.add(
          new SourceStats.ColumnBytes(c.name(), c.type(), columnBytes.getOrDefault(c.name(), 0L)));
    }
    return new SourceStats(
        id,
        spec.name(),
        rows,
        segments.size(),
        headRows,
        bytes,
        headBytes,
        timestampBytes,
        tokenBytes,
        columns,
        evSegments,
        evRows);
  }

  private boolean appendLocked(Event event) {
    Object[] row = validate(event);
    head.append(event.timestamp(), row);
    version++;
    return (head.rows() >= segmentRows || headTooBig()) && sealLocked();
  }

  /** Whether the head holds more than its byte budget; measured every 256 rows. */
  private boolean headTooBig() {
    return maxHeadBytes != Long.MAX_VALUE
        && (head.rows() & 255) == 0
        && head.bytes() >= maxHeadBytes;
  }

  private boolean sealLocked() {
    if (head.rows() == 0) {
      return false;
    }
    Segment segment = head.build(nextSegmentId++, spec.implicitColumn());
    List<Segment> next = new ArrayList<>(sealed);
    next.add(segment);
    setSealed(next);
    head = new SegmentBuilder(Math.min(segmentRows, 1024));
    for (Schema.Column c : schema.columns()) {
      head.addColumn(c.name(), c.type());
    }
    version++;
    frozenHead = null;
    return true;
  }

  /** Checks and converts every field; defines new columns only when the whole event is valid. */
  private Object[] validate(Event event) {
    if (event.timestamp() < 0) {
      throw new RejectedEventException(
          "timestamp " + event.timestamp() + " is before 1970; epoch milliseconds expected");
    }
    Schema current = schema;
    Map<String, ColumnType> newColumns = null;
    Object[] byName = new Object[event.fields().size()];
    String[] names = new String[byName.length];
    int n = 0;
    for (Map.Entry<String, Object> f : event.fields().entrySet()) {
      String name = f.getKey();
      Object value = f.getValue();
      if (value == null) {
        continue;
      }
      String problem = Schema.nameProblem(name);
      if (problem != null) {
        throw new RejectedEventException(problem);
      }
      if (name.equals(spec.timestampColumn())) {
        throw new RejectedEventException(
            "field '" + name + "' is the timestamp column; it is the event's timestamp");
      }
      ColumnType type = current.column(name).map(Schema.Column::type).orElse(null);
      if (type == null) {
        type = ValueCoercion.inferType(name, value);
        if (newColumns == null) {
          newColumns = new HashMap<>();
        }
        newColumns.put(name, type);
      }
      names[n] = name;
      byName[n++] = ValueCoercion.coerce(name, value, type);
    }
    if (newColumns != null) {
      if (current.size() + newColumns.size() > Schema.MAX_COLUMNS) {
        throw new RejectedEventException(
            "the source would have more than " + Schema.MAX_COLUMNS + " columns");
      }
      for (int i = 0; i < n; i++) {
        ColumnType t = newColumns.get(names[i]);
        if (t != null && schema.column(names[i]).isEmpty()) {
          define(names[i], t);
        }
      }
    }
    Schema now = schema;
    Object[] row = new Object[now.size()];
    for (int i = 0; i < n; i++) {
      row[now.column(names[i]).orElseThrow().ordinal()] = byName[i];
    }
    return row;
  }

  private void define(String name, ColumnType type) {
    schema = schema.with(name, type);
    head.addColumn(name, type);
  }
}
