package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.StorageFailedException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write-ahead log of one source: records (encoded events) are appended to files in one
 * directory and made durable per {@link FsyncPolicy} before an append returns; after a crash,
 * {@link #open} recovers every whole record and {@link #replay} reads them back. Once the events
 * are in published segment files, {@link #truncateBefore} deletes the files that only hold older
 * records.
 *
 * <h2>Positions</h2>
 *
 * Every record gets a position: a sequence number, 1 for the first record ever written to the
 * directory, one more for each next record, never reused. {@link #append} returns the position of
 * its last record. Truncation never deletes the newest file, whose name holds the next position, so
 * numbering continues across restarts even when every record was truncated; an emptied or replaced
 * directory starts again at 1, which a caller detects by comparing {@link #lastPosition()} with the
 * position its published segments cover.
 *
 * <h2>Files (format version 1)</h2>
 *
 * The directory holds {@code wal.lock} (locked while the log is open, so that two processes never
 * write it) and log files named {@code wal-<20-digit first position>.log}, for example {@code
 * wal-00000000000000000001.log}. Records are only ever appended to the newest file; a new file is
 * started before a write that would make the newest one larger than the roll size (64 MiB by
 * default), so a file exceeds it only when one write does. All integers are little-endian.
 *
 * <pre>
 * file header, 20 bytes:
 *   0  4 bytes  magic "CWAL"
 *   4  int32    format version (1)
 *   8  int64    position of the file's first record (the same as in its name)
 *  16  int32    CRC32C of bytes 0-15
 * then records, back to back, to the end of the file:
 *   0  int32    CRC32C of bytes 4 to the end of the record (length, position and payload)
 *   4  int32    payload length n, 0 to 16 MiB
 *   8  int64    position
 *  16  n bytes  payload
 * </pre>
 *
 * <p>Why this layout: the checksum covers the length, so a flipped length is caught as a checksum
 * failure instead of misframing the rest; with the checksum first, the bytes it covers are
 * contiguous (one CRC pass). The position in each record makes every record self-identifying: a
 * record read from the wrong place or a file that lost records is detected, not replayed. 16 bytes
 * of framing are 10% of a 150-byte event. CRC32C is computed by a CPU instruction on x86 and ARM.
 *
 * <h2>Recovery</h2>
 *
 * {@link #open} verifies every file, oldest first: the header, then each record's checksum and
 * position (each one more than the last, across files). A killed process can leave the last write
 * unfinished; that write was never acknowledged. So when the first bad record is in the newest file
 * and no valid record follows it anywhere in that file (every byte offset is tried), the file is
 * truncated there and appends continue after the last whole record; {@link #recovery()} says what
 * was cut. Any other bad bytes are corruption: a bad record followed by a valid one, a bad record
 * in an older file, a bad header, or a missing file; {@link #open} then throws {@link
 * StorageCorruptedException} naming the file and the byte offset, and skips nothing.
 *
 * <p>A killed process loses nothing it acknowledged: written bytes are in the page cache. Power
 * loss can also drop written bytes that no fsync covered yet (never acknowledged with {@code
 * request}); should the disk have kept a later part of such a write and not an earlier one, the
 * result looks like a bad record followed by valid ones, and {@link #open} reports it as corruption
 * rather than guess.
 *
 * <h2>Writes and group commit</h2>
 *
 * An append encodes its records under a short lock, in position order, into a shared direct buffer;
 * the first caller to take the write lock writes everything buffered so far with one write, so the
 * records of concurrent callers share a write. {@link #append} is {@link #write} then {@link
 * #awaitDurable}; a caller that must order its appends under its own lock can write under it and
 * wait for durability after releasing it, and still share fsyncs. With {@link FsyncPolicy#REQUEST}
 * each caller then waits until an fsync ({@code fdatasync}) covers its last record: one waiting
 * caller (the leader) forces the file for every record written so far while the others wait, and
 * new records are written during that fsync and covered by the next, so concurrent appends share
 * fsyncs. A new file is created with an fsync of the directory, and the file it replaces is forced
 * before it is closed (except with {@link FsyncPolicy#NEVER}).
 *
 * <h2>Errors</h2>
 *
 * If a write or an fsync fails, the log no longer knows what reached the disk, so it fails: that
 * append and every later one throw {@link StorageFailedException}; {@link #open} recovers what is
 * on disk. A {@link FileChannel} closes when a thread is interrupted inside a read, write or force,
 * which fails the log too, so the threads that append must not be interrupted. The log clears a
 * pending interrupt before its own I/O and restores it after; waiting for an fsync is not
 * interruptible.
 *
 * <p>Thread-safe. {@link #replay} and {@link #truncateBefore} exclude each other; both may run
 * during appends.
 */
public final class WriteAheadLog implements Closeable {
  /** The default size at which a new file is started: 64 MiB. */
  public static final long DEFAULT_ROLL_BYTES = 64L << 20;

  /** The smallest roll size accepted. */
  public static final long MIN_ROLL_BYTES = 64;

  /** The largest record payload: 16 MiB. */
  public static final int MAX_RECORD_BYTES = 16 << 20;

  /** The largest encoded size of one append call, and of the records waiting for one write. */
  public static final int MAX_APPEND_BYTES = 256 << 20;

  private final Path dir;
  private final FsyncPolicy policy;
  private final boolean forces;
  private final long rollBytes;
  private final ChannelFactory io;
  private final Recovery recovery;
  private final DirectoryLock directoryLock;
  private final LogFiles files;
  private final GroupCommit commit;

  private final ReentrantLock bufferLock = new ReentrantLock();
  private RecordBuffer pending = new RecordBuffer(); // guarded by bufferLock
  private long nextSeq; // guarded by bufferLock
  private boolean closing; // guarded by bufferLock

  private final ReentrantLock ioLock = new ReentrantLock();
  private RecordBuffer spare = new RecordBuffer(); // guarded by ioLock
  private volatile LogFile current; // switched under ioLock holding the sync token
  private volatile long writtenSeq;
  private volatile boolean rollRequested;

  private WriteAheadLog(
      Path dir,
      FsyncPolicy policy,
      long rollBytes,
      ChannelFactory io,
      LogRecovery.Result recovered,
      DirectoryLock directoryLock) {
    this.dir = dir;
    this.policy = policy;
    this.forces = policy.mode() != FsyncPolicy.Mode.NEVER;
    this.rollBytes = rollBytes;
    this.io = io;
    this.recovery = recovered.report();
    this.directoryLock = directoryLock;
    this.files = new LogFiles(dir, io, forces, recovered.files());
    this.current = files.newest();
    this.nextSeq = recovered.lastSeq() + 1;
    this.writtenSeq = recovered.lastSeq();
    this.commit =
        new GroupCommit(
            dir,
            recovered.lastSeq(),
            new GroupCommit.Written() {
              @Override
              public long writtenSeq() {
                return writtenSeq;
              }

              @Override
              public LogFile current() {
                return current;
              }
            });
    if (policy.mode() == FsyncPolicy.Mode.INTERVAL) {
      commit.startPeriodic(policy.intervalMillis());
    }
  }

  /**
   * Opens (creating when missing) and recovers the log in a directory, with 64 MiB files.
   *
   * @param dir the log's directory, used by no other log
   * @param policy when to fsync
   * @return the open log
   * @throws StorageCorruptedException when the files hold bad bytes that are not a torn tail
   * @throws IOException when the directory cannot be read or written, or another log has it open
   */
  public static WriteAheadLog open(Path dir, FsyncPolicy policy) throws IOException {
    return open(dir, policy, DEFAULT_ROLL_BYTES);
  }

  /**
   * Opens (creating when missing) and recovers the log in a directory.
   *
   * @param dir the log's directory, used by no other log
   * @param policy when to fsync
   * @param rollBytes the file size at which a new file is started, at least {@link #MIN_ROLL_BYTES}
   * @return the open log
   * @throws StorageCorruptedException when the files hold bad bytes that are not a torn tail
   * @throws IOException when the directory cannot be read or written, or another log has it open
   */
  public static WriteAheadLog open(Path dir, FsyncPolicy policy, long rollBytes)
      throws IOException {
    return open(dir, policy, rollBytes, ChannelFactory.FILES);
  }

  static WriteAheadLog open(Path dir, FsyncPolicy policy, long rollBytes, ChannelFactory io)
      throws IOException {
    return open(dir, policy, rollBytes, io, 0);
  }

  /**
   * Opens (creating when missing) and recovers the log in a directory whose records up to a
   * position are kept elsewhere (in published segment files): a new log starts after that position,
   * and a log whose records all precede it (its newer files were lost) is replaced by an empty one
   * starting after it, so that positions are never reused.
   *
   * @param dir the log's directory, used by no other log
   * @param policy when to fsync
   * @param startAfter the last position kept elsewhere (0: none)
   * @return the open log
   * @throws StorageCorruptedException when the files hold bad bytes that are not a torn tail
   * @throws IOException when the directory cannot be read or written, or another log has it open
   */
  public static WriteAheadLog openAfter(Path dir, FsyncPolicy policy, long startAfter)
      throws IOException {
    return open(dir, policy, DEFAULT_ROLL_BYTES, ChannelFactory.FILES, startAfter);
  }

  static WriteAheadLog open(
      Path dir, FsyncPolicy policy, long rollBytes, ChannelFactory io, long startAfter)
      throws IOException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(policy, "policy");
    if (rollBytes < MIN_ROLL_BYTES) {
      throw new IllegalArgumentException(
          "the roll size must be at least " + MIN_ROLL_BYTES + " bytes, got " + rollBytes);
    }
    createDirectory(dir, policy, io);
    DirectoryLock lock = LogFiles.lock(dir);
    try {
      return recover(dir, policy, rollBytes, io, startAfter, lock);
    } catch (IOException | RuntimeException | Error e) {
      lock.close(); // releases the lock
      throw e;
    }
  }

  /**
   * Locks a log directory (creating it when missing), so that its owner can take the lock before it
   * reads or deletes anything around it, and open the log later with {@link #openAfter(Path,
   * FsyncPolicy, long, DirectoryLock)}.
   *
   * @param dir the log's directory
   * @param policy the fsync policy the log will have (whether a new directory is forced)
   * @return the lock
   * @throws IOException when the directory cannot be created, or another log has it open (the
   *     message names the directory and the holder)
   */
  public static DirectoryLock lock(Path dir, FsyncPolicy policy) throws IOException {
    createDirectory(dir, policy, ChannelFactory.FILES);
    return LogFiles.lock(dir);
  }

  /**
   * Like {@link #openAfter(Path, FsyncPolicy, long)}, in a directory the caller has locked with
   * {@link #lock}: the log owns the lock once it returns (and releases it on {@link #close}); when
   * it throws, the caller still does.
   *
   * @param dir the log's directory
   * @param policy when to fsync
   * @param startAfter the last position kept elsewhere (0: none)
   * @param lock the directory's lock, from {@link #lock}
   * @return the open log
   * @throws StorageCorruptedException when the files hold bad bytes that are not a torn tail
   * @throws IOException when the directory cannot be read or written
   */
  public static WriteAheadLog openAfter(
      Path dir, FsyncPolicy policy, long startAfter, DirectoryLock lock) throws IOException {
    return recover(dir, policy, DEFAULT_ROLL_BYTES, ChannelFactory.FILES, startAfter, lock);
  }

  private static void createDirectory(Path dir, FsyncPolicy policy, ChannelFactory io)
      throws IOException {
    if (!Files.isDirectory(dir)) {
      OwnerOnly.createDirectories(dir);
      Path parent = dir.toAbsolutePath().getParent();
      if (policy.mode() != FsyncPolicy.Mode.NEVER && parent != null) {
        io.syncDirectory(parent);
      }
    }
  }

  private static WriteAheadLog recover(
      Path dir,
      FsyncPolicy policy,
      long rollBytes,
      ChannelFactory io,
      long startAfter,
      DirectoryLock lock)
      throws IOException {
    boolean sync = policy.mode() != FsyncPolicy.Mode.NEVER;
    LogRecovery.Result recovered = LogRecovery.recover(dir, io, sync, startAfter);
    return new WriteAheadLog(dir, policy, rollBytes, io, recovered, lock);
  }

  /**
   * Appends one record.
   *
   * @param record the payload, at most {@link #MAX_RECORD_BYTES}
   * @return its position
   * @throws StorageFailedException when a write or fsync failed, now or before
   * @throws IllegalStateException when the log is closed
   */
  public long append(byte[] record) {
    return append(List.of(Objects.requireNonNull(record, "record")));
  }

  /**
   * Appends records, in order, and returns once they are durable per the {@link FsyncPolicy}: after
   * an fsync covering them ({@code request}), or after they are written to the file. The same as
   * {@link #write} and then {@link #awaitDurable}.
   *
   * @param records payloads, each at most {@link #MAX_RECORD_BYTES}, together at most {@link
   *     #MAX_APPEND_BYTES} encoded; not empty
   * @return the position of the last record; the others precede it (concurrent appends may
   *     interleave between calls, never within one)
   * @throws StorageFailedException when a write or fsync failed, now or before
   * @throws IllegalStateException when the log is closed
   */
  public long append(List<byte[]> records) {
    long last = write(records);
    awaitDurable(last);
    return last;
  }

  /**
   * The first half of {@link #append}: writes records to the file (not yet forced) and returns
   * their position, so that a caller can write under its own lock, in its own order, and wait for
   * the fsync after releasing it; concurrent callers then share fsyncs.
   *
   * @param records payloads, as for {@link #append(List)}
   * @return the position of the last record
   * @throws StorageFailedException when a write failed, now or before
   * @throws IllegalStateException when the log is closed
   */
  public long write(List<byte[]> records) {
    if (records.isEmpty()) {
      throw new IllegalArgumentException("no records to append");
    }
    long bytes = RecordBuffer.encodedBytes(records, MAX_RECORD_BYTES);
    if (bytes > MAX_APPEND_BYTES) {
      throw new IllegalArgumentException(
          "an append of " + bytes + " bytes is larger than " + MAX_APPEND_BYTES + "; split it");
    }
    long last;
    while (true) {
      long flushFirst;
      bufferLock.lock();
      try {
        if (closing) {
          throw new IllegalStateException("the write-ahead log in " + dir + " is closed");
        }
        if (commit.failed()) {
          throw commit.failure();
        }
        if (pending.isEmpty() || pending.bytes() + bytes <= MAX_APPEND_BYTES) {
          pending.add(records, nextSeq, (int) bytes);
          nextSeq += records.size();
          last = nextSeq - 1;
          break;
        }
        flushFirst = pending.lastSeq();
      } finally {
        bufferLock.unlock();
      }
      writeUpTo(flushFirst); // too much is waiting: write it before adding more
    }
    writeUpTo(last);
    return last;
  }

  /**
   * The second half of {@link #append}: returns once the record at a position (and every one before
   * it) is durable per the {@link FsyncPolicy}. With {@code request} that takes an fsync covering
   * it, shared with concurrent callers; with {@code interval} and {@code never} the write was all
   * the policy promises, so it returns at once.
   *
   * @param position a position returned by {@link #write}
   * @throws StorageFailedException when an fsync failed before this position was covered
   * @throws IllegalArgumentException when nothing was written at that position
   */
  public void awaitDurable(long position) {
    if (position > writtenSeq) {
      throw new IllegalArgumentException(
          "position " + position + " is not written (the last is " + writtenSeq + ")");
    }
    if (policy.mode() == FsyncPolicy.Mode.REQUEST) {
      commit.await(position);
    }
  }

  /**
   * Reads back every record after a position, in order: those written when the call starts.
   *
   * @param afterPosition the position after which to start; 0 for all
   * @param consumer receives each record
   * @throws StorageCorruptedException when a record fails verification
   * @throws IllegalArgumentException when records after {@code afterPosition} were truncated
   * @throws IOException when reading fails
   */
  public void replay(long afterPosition, RecordConsumer consumer) throws IOException {
    files.replay(afterPosition, writtenSeq, consumer);
  }

  /**
   * Starts a new file with the next record (unless the current one has none), whatever the roll
   * size: records written before this call and records written after it are then in different
   * files, so that the earlier ones can be deleted as a whole once they are kept elsewhere.
   */
  public void rollBeforeNextWrite() {
    rollRequested = true;
  }

  /**
   * Deletes the log files all of whose records are at or before a position; never the file being
   * written.
   *
   * @param position the last position that is safe elsewhere (in published segment files)
   * @throws IOException when a file cannot be deleted (the older ones are gone; a later call
   *     retries) or the directory cannot be synced
   */
  public void truncateBefore(long position) throws IOException {
    files.truncateBefore(position, current);
  }

  /**
   * @return the position of the last record written to the file (with {@code request} durable once
   *     its append returned); 0 when the log never had a record
   */
  public long lastPosition() {
    return writtenSeq;
  }

  /**
   * @return the position of the oldest record still kept, or {@link #lastPosition()} + 1 when none
   *     is
   */
  public long firstPosition() {
    return files.firstPosition();
  }

  /**
   * @return bytes of the log files, headers included
   */
  public long bytesOnDisk() {
    return files.bytes();
  }

  /**
   * @return what opening found and cut
   */
  public Recovery recovery() {
    return recovery;
  }

  /**
   * @return the log's directory
   */
  public Path directory() {
    return dir;
  }

  /**
   * @return the fsync policy
   */
  public FsyncPolicy policy() {
    return policy;
  }

  /**
   * Writes what callers already handed over, fsyncs (except with {@code never}) and closes. Later
   * appends throw {@link IllegalStateException}.
   *
   * @throws StorageFailedException when the final write or fsync fails (not when the log had failed
   *     before)
   * @throws IOException when the files cannot be closed
   */
  @Override
  public void close() throws IOException {
    long waiting;
    bufferLock.lock();
    try {
      if (closing) {
        return;
      }
      closing = true;
      waiting = pending.isEmpty() ? -1 : pending.lastSeq();
    } finally {
      bufferLock.unlock();
    }
    boolean failedBefore = commit.failed();
    StorageFailedException error = null;
    try {
      commit.stopPeriodic();
      if (waiting > 0) {
        writeUpTo(waiting);
      }
      if (forces) {
        commit.await(writtenSeq);
      }
    } catch (StorageFailedException e) {
      error = e;
    }
    try {
      ioLock.lock();
      try {
        commit.takeToken();
        try {
          current.close();
        } finally {
          commit.releaseToken(-1);
        }
      } finally {
        ioLock.unlock();
      }
    } finally {
      directoryLock.close(); // releases the lock
    }
    if (error != null && !failedBefore) {
      throw error;
    }
  }

  /** Writes the buffered records up to {@code seq} (and any after it) unless already written. */
  private void writeUpTo(long seq) {
    ioLock.lock();
    try {
      if (writtenSeq >= seq) {
        return;
      }
      if (commit.failed()) {
        throw commit.failure();
      }
      RecordBuffer batch;
      bufferLock.lock();
      try {
        batch = pending;
        pending = spare;
      } finally {
        bufferLock.unlock();
      }
      spare = null;
      boolean interrupted = Thread.interrupted();
      try {
        LogFile file = current;
        if (file.size() > LogFile.HEADER_BYTES
            && (rollRequested || file.size() + batch.bytes() > rollBytes)) {
          rollRequested = false;
          roll(batch.firstSeq());
          file = current;
        }
        long before = file.size();
        file.append(batch.forWriting());
        files.grew(file.size() - before);
        writtenSeq = batch.lastSeq();
      } catch (IOException | RuntimeException e) {
        commit.fail(e);
        throw commit.failure();
      } catch (Error e) {
        commit.fail(e);
        throw e;
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
        batch.clear();
        spare = batch;
      }
    } finally {
      ioLock.unlock();
    }
  }

  /** Starts a new file for records from {@code firstSeq}; the caller holds the ioLock. */
  private void roll(long firstSeq) throws IOException {
    commit.takeToken();
    long covered = writtenSeq;
    boolean done = false;
    try {
      LogFile old = current;
      if (forces) {
        old.force();
      }
      LogFile next = LogFile.create(io, dir, firstSeq, forces);
      files.add(next);
      current = next;
      old.close();
      done = true;
    } finally {
      commit.releaseToken(done && forces ? covered : -1);
    }
  }
}
