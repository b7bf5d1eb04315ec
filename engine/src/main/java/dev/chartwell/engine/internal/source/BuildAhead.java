package dev.chartwell.engine.internal.source;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Builds a head's parts off the query path, on the sealing pool, while queries read the head: a
 * source being filled and queried then leaves each query only the few rows that arrived since the
 * last part to build itself. One build runs at a time per instance; new rows are asked for by
 * appends once {@link #ROWS} rows wait and by queries that found many tails, and only while queries
 * read the source (a source only being filled builds nothing more than before). A source's head has
 * two: one for new rows, one for merging its parts ({@link HeadReads}), which is only asked for by
 * the first.
 */
final class BuildAhead {
  /** New rows beyond the settled parts after which an append asks for a build. */
  static final int ROWS = 1024;

  /** Tails after which a query asks for a build, whatever the rows. */
  static final int TAILS = 4;

  /** How long after a query the head's parts are still built ahead. */
  private static final long READ_RECENTLY_NANOS = 2_000_000_000L;

  private final Executor executor;
  private final BooleanSupplier buildOnce;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile long lastRead;
  private volatile boolean everRead;

  /**
   * @param executor where builds run
   * @param buildOnce builds one settled part, if there are rows to; returns whether another build
   *     is due right away
   */
  BuildAhead(Executor executor, BooleanSupplier buildOnce) {
    this.executor = executor;
    this.buildOnce = buildOnce;
  }

  /** A query read the head. */
  void read() {
    lastRead = System.nanoTime();
    everRead = true;
  }

  /**
   * @return whether a query read the head lately, so that building ahead pays
   */
  boolean wanted() {
    return everRead && System.nanoTime() - lastRead < READ_RECENTLY_NANOS;
  }

  /** Starts a build unless one is running (that one goes on while builds are due). */
  void request() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    try {
      executor.execute(this::run);
    } catch (RejectedExecutionException e) {
      running.set(false); // the engine is closing: queries build what they need
    }
  }

  /**
   * One build; when another is due, it goes to the back of the pool's queue rather than holding the
   * thread, so that a head's seal, queued on the same pool, waits for at most one build of each of
   * the source's two (and appends, held back while seals fall behind, are not).
   */
  private void run() {
    boolean again = false;
    try {
      again = buildOnce.getAsBoolean();
    } finally {
      if (!again) {
        running.set(false);
      }
    }
    if (again) {
      try {
        executor.execute(this::run);
      } catch (RejectedExecutionException e) {
        running.set(false); // the engine is closing
      }
    }
  }
}
