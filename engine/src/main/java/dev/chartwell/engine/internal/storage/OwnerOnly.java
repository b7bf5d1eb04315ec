package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and folders that only their owner may read: every file Chartwell creates is 0600 and every
 * folder 0700, whatever the process' umask, because events, logs and secrets live there. On a file
 * system without POSIX permissions (Windows) the calls create with the platform's defaults.
 */
public final class OwnerOnly {
  /** rw------- */
  public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  /** rwx------ */
  public static final Set<PosixFilePermission> FOLDER =
      PosixFilePermissions.fromString("rwx------");

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private OwnerOnly() {}

  /**
   * Creates a folder and any missing parents, each created one owner-only (folders that already
   * exist keep their permissions).
   *
   * @param dir the folder
   * @return the folder
   * @throws IOException when it cannot be created
   */
  public static Path createDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return dir;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      createDirectories(parent);
    }
    try {
      if (POSIX) {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(FOLDER));
        restrict(dir, FOLDER); // the umask may have narrowed it further, never widened it
      } else {
        Files.createDirectory(dir);
      }
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(dir)) {
        throw e;
      }
    }
    return dir;
  }

  /**
   * Opens a file channel, creating the file owner-only when the options create it.
   *
   * @param file the file
   * @param options how to open it
   * @return the channel
   * @throws IOException when it cannot be opened
   */
  public static FileChannel open(Path file, OpenOption... options) throws IOException {
    return POSIX
        ? FileChannel.open(file, Set.of(options), fileAttribute())
        : FileChannel.open(file, options);
  }

  /**
   * The attribute that creates a file owner-only, for the {@code Files} methods that take one.
   *
   * @return rw------- as a creation attribute (no attribute on non-POSIX file systems)
   */
  public static FileAttribute<?>[] fileAttributes() {
    return POSIX ? new FileAttribute<?>[] {fileAttribute()} : new FileAttribute<?>[0];
  }

  private static FileAttribute<Set<PosixFilePermission>> fileAttribute() {
    return PosixFilePermissions.asFileAttribute(FILE);
  }

  /**
   * Sets a path's permissions to owner-only (a file 0600, a folder 0700), for files that a library
   * creates with its own defaults.
   *
   * @param path a file or folder
   * @throws IOException when the permissions cannot be set
   */
  public static void restrict(Path path) throws IOException {
    restrict(path, Files.isDirectory(path) ? FOLDER : FILE);
  }

  private static void restrict(Path path, Set<PosixFilePermission> permissions) throws IOException {
    PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
    if (view != null && !view.readAttributes().permissions().equals(permissions)) {
      view.setPermissions(permissions);
    }
  }

  /**
   * Whether a path is readable by anyone but its owner (group or others have any permission).
   *
   * @param path a file or folder
   * @return true when it is more open than owner-only; false on non-POSIX file systems
   * @throws IOException when its permissions cannot be read
   */
  public static boolean isOpenToOthers(Path path) throws IOException {
    PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
    if (view == null) {
      return false;
    }
    for (PosixFilePermission p : view.readAttributes().permissions()) {
      if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
        return true;
      }
    }
    return false;
  }
}
