package dev.chartwell.server.store;

import dev.chartwell.engine.internal.storage.DirectoryLock;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

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
      OwnerOnly.createDirectories(dir);
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
   * Makes every file and folder under the directory owner-only (0600 and 0700), as this version
   * creates them: earlier versions left them as the umask made them (usually 0644 and 0755). The
   * directory itself is left as it is (it may have been made by its owner on purpose); see {@link
   * #isOpenToOthers()}.
   *
   * @return how many files and folders were tightened
   * @throws IOException when one cannot be read or changed
   */
  public int tightenPermissions() throws IOException {
    int[] tightened = {0};
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            tighten(dir);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (attrs.isRegularFile()) {
              tighten(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE; // deleted meanwhile (a shared engine at work)
            }
            throw e;
          }

          private void tighten(Path p) throws IOException {
            try {
              if (!p.equals(root) && OwnerOnly.isOpenToOthers(p)) {
                OwnerOnly.restrict(p);
                tightened[0]++;
              }
            } catch (NoSuchFileException e) {
              // deleted meanwhile
            }
          }
        });
    return tightened[0];
  }

  /**
   * @return whether users other than the owner may enter the directory (it was made by someone
   *     else, or before this version: Chartwell creates it 0700)
   * @throws IOException when its permissions cannot be read
   */
  public boolean isOpenToOthers() throws IOException {
    return OwnerOnly.isOpenToOthers(root);
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
