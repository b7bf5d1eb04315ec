package dev.chartwell.server.store;

import dev.chartwell.engine.internal.storage.DirectoryLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code --data-dir}: created when missing and locked for the life of the server, so that two
 * servers never share (and corrupt each other's view of) the same state. The lock is the engine's
 * {@link DirectoryLock}: a second open in this process is refused without touching the lock file
 * (closing a channel on it would release the lock), and every refusal names the holder.
 */
public final class DataDirectory implements AutoCloseable {
  private final Path root;
  private final DirectoryLock lock;

  private DataDirectory(Path root, DirectoryLock lock) {
    this.root = root;
    this.lock = lock;
  }

  /**
   * @param root the directory
   * @return the opened, locked directory
   * @throws IOException with a one-line reason when it cannot be created, written or locked (naming
   *     the holder: this process, or the process id recorded in {@code chartwell.lock})
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
    DirectoryLock lock =
        DirectoryLock.acquire(
            dir,
            "chartwell.lock",
            "data directory " + dir + " is in use by another Chartwell server");
    return new DataDirectory(dir, lock);
  }

  /**
   * @return the absolute directory
   */
  public Path root() {
    return root;
  }

  @Override
  public void close() throws IOException {
    lock.close();
  }
}
