package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.StorageFailedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The fsyncs of a {@link WriteAheadLog}, shared by concurrent appenders, and the log's failure.
 *
 * <p>At most one fsync runs at a time: whoever runs one (or switches files) holds the sync token. A
 * caller that needs a position durable waits while an fsync runs; when none runs and its position
 * is not yet covered, it takes the token and becomes the leader: it forces the file being written
 * for every record written so far, then wakes everyone. Records written during that fsync are
 * covered by the next one, so concurrent callers share fsyncs.
 */
final class GroupCommit {
  /** What an fsync covers. */
  interface Written {
    /**
     * @return the position of the last record completely written
     */
    long writtenSeq();

    /**
     * @return the file being written
     */
    LogFile current();
  }

  private final Path dir;
  private final Written log;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition done = lock.newCondition();
  private boolean syncing; // guarded by lock: someone holds the sync token
  private long syncedSeq; // guarded by lock
  private volatile Throwable failure;
  private final CountDownLatch stop = new CountDownLatch(1);
  private Thread periodic;

  /**
   * @param dir the log's directory, for messages
   * @param syncedSeq the last position known durable
   * @param log what the fsyncs cover
   */
  GroupCommit(Path dir, long syncedSeq, Written log) {
    this.dir = dir;
    this.syncedSeq = syncedSeq;
    this.log = log;
  }

  /**
   * Returns once an fsync covered {@code seq}, leading one when none runs.
   *
   * @param seq a position already written
   * @throws StorageFailedException when the log failed before {@code seq} was covered
   */
  void await(long seq) {
    lock.lock();
    try {
      while (syncedSeq < seq) {
        if (failure != null) {
          throw failure();
        }
        if (syncing) {
          done.awaitUninterruptibly();
          continue;
        }
        syncing = true;
        long covering = log.writtenSeq();
        LogFile file = log.current();
        Throwable error = null;
        lock.unlock();
        boolean interrupted = Thread.interrupted();
        try {
          file.force();
        } catch (IOException | RuntimeException | Error e) {
          error = e;
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
          lock.lock();
        }
        syncing = false;
        if (error == null) {
          syncedSeq = Math.max(syncedSeq, covering);
        } else if (failure == null) {
          failure = error;
        }
        done.signalAll();
        if (error instanceof Error e) {
          throw e;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits until no fsync runs and takes the token, to switch files or close without one. */
  void takeToken() {
    lock.lock();
    try {
      while (syncing) {
        done.awaitUninterruptibly();
      }
      syncing = true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * @param synced a position the token holder made durable, or -1
   */
  void releaseToken(long synced) {
    lock.lock();
    try {
      syncing = false;
      syncedSeq = Math.max(syncedSeq, synced);
      done.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Fails the log (the first error stays the cause) and wakes every waiter.
   *
   * @param error what failed
   */
  void fail(Throwable error) {
    lock.lock();
    try {
      if (failure == null) {
        failure = error;
      }
      done.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * @return whether a write or fsync failed
   */
  boolean failed() {
    return failure != null;
  }

  /**
   * @return the exception to throw now that the log failed
   */
  StorageFailedException failure() {
    return new StorageFailedException(dir, failure);
  }

  /**
   * Starts the background thread of {@link FsyncPolicy.Mode#INTERVAL}.
   *
   * @param millis the period
   */
  void startPeriodic(long millis) {
    periodic = new Thread(() -> syncEvery(millis), "chartwell-wal-sync " + dir.getFileName());
    periodic.setDaemon(true);
    periodic.setUncaughtExceptionHandler(EngineLog::uncaught);
    periodic.start();
  }

  /** Stops the background thread, if any, and waits for it (never interrupting its I/O). */
  void stopPeriodic() {
    stop.countDown();
    Thread t = periodic;
    boolean interrupted = false;
    while (t != null && t.isAlive()) {
      try {
        t.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void syncEvery(long millis) {
    try {
      while (!stop.await(millis, TimeUnit.MILLISECONDS)) {
        if (failure != null) {
          return; // the next append reports it
        }
        await(log.writtenSeq());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (StorageFailedException e) {
      // kept as the log's failure: the next append throws it
    }
  }
}
