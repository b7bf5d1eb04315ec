package dev.chartwell.server.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.internal.storage.Manifest;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.engine.internal.storage.SourceBackup;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A folder of backups ({@code --backup-dir}, or {@code backup --to}):
 *
 * <pre>
 * segments/&lt;source id&gt;/&lt;segment&gt;-&lt;fingerprint&gt;.seg   segment files, shared by every backup
 * backups/&lt;backup id&gt;/backup.json                    what the backup holds (written last)
 * backups/&lt;backup id&gt;/engine/sources/&lt;id&gt;/          each source's manifest and log
 * backups/&lt;backup id&gt;/state/*.dat                    the management stores, written afresh
 * backups/&lt;backup id&gt;/secrets.key, secrets.check     the server's key
 * </pre>
 *
 * Segment files never change under their name, so a backup into a folder that holds earlier ones
 * writes only the segment files they lack (an incremental backup); a segment is linked (a hard
 * link, no copy) when the folder is on the data directory's file system.
 */
public final class BackupTarget {
  /** The shared segment files. */
  static final String SEGMENTS = "segments";

  /** The backups, one folder each. */
  static final String BACKUPS = "backups";

  /** A backup's description, written last: a folder without one is not a backup. */
  static final String DESCRIPTION = "backup.json";

  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final Path root;
  private final ObjectMapper mapper;

  /**
   * @param root the folder (created when a backup is written)
   * @param mapper the JSON codec
   */
  public BackupTarget(Path root, ObjectMapper mapper) {
    this.root = root.toAbsolutePath().normalize();
    this.mapper = mapper;
  }

  /**
   * @return the folder
   */
  public Path root() {
    return root;
  }

  /**
   * @return every complete backup's description, oldest first
   * @throws IOException when the folder cannot be read
   */
  public List<ObjectNode> list() throws IOException {
    List<ObjectNode> out = new ArrayList<>();
    Path backups = root.resolve(BACKUPS);
    if (!Files.isDirectory(backups)) {
      return out;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(backups)) {
      for (Path d : dirs) {
        Path description = d.resolve(DESCRIPTION);
        if (UUID.matcher(d.getFileName().toString()).matches()
            && Files.isRegularFile(description)) {
          out.add((ObjectNode) mapper.readTree(description.toFile()));
        }
      }
    }
    out.sort(Comparator.comparing((ObjectNode n) -> n.path("startedAt").asText()));
    return out;
  }

  /**
   * @param id a backup id
   * @return its description, if the folder holds that backup complete
   * @throws IOException when it cannot be read
   */
  public Optional<ObjectNode> get(String id) throws IOException {
    if (!UUID.matcher(id).matches()) {
      return Optional.empty();
    }
    Path description = root.resolve(BACKUPS).resolve(id).resolve(DESCRIPTION);
    if (!Files.isRegularFile(description)) {
      return Optional.empty();
    }
    return Optional.of((ObjectNode) mapper.readTree(description.toFile()));
  }

  /**
   * @param id a backup id
   * @return its folder
   */
  Path backup(String id) {
    return root.resolve(BACKUPS).resolve(id);
  }

  /**
   * @param sourceId a source
   * @param file the segment file's name in its manifest
   * @param fingerprint its fingerprint
   * @return where the folder keeps it
   */
  Path segment(String sourceId, String file, String fingerprint) {
    String stem = file.endsWith(".seg") ? file.substring(0, file.length() - 4) : file;
    return root.resolve(SEGMENTS).resolve(sourceId).resolve(stem + "-" + fingerprint + ".seg");
  }

  /** Stores segment files, each once: linked when possible, else copied. */
  final class Sink implements SourceBackup.SegmentSink {
    private int reused;
    private long written;

    @Override
    public void put(
        String sourceId,
        Manifest.SegmentEntry entry,
        String fingerprint,
        Path live,
        FileChannel open)
        throws IOException {
      Path dest = segment(sourceId, entry.file(), fingerprint);
      if (Files.isRegularFile(dest) && Files.size(dest) == entry.length()) {
        reused++;
        return; // an earlier backup holds it
      }
      OwnerOnly.createDirectories(dest.getParent());
      Path tmp = dest.resolveSibling(dest.getFileName() + ".tmp");
      Files.deleteIfExists(tmp);
      long copied = linkOrCopy(live, open, entry.length(), tmp);
      Files.move(tmp, dest, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      written += copied;
    }

    /**
     * @return the bytes of segment files copied (not linked, not already held)
     */
    long written() {
      return written;
    }

    /**
     * @return how many segment files earlier backups already held
     */
    int reused() {
      return reused;
    }
  }

  /**
   * Links {@code to} to the file {@code live} when both are on one file system and the file is
   * still there, else copies its first {@code length} bytes from {@code open}.
   *
   * @return the bytes copied (0 for a link)
   */
  static long linkOrCopy(Path live, FileChannel open, long length, Path to) throws IOException {
    try {
      Files.createLink(to, live);
      if (Files.size(to) == length) {
        return 0;
      }
      Files.delete(to); // another file took the name meanwhile
    } catch (NoSuchFileException | UnsupportedOperationException e) {
      // gone since the capture, or no hard links here: copy what the open file holds
    } catch (IOException e) {
      if (Files.exists(to)) {
        throw e;
      }
      // another file system (EXDEV) or links not permitted: copy
    }
    return SourceBackup.copyPrefix(open, length, to);
  }
}
