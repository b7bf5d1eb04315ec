package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The files of a {@link WriteAheadLog}, oldest first, with their total size: what {@link #replay}
 * reads and {@link #truncateBefore} deletes. Replay and truncation exclude each other, so a file is
 * never deleted while it is read.
 */
final class LogFiles {
  private final Path dir;
  private final ChannelFactory io;
  private final boolean syncDeletes;
  private final List<LogFile> files; // guarded by itself
  private final AtomicLong bytes = new AtomicLong();
  private final ReentrantLock maintenance = new ReentrantLock();

  /**
   * @param dir the log directory
   * @param io opens files for reading and syncs the directory
   * @param syncDeletes whether to sync the directory after deleting files
   * @param recovered the files recovery verified, oldest first
   */
  LogFiles(Path dir, ChannelFactory io, boolean syncDeletes, List<LogFile> recovered) {
    this.dir = dir;
    this.io = io;
    this.syncDeletes = syncDeletes;
    this.files = new ArrayList<>(recovered);
    for (LogFile f : recovered) {
      bytes.addAndGet(f.size());
    }
  }

  /** The file locked while a log is open, so that two processes never write one directory. */
  static final String LOCK_FILE = "wal.lock";

  /**
   * Locks a log directory (see {@link DirectoryLock}: a refused lock names the holder and never
   * loosens its lock).
   *
   * @param dir the directory
   * @return the lock; closing it releases it
   * @throws IOException when the directory is locked by another log, here or in another process
   */
  static DirectoryLock lock(Path dir) throws IOException {
    return DirectoryLock.acquire(
        dir, LOCK_FILE, "the write-ahead log in " + dir + " is open elsewhere");
  }

  /**
   * @return the newest file
   */
  LogFile newest() {
    synchronized (files) {
      return files.get(files.size() - 1);
    }
  }

  /**
   * @param file a new newest file
   */
  void add(LogFile file) {
    synchronized (files) {
      files.add(file);
    }
    bytes.addAndGet(file.size());
  }

  /**
   * @param written bytes appended to the newest file
   */
  void grew(long written) {
    bytes.addAndGet(written);
  }

  /**
   * @return bytes of all files
   */
  long bytes() {
    return bytes.get();
  }

  /**
   * @return the first position of the oldest file
   */
  long firstPosition() {
    synchronized (files) {
      return files.get(0).firstSeq;
    }
  }

  /**
   * @param afterPosition the position after which to start
   * @param upTo the last position to read (completely written)
   * @param consumer receives each record
   * @throws IOException when reading fails or a record fails verification
   */
  void replay(long afterPosition, long upTo, RecordConsumer consumer) throws IOException {
    maintenance.lock();
    try {
      List<LogFile> snapshot;
      synchronized (files) {
        snapshot = new ArrayList<>(files);
      }
      long first = snapshot.get(0).firstSeq;
      if (afterPosition < first - 1) {
        throw new IllegalArgumentException(
            "cannot replay after position "
                + afterPosition
                + ": the log was truncated and starts at position "
                + first);
      }
      for (int i = 0; i < snapshot.size(); i++) {
        LogFile f = snapshot.get(i);
        long endSeq = i + 1 < snapshot.size() ? snapshot.get(i + 1).firstSeq - 1 : upTo;
        endSeq = Math.min(endSeq, upTo);
        if (endSeq > afterPosition) {
          replayFile(f, endSeq, afterPosition, consumer);
        }
      }
    } finally {
      maintenance.unlock();
    }
  }

  private void replayFile(LogFile f, long endSeq, long afterPosition, RecordConsumer consumer)
      throws IOException {
    try (LogChannel ch = io.openForReading(f.path)) {
      RecordReader reader = new RecordReader(ch, LogFile.HEADER_BYTES, f.size());
      for (long seq = f.firstSeq; seq <= endSeq; seq++) {
        RecordReader.Status status = reader.next(seq);
        if (status != RecordReader.Status.RECORD) {
          String problem =
              status == RecordReader.Status.END
                  ? "the file ends before position " + seq
                  : LogRecovery.problem(status, reader, seq);
          throw new StorageCorruptedException(f.path, reader.offset(), problem);
        }
        if (seq > afterPosition) {
          consumer.accept(seq, reader.payload());
        }
      }
    }
  }

  /**
   * Deletes, oldest first, the files all of whose records are at or before a position.
   *
   * @param position the last position no longer needed
   * @param writing the file being written, never deleted
   * @throws IOException when a file cannot be deleted or the directory cannot be synced
   */
  void truncateBefore(long position, LogFile writing) throws IOException {
    maintenance.lock();
    try {
      List<LogFile> doomed = new ArrayList<>();
      synchronized (files) {
        for (int i = 0; i + 1 < files.size(); i++) {
          LogFile f = files.get(i);
          if (f == writing || files.get(i + 1).firstSeq - 1 > position) {
            break;
          }
          doomed.add(f);
        }
      }
      for (LogFile f : doomed) {
        Files.deleteIfExists(f.path);
        synchronized (files) {
          files.remove(f);
        }
        bytes.addAndGet(-f.size());
      }
      if (!doomed.isEmpty() && syncDeletes) {
        io.syncDirectory(dir);
      }
    } finally {
      maintenance.unlock();
    }
  }
}
