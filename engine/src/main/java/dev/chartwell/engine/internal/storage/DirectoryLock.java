package dev.chartwell.engine.internal.storage;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lock that gives one owner a directory: a lock file in it, locked with an operating-system
 * lock for other processes, and an entry in a JVM-wide registry for this process. The engine's data
 * directory ({@code engine.lock}), each write-ahead log ({@code wal.lock}) and the server's data
 * directory ({@code chartwell.lock}) are taken this way, before anything in the directory is read,
 * deleted or recovered.
 *
 * <p><b>Why a registry.</b> The operating system's locks on a file belong to the process, not to
 * the channel that took them, and closing <em>any</em> descriptor of the file releases them (POSIX
 * {@code fcntl} semantics, which Java's {@link FileLock} uses on Linux and macOS). An open that is
 * refused in the same process must therefore never open, let alone close, a channel on a lock file
 * the process holds: that close would silently release the holder's lock and let another process
 * in. So an open looks in the registry first, and opens a channel on the lock file only when no one
 * in this process holds it.
 *
 * <p>The registry is the only static state the engine keeps. It is keyed by the directory's
 * identity on disk (device and inode, where the file system reports them; else its real path) and
 * the lock file's name, so that a second path to the same directory (a symbolic link, a bind mount)
 * finds the entry. An entry lives from a successful {@link #acquire} to {@link #close}; an engine
 * whose build fails closes what it took.
 *
 * <p>The holder writes its process id into the lock file, so that a refused open can name it: "in
 * this process" when the registry refused it, or the process id read from the file when the
 * operating system did.
 */
public final class DirectoryLock implements Closeable {
  /** The locks this process holds, by directory identity and lock file name. */
  private static final Map<Key, DirectoryLock> HELD = new HashMap<>(); // guarded by itself

  /**
   * Channels that must stay open forever: a lock on their file is held in this process outside the
   * registry (by code other than ours), and closing them would release it.
   */
  private static final List<FileChannel> NEVER_CLOSED = new ArrayList<>(); // guarded by HELD

  private record Key(Object directory, String file) {}

  private final Key key;
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final Instant since;
  private final String thread;
  private boolean closed; // guarded by HELD

  private DirectoryLock(Key key, Path file, FileChannel channel, FileLock lock) {
    this.key = key;
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.since = Instant.now();
    this.thread = Thread.currentThread().getName();
  }

  /**
   * Creates the directory when missing and takes its lock, or says who holds it.
   *
   * @param dir the directory
   * @param lockFile the lock file's name in it
   * @param refusal the start of the refusal's message, naming the directory and what it is (for
   *     example "the data directory /data is in use by another engine"); the holder is added
   * @return the lock, held until {@link #close}
   * @throws IOException when the directory cannot be created or the lock file written, or the lock
   *     is held: in this process, or by another process (named by the process id it recorded)
   */
  public static DirectoryLock acquire(Path dir, String lockFile, String refusal)
      throws IOException {
    OwnerOnly.createDirectories(dir);
    Path real = dir.toRealPath();
    Object identity = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
    Key key = new Key(identity != null ? identity : real, lockFile);
    Path file = real.resolve(lockFile);
    synchronized (HELD) {
      DirectoryLock held = HELD.get(key);
      if (held != null) {
        // No channel is opened on the file: closing it would release the holder's lock.
        throw new IOException(
            refusal
                + " (held in this process, pid "
                + ProcessHandle.current().pid()
                + ", since "
                + held.since
                + " by thread "
                + held.thread
                + "; "
                + held.file
                + " is locked)");
      }
      FileChannel channel =
          OwnerOnly.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        NEVER_CLOSED.add(channel);
        throw new IOException(
            refusal + " (held in this process, outside Chartwell's registry; " + file + ")", e);
      } catch (IOException | RuntimeException e) {
        channel.close(); // this process holds no lock on the file: the registry says so
        throw e;
      }
      if (lock == null) {
        String holder;
        try {
          holder = recordedHolder(channel, file);
        } finally {
          channel.close(); // the lock is another process's: closing this releases nothing
        }
        throw new IOException(refusal + " (" + holder + ")");
      }
      DirectoryLock taken = new DirectoryLock(key, file, channel, lock);
      try {
        taken.recordHolder();
      } catch (IOException | RuntimeException e) {
        channel.close(); // releases the lock just taken; no one else here holds one
        throw e;
      }
      HELD.put(key, taken);
      return taken;
    }
  }

  /** Writes this process's id into the lock file, never leaving it empty while locked. */
  private void recordHolder() throws IOException {
    byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.wrap(pid);
    long at = 0;
    while (b.hasRemaining()) {
      at += channel.write(b, at);
    }
    channel.truncate(pid.length);
  }

  /** Who holds a lock file another process has locked, as it recorded itself. */
  private static String recordedHolder(FileChannel channel, Path file) {
    ByteBuffer b = ByteBuffer.allocate(32);
    try {
      while (b.hasRemaining() && channel.read(b, b.position()) > 0) {
        // read what there is, up to 32 bytes
      }
    } catch (IOException e) {
      return "held by another process; " + file + " could not be read: " + e.getMessage();
    }
    String text = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
      return "held by the process with pid " + text + ", as recorded in " + file;
    }
    return "held by another process, which recorded no pid in " + file;
  }

  /**
   * @return the lock file, by its real path
   */
  public Path file() {
    return file;
  }

  /** Releases the lock and the registry's entry; closing twice does nothing. */
  @Override
  public void close() throws IOException {
    synchronized (HELD) {
      if (closed) {
        return;
      }
      closed = true;
      try {
        lock.release();
      } finally {
        try {
          channel.close();
        } finally {
          HELD.remove(key);
        }
      }
    }
  }
}
