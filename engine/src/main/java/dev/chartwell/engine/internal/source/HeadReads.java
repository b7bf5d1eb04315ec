package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A {@link SourceCore}'s head as queries read it: as {@link HeadParts}, immutable segments over its
 * rows. While queries read the source, its {@link BuildAhead} turns the head's rows into parts as
 * they arrive, off the query path, and a second one merges those parts into tiers, so that new rows
 * never wait for a merge (a merged part's token index is merged from its parts', not built from
 * their rows again); a query copies under the source's lock (array copies only) the rows added
 * since the last part and makes them a tail outside it, which the queries after it share, whose
 * columns are built as queries read them ({@link SegmentBuilder#buildForQuery}). So a source being
 * filled does not rebuild its head for every query.
 *
 * <p>Kept apart from {@link SourceCore}, which appends and hands heads over, because this is the
 * query side of the head, with its own lock and rules. Locks, always in this order: the freeze lock
 * (one query at a time brings the parts up to date), then the source's lock, which guards the parts
 * and the head they belong to. When the head is handed over, its parts go with it to the sealing
 * thread ({@link PendingSeal#startFrom}) and the new head starts with none.
 */
final class HeadReads {
  private final SourceCore source;
  private final Object lock;
  private final BuildAhead ahead;

  /** Merges settled parts into tiers, apart from {@link #ahead}, which only builds new rows. */
  private final BuildAhead merges;

  /** Taken by a query bringing the head's parts up to date, before the source's lock. */
  private final Object freezeLock = new Object();

  private HeadParts frozen; // guarded by lock; always the current head's
  private long aheadBuilds; // guarded by lock

  /**
   * @param source the source whose head this is
   * @param lock the source's lock
   * @param head the source's first head
   * @param sealers where parts are built ahead
   */
  HeadReads(SourceCore source, Object lock, SegmentBuilder head, Executor sealers) {
    this.source = source;
    this.lock = lock;
    this.ahead = new BuildAhead(sealers, this::buildAheadOnce);
    this.merges = new BuildAhead(sealers, this::mergeOnce);
    this.frozen = HeadParts.none(head);
  }

  /**
   * Under the lock, after an append.
   *
   * @param head the head appended to
   * @return whether enough rows beyond the head's settled parts wait for a part to be built ahead
   */
  boolean wantsPartLocked(SegmentBuilder head) {
    return head.rows() - frozen.settledRows() >= BuildAhead.ROWS;
  }

  /** Outside the lock: asks for a part to be built ahead, if queries read the source lately. */
  void requestPart() {
    if (ahead.wanted()) {
      ahead.request();
    }
  }

  /**
   * @return under the lock: the current head's parts, which go with it when it is handed over
   */
  HeadParts partsLocked() {
    return frozen;
  }

  /**
   * Under the lock: the head was handed over; the new one starts with no parts.
   *
   * @param head the new head
   */
  void newHeadLocked(SegmentBuilder head) {
    frozen = HeadParts.none(head);
  }

  /**
   * A consistent view for one query; {@link SourceSnapshot#close() close} it when done.
   *
   * @return the sealed segments, the heads being sealed and the frozen head, oldest first
   */
  SourceSnapshot snapshot() {
    ahead.read();
    // One query at a time builds the rows beyond the head's parts; the others then share them.
    synchronized (freezeLock) {
      List<Segment> listed;
      List<PendingSeal> pending;
      HeadParts parts;
      SegmentBuilder added = null;
      int from = 0;
      int rows;
      long headId;
      synchronized (lock) {
        listed = source.sealed().list();
        for (Segment s : listed) {
          if (!s.acquire()) {
            throw new IllegalStateException("a listed segment was released: " + s.id());
          }
        }
        pending = source.pendingSealsLocked();
        headId = source.nextSegmentIdLocked();
        parts = frozen;
        SegmentBuilder head = source.headLocked();
        rows = head.rows();
        if (rows > parts.rows()) {
          from = parts.rows();
          added = head.copy(from, rows);
        }
      }
      List<Segment> all = new ArrayList<>(listed.size() + pending.size() + parts.parts().size());
      all.addAll(listed);
      try {
        for (PendingSeal p : pending) {
          all.addAll(p.forQuery());
        }
        if (added != null) {
          Segment part = added.buildForQuery(headId, from, source.spec().implicitColumn());
          HeadParts before = parts;
          parts = parts.withTail(new HeadParts.Part(from, rows, part));
          synchronized (lock) {
            if (frozen == before) {
              frozen = parts; // else a settled part came meanwhile: this tail is not shared
            }
          }
        }
        all.addAll(parts.segments());
      } catch (RuntimeException | Error e) {
        listed.forEach(Segment::release);
        throw e;
      }
      if (parts.parts().size() - parts.settled() >= BuildAhead.TAILS) {
        ahead.request();
      }
      return new SourceSnapshot(source.schema(), List.copyOf(all), listed);
    }
  }

  /**
   * On a sealing thread, for {@link BuildAhead}: turns the head's rows beyond its settled parts
   * into a settled part with its token index, so that queries find them built, and asks for a merge
   * when the settled parts are no longer in tiers. New rows are never held up by a merge: merging a
   * quarter of a head takes longer than a few thousand rows take to arrive, which a query would
   * otherwise build itself.
   *
   * @return whether enough rows wait for another build right away
   */
  private boolean buildAheadOnce() {
    SegmentBuilder of;
    SegmentBuilder rowsToBuild;
    int from;
    int rows;
    long headId;
    synchronized (lock) {
      HeadParts parts = frozen;
      SegmentBuilder head = source.headLocked();
      rows = head.rows();
      if (source.closedLocked() || rows == parts.settledRows()) {
        return false;
      }
      of = head;
      from = parts.settledRows();
      rowsToBuild = head.copy(from, rows);
      headId = source.nextSegmentIdLocked();
    }
    // Its token index built here rather than by the first query with a bare term.
    Segment part = rowsToBuild.build(headId, from, source.spec().implicitColumn(), List.of());
    boolean merge;
    boolean more;
    synchronized (lock) {
      if (source.headLocked() != of) {
        return false; // handed over meanwhile: the sealing thread builds it whole
      }
      HeadParts settled = frozen.settle(new HeadParts.Part(from, rows, part));
      if (settled != null) {
        frozen = settled;
      }
      aheadBuilds++;
      merge = frozen.merge() != null;
      more =
          !source.closedLocked()
              && source.headLocked().rows() - frozen.settledRows() >= BuildAhead.ROWS;
    }
    if (merge) {
      merges.request();
    }
    return more;
  }

  /**
   * On a sealing thread: merges settled parts into one, as {@link HeadParts#merge} says, its
   * columns built from the head's rows and its token index merged from theirs. Parts settled
   * meanwhile after them stay.
   *
   * @return whether the settled parts want another merge right away
   */
  private boolean mergeOnce() {
    SegmentBuilder of;
    SegmentBuilder rowsToBuild;
    List<Segment> merged;
    int from;
    int to;
    long headId;
    synchronized (lock) {
      HeadParts parts = frozen;
      if (source.closedLocked()) {
        return false;
      }
      HeadParts.Merge merge = parts.merge();
      if (merge == null) {
        return false;
      }
      from = merge.from();
      to = merge.to();
      of = source.headLocked();
      merged = parts.settledSegments(from, to);
      rowsToBuild = of.copy(from, to);
      headId = source.nextSegmentIdLocked();
    }
    Segment part = rowsToBuild.build(headId, from, source.spec().implicitColumn(), merged);
    synchronized (lock) {
      if (source.headLocked() != of) {
        return false; // handed over meanwhile
      }
      HeadParts settled = frozen.settle(new HeadParts.Part(from, to, part));
      if (settled != null) {
        frozen = settled;
      }
      return !source.closedLocked() && frozen.merge() != null;
    }
  }

  /**
   * @return how many parts {@link BuildAhead} built for the source's heads (for tests)
   */
  long aheadBuilds() {
    synchronized (lock) {
      return aheadBuilds;
    }
  }
}
