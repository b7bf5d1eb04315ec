package dev.chartwell.server.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code --data-dir}: created when missing and locked for the life of the server, so that two
 * servers never share (and corrupt each other's view of) the same state.
 */
public final class DataDirectory implements AutoCloseable {
  private final Path root;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private DataDirectory(Path root, FileChannel lockChannel, FileLock lock) {
    this.root = root;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /**
   * @param root the directory
   * @return the opened, locked directory
   * @throws IOException with a one-line reason when it cannot be created, written or locked
   */
  public static DataDirectory open(Path root) throws IOException {
    Path dir = root.toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IOException("cannot create data directory " + dir + ": " + e.getMessage(), e);
    }
    if (!Files.isWritable(dir)) {
      throw new IOException("data directory " + dir + " is not writable");
    }
    FileChannel channel =
        FileChannel.open(
            dir.resolve("chartwell.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new IOException("data directory " + dir + " is in use by another Chartwell server");
    }
    return new DataDirectory(dir, channel, lock);
  }

  /**
   * @return the absolute directory
   */
  public Path root() {
    return root;
  }

  @Override
  public void close() throws IOException {
    lock.release();
    lockChannel.close();
  }
}
