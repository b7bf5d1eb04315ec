package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.RejectedEventException;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.SourceStats;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WritesRefusedException;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The mechanics of a source behind the public {@link dev.chartwell.engine.Source}: a named stream
 * of events with a dynamic schema, held as sealed segments, heads being sealed, and a mutable head.
 *
 * <p>Appends are serialized per source. An event is validated completely before anything of it is
 * written, so a rejected event leaves no trace (not even a new column): checked, converted and
 * encoded before the lock against the columns as they are, and checked again under it only when it
 * brings a new column. Accepted events are logged by the source's {@link SourceStorage} under the
 * lock and join the head; the append returns once the log is durable (waiting outside the lock, so
 * that concurrent appends share an fsync).
 *
 * <p>When the head reaches the segment size it is handed to the sealing thread, which builds the
 * time-sorted {@link Segment}, and its {@link SealedSegments} have the storage write and publish
 * it, and then list it; meanwhile queries see the handed-over rows through that same build. The
 * sealed segments' other maintenance (retention drops, evictions, merges) is theirs too. While more
 * than {@link SealQueue#MAX_PENDING} heads wait to be sealed, appends wait before they take any
 * event, so that memory stays bounded when sealing falls behind ingestion (back-pressure, not
 * collapse).
 *
 * <p>{@link #snapshot()} gives a query a consistent view: every event acknowledged before the call
 * and none half-written, with a reference on each mapped segment until the snapshot is closed. How
 * queries see the head, as parts built ahead and shared, is {@link HeadReads}'s.
 */
public final class SourceCore {
  private final String id;
  private final SourceSpec spec;
  private final int segmentRows;
  private final Runnable admission;
  private final long maxHeadBytes;
  private final SourceStorage storage;
  private final SealQueue seals;
  private final SealedSegments segments;

  private final Object lock = new Object();
  private final SourceColumns columns = new SourceColumns();
  private SegmentBuilder head; // guarded by lock
  private long headLastPosition; // guarded by lock
  private long nextSegmentId; // guarded by lock
  private long version; // guarded by lock
  private boolean closed; // guarded by lock
  private boolean dropped; // guarded by lock
  private volatile long headBytes;
  private final IngestMeter ingested = new IngestMeter();
  private final HeadReads reads;

  /**
   * How a source is set up: its definition, limits, storage and the engine's hooks.
   *
   * @param id the source id
   * @param spec the definition
   * @param segmentRows rows per sealed segment
   * @param maxHeadBytes the head is sealed when it holds this many bytes, even before {@code
   *     segmentRows} rows ({@link Long#MAX_VALUE}: only by rows)
   * @param onSealed told after each seal (the engine enforces its memory and disk limits there)
   * @param admission asked before each append; throws {@link WritesRefusedException} to refuse it
   * @param storage where accepted events and sealed segments are kept
   * @param sealers the pool sealing runs on (the source seals one head at a time)
   */
  public record Setup(
      String id,
      SourceSpec spec,
      int segmentRows,
      long maxHeadBytes,
      Consumer<SourceCore> onSealed,
      Runnable admission,
      SourceStorage storage,
      java.util.concurrent.Executor sealers) {}

  /**
   * What a source held when it was last published: its columns, sealed segments and next segment
   * id, and the log position its segments reach (events after it are replayed).
   *
   * @param columns the columns in the order they appeared
   * @param segments the sealed segments, oldest first, each with the source's reference
   * @param nextSegmentId the id the next sealed segment gets
   * @param logPosition events logged up to here are in the segments
   */
  public record Restored(
      List<ColumnSpec> columns, List<Segment> segments, long nextSegmentId, long logPosition) {}

  private SourceCore(Setup setup) {
    this.id = Objects.requireNonNull(setup.id());
    this.spec = setup.spec();
    this.segmentRows = setup.segmentRows();
    this.admission = setup.admission();
    this.maxHeadBytes = setup.maxHeadBytes();
    this.storage = setup.storage();
    this.seals = new SealQueue(lock, setup.sealers());
    this.segments = new SealedSegments(this, lock, setup);
    this.head = newHead();
    this.reads = new HeadReads(this, lock, head, setup.sealers());
    if (spec.implicitColumn() != null) {
      columns.defineLocked(spec.implicitColumn(), ColumnType.STRING, head);
    }
    for (ColumnSpec c : spec.columns()) {
      if (!c.name().equals(spec.implicitColumn())) {
        columns.defineLocked(c.name(), c.type(), head);
      }
    }
  }

  /**
   * Creates an empty source; the engine is the usual caller.
   *
   * @param setup how the source is set up
   * @return the source
   */
  public static SourceCore create(Setup setup) {
    return new SourceCore(setup);
  }

  /**
   * Creates a source from what its storage held; then {@link #replay} the logged events after
   * {@link Restored#logPosition}.
   *
   * @param setup how the source is set up
   * @param restored the published state
   * @return the source
   */
  public static SourceCore restore(Setup setup, Restored restored) {
    SourceCore s = new SourceCore(setup);
    synchronized (s.lock) {
      for (ColumnSpec c : restored.columns()) {
        if (s.columns.schema().column(c.name()).isEmpty()) {
          s.columns.defineLocked(c.name(), c.type(), s.head);
        }
      }
      s.nextSegmentId = restored.nextSegmentId();
      s.headLastPosition = restored.logPosition();
    }
    s.segments.restore(restored.segments(), restored.logPosition());
    return s;
  }

  /**
   * Adds logged events back into the head after a restart; they are not logged again. The events of
   * one log record stay in one head, so that a head's last position covers all of them.
   *
   * @param batch the events of one log record, as they were logged
   * @param position the record's log position
   * @throws RejectedEventException when one no longer fits the source (never for events this source
   *     logged)
   */
  public void replay(EventBatch batch, long position) {
    synchronized (lock) {
      BatchCheck.Result checked =
          BatchCheck.check(batch, columns.schema(), spec.timestampColumn(), false);
      if (!checked.rejections().isEmpty()) {
        throw new RejectedEventException(checked.rejections().get(0).reason());
      }
      appendRowsLocked(batch, checked, 0, batch.size(), position);
      headBytes = head.bytes() + seals.bytes();
    }
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
    return columns.schema();
  }

  /**
   * Appends one event; when it returns, the event is durable as the storage's fsync policy says.
   *
   * @param event the event
   * @throws RejectedEventException when the event cannot be stored; nothing of it is kept
   * @throws WritesRefusedException when the engine refuses writes for now (memory)
   * @throws RuntimeException when the storage failed (nothing of the event is kept)
   */
  public void append(Event event) {
    AppendResult r = append(new EventBatch().add(event));
    if (!r.rejections().isEmpty()) {
      throw new RejectedEventException(r.rejections().get(0).reason());
    }
  }

  /**
   * Appends a batch of events, keeping the valid ones; when it returns, they are durable as the
   * storage's fsync policy says. The fastest way in: the events are checked, logged and stored a
   * field at a time. Values may be converted in place; clear the batch before filling it again.
   *
   * @param batch the events
   * @return how many were stored and why the others were not (by position in the batch)
   * @throws WritesRefusedException when the engine refuses writes for now (memory); nothing of the
   *     batch is kept
   * @throws RuntimeException when the storage failed (nothing of the batch is kept)
   */
  public AppendResult append(EventBatch batch) {
    PendingAppend pending = appendPending(batch);
    pending.awaitDurable();
    return pending.result();
  }

  /**
   * {@link #append(EventBatch)} without waiting for the log to be durable, so that a caller reading
   * a long request can prepare its next batch meanwhile (and wait once per batch, for the one
   * before). Until {@link PendingAppend#awaitDurable()} returns, the events are not acknowledged: a
   * crash or power cut may lose them, as the fsync policy says.
   *
   * @param batch the events
   * @return the outcome, to wait on
   * @throws WritesRefusedException when the engine refuses writes for now (memory); nothing of the
   *     batch is kept
   * @throws RuntimeException when the storage failed (nothing of the batch is kept)
   */
  public PendingAppend appendPending(EventBatch batch) {
    admission.run();
    int n = batch.size();
    if (n == 0) {
      return new PendingAppend(new AppendResult(0, List.of()), storage, 0);
    }
    // Outside the lock: check and convert the events against the columns as they are now, and
    // encode their log records. Under the lock that is done again only when a column this batch
    // defines was defined meanwhile.
    Schema before = columns.schema();
    BatchCheck.Result checked = BatchCheck.check(batch, before, spec.timestampColumn(), true);
    List<byte[]> records = records(batch, checked, 0, n);
    long position;
    boolean buildAhead;
    synchronized (lock) {
      seals.awaitRoomLocked(this::checkWritableLocked, id);
      if (columns.schema() != before && checked.definesColumns()) {
        checked.undo(batch);
        checked = BatchCheck.check(batch, columns.schema(), spec.timestampColumn(), true);
        records = records(batch, checked, 0, n);
      }
      if (checked.accepted() == 0) {
        return new PendingAppend(new AppendResult(0, checked.rejections()), storage, 0);
      }
      position = appendLocked(batch, checked, records);
      headBytes = head.bytes() + seals.bytes();
      buildAhead = reads.wantsPartLocked(head);
    }
    if (buildAhead) {
      reads.requestPart();
    }
    ingested.record(checked.accepted());
    return new PendingAppend(
        new AppendResult(checked.accepted(), checked.rejections()), storage, position);
  }

  private List<byte[]> records(EventBatch batch, BatchCheck.Result checked, int from, int to) {
    return checked.accepted() == 0
        ? List.of()
        : storage.records(batch, checked.types(), checked.rejected(), from, to);
  }

  /**
   * Logs and stores the accepted events, a head at a time: when the head fills up part way through
   * the batch, the events logged so far are that head's, it is handed over for sealing, and the
   * rest are logged again as records of their own (so that no record spans two heads).
   *
   * @return the log position of the last record written
   */
  private long appendLocked(EventBatch batch, BatchCheck.Result checked, List<byte[]> records) {
    int n = batch.size();
    long position = 0;
    int from = 0;
    while (from < n) {
      int room = Math.max(1, segmentRows - head.rows());
      int to = from;
      for (int taken = 0; to < n && (taken < room || !checked.accepts(to)); to++) {
        if (checked.accepts(to)) {
          taken++;
        }
      }
      position = storage.log(from == 0 && to == n ? records : records(batch, checked, from, to));
      appendRowsLocked(batch, checked, from, to, position);
      from = to;
    }
    return position;
  }

  /**
   * Adds the accepted events of {@code [from, to)}, logged up to {@code position}, to the head
   * (defining the columns they bring), and hands the head over for sealing once it is full.
   */
  private void appendRowsLocked(
      EventBatch batch, BatchCheck.Result checked, int from, int to, long position) {
    int[] columnOf = columns.columnsLocked(batch, checked, from, to, head);
    head.append(batch, columnOf, checked.rejected(), from, to);
    headLastPosition = position;
    version++;
    if (head.rows() >= segmentRows || head.bytes() >= maxHeadBytes) {
      rotateLocked();
    }
  }

  /**
   * Under the lock: throws when the source takes no writes (stopped, dropped or storage failed).
   */
  private void checkWritableLocked() {
    if (closed) {
      throw dropped
          ? UnknownSourceException.dropped(id)
          : new EngineClosedException("the engine of source " + id + " is closed");
    }
    storage.checkWritable();
  }

  /**
   * @return the events accepted since the source was opened (replayed ones not counted): a cheap
   *     number that grows with every append that stored something, for followers such as a live
   *     tail that look for new events only when it moved
   */
  public long acceptedEvents() {
    return ingested.total();
  }

  /**
   * @return a number that changes with every append to the head and every hand-over, so that a
   *     caller can tell a head that stayed idle
   */
  public long headVersion() {
    synchronized (lock) {
      return version;
    }
  }

  /**
   * Hands the head to the sealing thread, without waiting, if it has rows and nothing changed it
   * since {@link #headVersion()} returned {@code seen}.
   *
   * @param seen a version read earlier
   * @return whether the head was handed over
   */
  public boolean sealIfUnchanged(long seen) {
    synchronized (lock) {
      if (version != seen || head.rows() == 0 || closed) {
        return false;
      }
      rotateLocked();
      headBytes = head.bytes() + seals.bytes();
      return true;
    }
  }

  /** Seals the head now (if it has rows) and waits until every head handed over is sealed. */
  public void seal() {
    synchronized (lock) {
      rotateLocked();
      headBytes = head.bytes() + seals.bytes();
    }
    awaitSealing();
  }

  /**
   * Waits until every head handed to the sealing thread so far is sealed and listed, and the work
   * after each seal (the engine's memory and disk limits) is done; or until the storage failed,
   * which it reports.
   */
  public void awaitSealing() {
    seals.awaitAll();
  }

  /**
   * A consistent view for one query; {@link SourceSnapshot#close() close} it when done.
   *
   * @return the sealed segments, the heads being sealed and the frozen head, oldest first
   */
  public SourceSnapshot snapshot() {
    return reads.snapshot();
  }

  /**
   * @return how many parts {@link BuildAhead} built for this source's heads (for tests)
   */
  long aheadBuilds() {
    return reads.aheadBuilds();
  }

  /**
   * @return sealed segments, oldest first (neither the head nor heads being sealed); read only
   *     their id, rows and time range without a snapshot
   */
  public List<Segment> sealedSegments() {
    return segments.list();
  }

  /**
   * @return the sealed segments' maintenance: eviction, retention drops and merges
   */
  public SealedSegments sealed() {
    return segments;
  }

  /**
   * @return the bytes the unsealed heads hold (as of the last append or seal), without locking
   */
  public long headBytes() {
    return headBytes;
  }

  /**
   * @return the heap bytes of the sealed segments still held (0 for segments mapped from files)
   */
  public long sealedBytes() {
    return segments.heapBytes();
  }

  /**
   * @return bytes of the source's listed segment files and its log (0 without a data directory); a
   *     dropped segment's file no longer counts, even while a query still reads it
   */
  public long diskBytes() {
    return SourceStatsReport.diskBytes(storage, segments.list());
  }

  /**
   * @return rows, segments, bytes (per column), disk, seal backlog and ingestion rate of this
   *     source
   */
  public SourceStats stats() {
    List<Segment> listed;
    long headRows;
    long headBytes;
    long evSegments;
    long evRows;
    int backlog;
    long backlogRows = 0;
    long heldBack;
    long heldBackNanos;
    synchronized (lock) {
      listed = segments.list();
      headRows = head.rows();
      List<PendingSeal> sealing = seals.pending();
      backlog = sealing.size();
      for (PendingSeal p : sealing) {
        backlogRows += p.rows();
      }
      headRows += backlogRows;
      headBytes = this.headBytes;
      evSegments = segments.evictedSegmentsLocked();
      evRows = segments.evictedRowsLocked();
      SealQueue.HeldBack waited = seals.heldBackLocked();
      heldBack = waited.appends();
      heldBackNanos = waited.nanos();
    }
    return SourceStatsReport.of(
        new SourceStatsReport.Tally(
            id,
            spec.name(),
            columns.schema(),
            listed,
            headRows,
            headBytes,
            evSegments,
            evRows,
            ingested,
            backlog,
            backlogRows,
            storage,
            heldBack,
            heldBackNanos));
  }

  /**
   * Stops the source for good (the engine drops it or closes): appends are refused, no head is
   * sealed any more (logged events are replayed at the next start), and the storage closes or drops
   * everything. Queries holding snapshots keep reading until they close them.
   *
   * @param drop whether to delete what the source stored
   */
  public void shutdown(boolean drop) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      dropped = drop;
      seals.cancelAllLocked();
      lock.notifyAll();
    }
    seals.shutdown();
    List<Segment> owned = segments.closing();
    if (drop) {
      storage.drop();
      owned.forEach(s -> storage.discard(s, false));
    } else {
      storage.close();
      owned.forEach(s -> s.retire(null));
    }
  }

  /** Hands the head to the sealing thread and starts a new one. */
  private void rotateLocked() {
    if (head.rows() == 0 || closed) {
      return;
    }
    PendingSeal p = new PendingSeal(head, nextSegmentId++, headLastPosition, spec.implicitColumn());
    p.startFrom(reads.partsLocked());
    seals.addLocked(p);
    head = newHead();
    columns.addAllLocked(head);
    version++;
    reads.newHeadLocked(head);
    storage.headHandedOver();
    seals.start(p, () -> segments.publish(p));
  }

  /**
   * @return under the lock: the head being filled
   */
  SegmentBuilder headLocked() {
    return head;
  }

  /**
   * @return under the lock: the heads handed to the sealing thread and not yet listed, oldest first
   */
  List<PendingSeal> pendingSealsLocked() {
    return seals.pending();
  }

  /**
   * @return under the lock: whether the source is stopped for good
   */
  boolean closedLocked() {
    return closed;
  }

  /**
   * @return under the lock: the id the next segment gets
   */
  long nextSegmentIdLocked() {
    return nextSegmentId;
  }

  /**
   * @return under the lock: an id for a new segment, taken
   */
  long takeSegmentIdLocked() {
    return nextSegmentId++;
  }

  /**
   * Under the lock: the head's segment is listed, so the head leaves the backlog.
   *
   * @param p the head handed over
   */
  void sealedLocked(PendingSeal p) {
    seals.removeLocked(p);
    headBytes = head.bytes() + seals.bytes();
  }

  private SegmentBuilder newHead() {
    return new SegmentBuilder(Math.min(segmentRows, 1024));
  }
}
