package dev.chartwell.engine.source;

import dev.chartwell.engine.segment.Segment;
import dev.chartwell.engine.segment.SegmentBuilder;
import java.util.concurrent.CountDownLatch;

/**
 * A full head on its way to becoming a sealed segment. It is built once, by the sealing thread or
 * by the first query that needs it before then (the other waits), and stays visible to queries
 * until the sealed segment replaces it.
 */
final class PendingSeal {
  private final long id;
  private final long lastPosition;
  private final String implicitColumn;
  private final CountDownLatch done = new CountDownLatch(1);
  private SegmentBuilder rows; // guarded by this; dropped once built
  private Segment built; // guarded by this
  private final long bytes;
  private final int rowCount;
  private volatile boolean cancelled;

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
   * @return the segment, built now unless it was before
   */
  synchronized Segment segment() {
    if (built == null) {
      built = rows.build(id, implicitColumn);
      rows = null;
    }
    return built;
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
