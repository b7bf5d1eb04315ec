package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A full head on its way to becoming a sealed segment. It is built once, by whichever thread gets
 * there first (a sealing thread building ahead or the source's sealing lane; the other waits for
 * that build), and stays visible to queries until the sealed segment replaces it: as the built
 * segment once there is one, before that as the head's parts ({@link #forQuery}), so that no query
 * waits for a whole head to be built.
 */
final class PendingSeal {
  private final long id;
  private final long lastPosition;
  private final String implicitColumn;
  private final CountDownLatch done = new CountDownLatch(1);
  private SegmentBuilder rows; // guarded by this; dropped once built
  private Segment built; // guarded by this
  private boolean building; // guarded by this
  private final long bytes;
  private final int rowCount;
  private volatile boolean cancelled;

  /** What queries read until the segment is built; only the source's freeze lock changes it. */
  private volatile HeadParts parts;

  /**
   * @param rows the head's rows, no longer appended to
   * @param id the segment id
   * @param lastPosition the log position of the head's last event (0 when not logged)
   * @param implicitColumn the column to build the token index on, or {@code null}
   */
  PendingSeal(SegmentBuilder rows, long id, long lastPosition, String implicitColumn) {
    this.rows = rows;
    this.id = id;
    this.lastPosition = lastPosition;
    this.implicitColumn = implicitColumn;
    this.bytes = rows.bytes();
    this.rowCount = rows.rows();
  }

  /**
   * @return the rows handed over
   */
  int rows() {
    return rowCount;
  }

  long id() {
    return id;
  }

  long lastPosition() {
    return lastPosition;
  }

  /**
   * @return the heap the rows take until they are sealed
   */
  long bytes() {
    return bytes;
  }

  /**
   * @return the segment, built now unless it was before (or waiting for the thread building it)
   */
  Segment segment() {
    SegmentBuilder toBuild;
    synchronized (this) {
      boolean interrupted = false;
      while ((toBuild = claim()) == null && built == null) {
        try {
          wait(); // another thread is building it
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (toBuild == null) {
        return built;
      }
    }
    return build(toBuild);
  }

  /**
   * The segments a query reads for these rows without waiting for their build: the built segment
   * once there is one, else the head's parts, with the rows added since the last part built as one
   * more part. The caller holds its source's freeze lock.
   *
   * @return the segments, oldest rows first
   */
  java.util.List<Segment> forQuery() {
    SegmentBuilder head;
    synchronized (this) {
      if (built != null) {
        return java.util.List.of(built);
      }
      head = rows;
    }
    // A builder may be reading the same rows meanwhile: both only read them (a string column's
    // trailing empty rows may be filled in by both, with the same values).
    HeadParts p = parts != null ? parts : HeadParts.none(head);
    if (p.rows() < rowCount) {
      int from = p.rows(); // the head's last rows: the segment replaces every part soon
      Segment part = head.copy(from, rowCount).buildForQuery(id, from, implicitColumn);
      p = p.withTail(new HeadParts.Part(from, rowCount, part));
      parts = p;
    }
    return p.segments();
  }

  /**
   * @param parts the head's parts queries built before it was handed over
   */
  void startFrom(HeadParts parts) {
    this.parts = parts;
  }

  /**
   * Builds the segment unless another thread builds or built it: a sealing thread working ahead.
   */
  void buildAhead() {
    SegmentBuilder toBuild;
    synchronized (this) {
      toBuild = cancelled ? null : claim();
    }
    if (toBuild != null) {
      build(toBuild);
    }
  }

  /** The rows to build if nobody has started; the caller holds the monitor. */
  private SegmentBuilder claim() {
    if (built != null || building) {
      return null;
    }
    building = true;
    return rows;
  }

  private Segment build(SegmentBuilder toBuild) {
    Segment segment = null;
    try {
      // The token index merged from the head's settled parts, when queries had them built.
      HeadParts p = parts;
      segment =
          toBuild.build(
              id, 0, implicitColumn, p == null ? List.of() : p.settledSegments(0, p.settledRows()));
      return segment;
    } finally {
      synchronized (this) {
        building = false;
        if (segment != null) {
          built = segment;
          rows = null;
        }
        notifyAll();
      }
    }
  }

  /** The source no longer wants it sealed (dropped or closed). */
  void cancel() {
    cancelled = true;
  }

  boolean cancelled() {
    return cancelled;
  }

  /** The sealing thread is done with it, whether it succeeded or not. */
  void finish() {
    done.countDown();
  }

  /** Waits until {@link #finish}; an interrupt is kept for the caller. */
  void awaitFinished() {
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  boolean finished() {
    return done.getCount() == 0;
  }
}
