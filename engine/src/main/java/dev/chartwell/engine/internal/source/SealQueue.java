package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.WritesRefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The heads a {@link SourceCore} has handed over for sealing and not yet listed, in order, and the
 * lane that seals them one at a time.
 *
 * <p>Kept apart from {@link SourceCore} because the backlog is an idea of its own: appends read its
 * size for back-pressure and its bytes for the memory limits, queries read it to see the
 * handed-over rows, and waiting for it to drain has its own rules (a head that finished without
 * being listed means the storage failed). What to do with a head once it is built (persist,
 * publish, list) is for the source's {@link SealedSegments}.
 *
 * <p>The list is written only under the source's lock (passed in, so that this class keeps the
 * source's single lock rather than adding one) and read without it, as an immutable volatile list.
 */
final class SealQueue {
  /** Heads handed to the sealing thread beyond which appenders wait for it. */
  static final int MAX_PENDING = 2;

  private final Object lock;
  private final SerialLane lane;
  private final Executor buildAhead;
  private volatile List<PendingSeal> pending = List.of(); // written under lock
  private volatile PendingSeal lastHandedOver; // written under lock; seals finish in order
  private long heldBack; // guarded by lock: appends that waited for room
  private long heldBackNanos; // guarded by lock: how long they waited

  /**
   * @param lock the source's lock, under which the list is written
   * @param sealers the pool sealing runs on
   */
  SealQueue(Object lock, Executor sealers) {
    this.lock = lock;
    this.lane = new SerialLane(sealers);
    this.buildAhead = sealers;
  }

  /**
   * @return the heads being sealed, oldest first (an immutable list)
   */
  List<PendingSeal> pending() {
    return pending;
  }

  /**
   * Under the lock, before an append takes any event: back-pressure. While more than {@link
   * #MAX_PENDING} heads wait for the sealing thread, the append waits (waiting releases the lock,
   * so sealing and queries go on), so that memory stays bounded when sealing falls behind
   * ingestion.
   *
   * @param takesWrites run before each look: throws when the source takes no writes at all
   * @param sourceId the source, for the message when the wait is interrupted
   * @throws WritesRefusedException when interrupted while waiting
   */
  void awaitRoomLocked(Runnable takesWrites, String sourceId) {
    boolean waited = false;
    while (true) {
      takesWrites.run();
      if (pending.size() <= MAX_PENDING) {
        return;
      }
      if (!waited) {
        waited = true;
        heldBack++;
      }
      long start = System.nanoTime();
      try {
        lock.wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new WritesRefusedException(
            "interrupted while waiting for source " + sourceId + " to seal its backlog");
      } finally {
        heldBackNanos += System.nanoTime() - start;
      }
    }
  }

  /**
   * Appends held back for room in the backlog.
   *
   * @param appends how many waited
   * @param nanos how long they waited in all
   */
  record HeldBack(long appends, long nanos) {}

  /**
   * @return under the lock: the appends held back so far
   */
  HeldBack heldBackLocked() {
    return new HeldBack(heldBack, heldBackNanos);
  }

  /**
   * Under the lock: lists a head handed over; {@link #start} it once the source is ready.
   *
   * @param p the head
   */
  void addLocked(PendingSeal p) {
    List<PendingSeal> next = new ArrayList<>(pending);
    next.add(p);
    pending = List.copyOf(next);
    lastHandedOver = p;
  }

  /**
   * Starts sealing a head listed by {@link #addLocked}.
   *
   * @param p the head
   * @param complete what the lane runs for it, after the heads before it
   */
  void start(PendingSeal p, Runnable complete) {
    lane.execute(complete);
    buildAhead.execute(p::buildAhead); // builds in parallel with the lane's publishing
  }

  /**
   * Under the lock: unlists a head whose segment is now listed.
   *
   * @param p the head
   */
  void removeLocked(PendingSeal p) {
    List<PendingSeal> rest = new ArrayList<>(pending);
    rest.remove(p);
    pending = List.copyOf(rest);
  }

  /**
   * @return the bytes the heads being sealed hold
   */
  long bytes() {
    long total = 0;
    for (PendingSeal p : pending) {
      total += p.bytes();
    }
    return total;
  }

  /**
   * Waits until every head handed over so far is sealed and listed, and the work after each seal is
   * done; or until the storage failed.
   */
  void awaitAll() {
    awaitBelow(1);
    PendingSeal last = lastHandedOver;
    if (last != null) {
      last.awaitFinished(); // it leaves the list before its after-seal work runs
    }
  }

  /**
   * Waits until fewer than {@code count} heads are listed, or the oldest finished without being
   * listed (the storage failed), or the thread is interrupted.
   *
   * @param count the backlog to get below
   */
  void awaitBelow(int count) {
    while (true) {
      List<PendingSeal> now = pending;
      if (now.size() < count) {
        return;
      }
      PendingSeal oldest = now.get(0);
      oldest.awaitFinished();
      if (Thread.currentThread().isInterrupted() || oldest.cancelled()) {
        return;
      }
      synchronized (lock) {
        if (pending.contains(oldest)) {
          return; // finished without being listed: the storage failed
        }
      }
    }
  }

  /** Under the lock: cancels every head listed, so that none is sealed any more. */
  void cancelAllLocked() {
    for (PendingSeal p : pending) {
      p.cancel();
    }
  }

  /** Stops the lane and marks every listed head finished (after {@link #cancelAllLocked}). */
  void shutdown() {
    lane.shutdown();
    for (PendingSeal p : pending) {
      p.finish();
    }
  }
}
