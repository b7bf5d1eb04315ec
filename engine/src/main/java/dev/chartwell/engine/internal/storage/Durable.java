package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file-system steps that make a write survive a crash: write to a temporary name, force the
 * file, rename it over the target atomically, force the directory (so the rename itself is
 * durable).
 */
public final class Durable {
  private Durable() {}

  /**
   * @param tmp the temporary name, in the target's directory
   * @param target the final name
   * @param content the bytes
   * @throws IOException when any step fails (the target is then unchanged)
   */
  static void writeAtomically(Path tmp, Path target, ByteBuffer content) throws IOException {
    writeAtomically(
        tmp,
        target,
        ch -> {
          while (content.hasRemaining()) {
            ch.write(content);
          }
        },
        true);
  }

  /** Writes a file's content to a channel. */
  @FunctionalInterface
  interface Writer {
    /**
     * @param ch the new file, open for writing at position 0
     * @throws IOException when writing fails
     */
    void write(FileChannel ch) throws IOException;
  }

  /**
   * @param tmp the temporary name, in the target's directory
   * @param target the final name
   * @param content writes the file
   * @param force whether to force the file and the directory (else the OS writes them back)
   * @throws IOException when any step fails (the target is then unchanged)
   */
  static void writeAtomically(Path tmp, Path target, Writer content, boolean force)
      throws IOException {
    try (FileChannel ch =
        OwnerOnly.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      content.write(ch);
      if (force) {
        ch.force(true);
      }
    }
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    if (force) {
      forceDirectory(target.getParent());
    }
  }

  /**
   * Forces a directory's entries (new, renamed and deleted files) to disk.
   *
   * @param dir the directory
   * @throws IOException when forcing fails
   */
  static void forceDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  /**
   * Deletes a directory and everything under it, deepest first, and forces its parent.
   *
   * @param root the directory (nothing happens when it does not exist)
   * @throws IOException when something cannot be deleted
   */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
    Path parent = root.toAbsolutePath().getParent();
    if (parent != null) {
      forceDirectory(parent);
    }
  }
}
