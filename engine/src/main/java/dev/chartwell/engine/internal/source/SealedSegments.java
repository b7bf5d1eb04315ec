package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.segment.Segment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The sealed segments of a {@link SourceCore} and every change to them: listing a head once it is
 * sealed, dropping segments (retention, the memory limit, corrupt files) and merging small ones.
 *
 * <p>Kept apart from {@link SourceCore} because this is the source's maintenance, with rules of its
 * own, while the source itself is about its head: appends, hand-overs and query snapshots. Each
 * change is first published to the storage (one manifest) and then listed for queries, so that a
 * crash leaves either the state before or the state after, and a query sees one of the two, never a
 * mix. A segment that leaves the list goes once no query reads it.
 *
 * <p>Two locks, always taken in this order: the commit lock orders the publications (seals, drops,
 * merges) with each other and guards the published log position; the source's lock (passed in, as
 * for {@link SealQueue}) guards the list itself, the source's segment ids and whether it is closed.
 * The list is written only under both and read without either, as an immutable volatile list.
 */
public final class SealedSegments {
  private final SourceCore source;
  private final Object lock;
  private final SourceStorage storage;
  private final String implicitColumn;
  private final int segmentRows;
  private final long maxHeadBytes;
  private final Consumer<SourceCore> onSealed;

  private volatile List<Segment> sealed = List.of(); // written under lock
  private volatile long sealedBytes;
  private long evictedSegments; // guarded by lock
  private long evictedRows; // guarded by lock

  /** Orders the publications of the source's state (seals, drops) with each other. */
  private final Object commitLock = new Object();

  private long publishedPosition; // guarded by commitLock

  /**
   * @param source the source whose segments these are
   * @param lock the source's lock, under which the list is written
   * @param setup how the source is set up
   */
  SealedSegments(SourceCore source, Object lock, SourceCore.Setup setup) {
    this.source = source;
    this.lock = lock;
    this.storage = setup.storage();
    this.implicitColumn = setup.spec().implicitColumn();
    this.segmentRows = setup.segmentRows();
    this.maxHeadBytes = setup.maxHeadBytes();
    this.onSealed = setup.onSealed();
  }

  /**
   * @return the sealed segments, oldest first (an immutable list)
   */
  List<Segment> list() {
    return sealed;
  }

  /**
   * @return the heap bytes of the sealed segments still held (0 for segments mapped from files)
   */
  long heapBytes() {
    return sealedBytes;
  }

  /**
   * @return under the source's lock: how many segments the memory limit evicted
   */
  long evictedSegmentsLocked() {
    return evictedSegments;
  }

  /**
   * @return under the source's lock: how many rows the memory limit evicted
   */
  long evictedRowsLocked() {
    return evictedRows;
  }

  /**
   * Takes what the storage held at a restart: the segments it listed and the log position they
   * reach.
   *
   * @param segments the sealed segments, oldest first
   * @param logPosition events logged up to here are in them
   */
  void restore(List<Segment> segments, long logPosition) {
    synchronized (lock) {
      listLocked(segments);
    }
    synchronized (commitLock) {
      publishedPosition = logPosition;
    }
  }

  /**
   * On the sealing thread: stores the head's segment, publishes the source's state with it, lists
   * it in place of the head, truncates the log up to it, and tells the engine.
   *
   * @param p the head handed over
   */
  void publish(PendingSeal p) {
    try {
      if (p.cancelled()) {
        return;
      }
      Segment stored = storage.persist(p.segment());
      synchronized (commitLock) {
        long nextId;
        synchronized (lock) {
          if (source.closedLocked()) {
            stored.retire(null); // its events are still in the log
            return;
          }
          nextId = source.nextSegmentIdLocked();
        }
        List<Segment> next = new ArrayList<>(sealed);
        next.add(stored);
        long position = Math.max(publishedPosition, p.lastPosition());
        storage.publish(next, position, nextId, source.schema());
        publishedPosition = position;
        synchronized (lock) {
          listLocked(next);
          source.sealedLocked(p);
        }
      }
      storage.truncateLog(p.lastPosition());
      onSealed.accept(source);
    } catch (IOException | RuntimeException e) {
      storage.fail("sealing segment " + p.id() + " of source " + source.id(), e);
    } catch (Error e) {
      storage.fail("sealing segment " + p.id() + " of source " + source.id(), e);
      throw e;
    } finally {
      p.finish();
      synchronized (lock) {
        lock.notifyAll(); // appenders held back by the backlog look again
      }
    }
  }

  /**
   * Drops a sealed heap segment to free memory (in-memory sources; mapped segments take no heap).
   *
   * @param segment a sealed segment of this source
   * @return whether it was still there
   */
  public boolean evict(Segment segment) {
    if (drop(s -> s == segment, false) == 0) {
      return false;
    }
    synchronized (lock) {
      evictedSegments++;
      evictedRows += segment.rows();
    }
    return true;
  }

  /**
   * Drops the sealed segments that match, publishing the source's state without them; their files
   * are deleted (or, when corrupt, moved to quarantine) once no query reads them.
   *
   * @param which the segments to drop
   * @param corrupt whether they are dropped because their files do not verify
   * @return how many were dropped
   */
  public int drop(Predicate<Segment> which, boolean corrupt) {
    List<Segment> gone = new ArrayList<>();
    synchronized (commitLock) {
      List<Segment> next = new ArrayList<>();
      for (Segment s : sealed) {
        (which.test(s) ? gone : next).add(s);
      }
      if (gone.isEmpty()) {
        return 0;
      }
      long nextId;
      synchronized (lock) {
        if (source.closedLocked()) {
          return 0;
        }
        nextId = source.nextSegmentIdLocked();
      }
      if (!publishList(next, nextId, "without " + gone.size() + " segments")) {
        return 0;
      }
    }
    for (Segment s : gone) {
      storage.discard(s, corrupt);
    }
    return gone.size();
  }

  /**
   * Merges small sealed segments, size-tiered ({@link SegmentMerger}), until none are left to
   * merge. Each merged segment is stored, then the source's state is published with it in place of
   * its inputs (one atomic manifest), then the inputs go once no query reads them: a query sees
   * either the inputs or the merged segment, never both, and a crash leaves one of the two states.
   *
   * @return how many merges were done
   */
  public int mergeSmall() {
    int merges = 0;
    while (true) {
      List<Segment> inputs = SegmentMerger.pick(sealed, segmentRows, maxHeadBytes);
      if (inputs.isEmpty() || !mergeOnce(inputs)) {
        return merges;
      }
      merges++;
    }
  }

  private boolean mergeOnce(List<Segment> inputs) {
    long mergedId;
    Schema columns;
    synchronized (lock) {
      if (source.closedLocked()) {
        return false;
      }
      mergedId = source.takeSegmentIdLocked();
      columns = source.schema();
    }
    List<Segment> held = new ArrayList<>(inputs.size());
    Segment stored;
    try {
      for (Segment s : inputs) {
        if (!s.acquire()) {
          return false; // dropped meanwhile
        }
        held.add(s);
      }
      stored = storage.persist(SegmentMerger.merge(inputs, columns, mergedId, implicitColumn));
    } catch (IOException | RuntimeException e) {
      storage.fail("merging " + inputs.size() + " segments of source " + source.id(), e);
      return false;
    } finally {
      held.forEach(Segment::release);
    }
    synchronized (commitLock) {
      List<Segment> current = sealed;
      List<Segment> next = new ArrayList<>(current.size());
      int found = 0;
      for (Segment s : current) {
        if (inputs.contains(s)) {
          if (found++ == 0) {
            next.add(stored);
          }
        } else {
          next.add(s);
        }
      }
      long nextId;
      synchronized (lock) {
        nextId = source.nextSegmentIdLocked();
        if (source.closedLocked()) {
          stored.retire(null); // unlisted: its file goes at the next start
          return false;
        }
        if (found != inputs.size()) {
          storage.discard(stored, false); // an input was dropped meanwhile: the merge is void
          return false;
        }
      }
      if (!publishList(next, nextId, "with a merged segment")) {
        return false; // unlisted unless the manifest made it: the next start keeps or deletes it
      }
    }
    for (Segment s : inputs) {
      storage.discard(s, false);
    }
    return true;
  }

  /**
   * After the source closed (no publication follows): the segments it listed last, which the caller
   * retires or discards.
   *
   * @return the sealed segments
   */
  List<Segment> closing() {
    synchronized (commitLock) {
      return sealed;
    }
  }

  /**
   * Under the commit lock: publishes the source's state with {@code next} as its sealed segments
   * (one manifest), then lists them for queries; a failure to publish is reported and changes
   * nothing.
   *
   * @param what how {@code next} differs, for the failure's message
   * @return whether it was published
   */
  private boolean publishList(List<Segment> next, long nextId, String what) {
    try {
      storage.publish(next, publishedPosition, nextId, source.schema());
    } catch (IOException | RuntimeException e) {
      storage.fail("publishing source " + source.id() + " " + what, e);
      return false;
    }
    synchronized (lock) {
      listLocked(next);
    }
    return true;
  }

  /** Under the source's lock: lists {@code segments} for queries. */
  private void listLocked(List<Segment> segments) {
    long total = 0;
    for (Segment s : segments) {
      total += s.heapBytes();
    }
    sealed = List.copyOf(segments);
    sealedBytes = total;
  }
}
