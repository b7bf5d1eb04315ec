package dev.chartwell.server.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.engine.internal.storage.SourceBackup;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Makes a new data directory from a backup: the management stores and the secrets key as the backup
 * holds them, and each source's manifest, log and segment files (linked from the backup folder when
 * it is on the same file system, else copied). A server started on it serves exactly what the
 * backup holds.
 */
public final class Restorer {
  private final BackupTarget target;

  /**
   * @param target the folder of backups
   */
  public Restorer(BackupTarget target) {
    this.target = target;
  }

  /**
   * @param id the backup, or empty for the newest
   * @param dataDir the new data directory: missing or empty
   * @return the restored backup's description
   * @throws IOException naming the problem: no such backup, a directory that is not empty, a
   *     segment file the folder lacks, or a failed copy
   */
  public ObjectNode restore(Optional<String> id, Path dataDir) throws IOException {
    ObjectNode description = pick(id);
    Path dir = dataDir.toAbsolutePath().normalize();
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new IOException(dir + " is not a directory");
      }
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IOException(
              dir + " is not empty: restore into a new or empty directory, never over data");
        }
      }
    }
    OwnerOnly.createDirectories(dir);
    try {
      Path backup = target.backup(description.get("id").asText());
      copyFlat(backup.resolve("state"), dir);
      copyFlat(backup, dir); // secrets.key, secrets.check
      Path sources = OwnerOnly.createDirectories(dir.resolve("engine").resolve("sources"));
      for (JsonNode s : description.path("sources")) {
        String sourceId = s.get("id").asText();
        Path from = backup.resolve("engine").resolve("sources").resolve(sourceId);
        Path to = OwnerOnly.createDirectories(sources.resolve(sourceId));
        copyFlat(from, to); // the manifest
        copyFlat(from.resolve("wal"), OwnerOnly.createDirectories(to.resolve("wal")));
        Path segments = OwnerOnly.createDirectories(to.resolve("segments"));
        for (JsonNode seg : s.path("segments")) {
          String file = seg.get("file").asText();
          Path stored = target.segment(sourceId, file, seg.get("fingerprint").asText());
          if (!Files.isRegularFile(stored) || Files.size(stored) != seg.get("length").asLong()) {
            throw new IOException(
                "the backup folder lacks segment file "
                    + stored
                    + " of source "
                    + sourceId
                    + " (or it has another length): the backup cannot be restored whole");
          }
          try (FileChannel in = FileChannel.open(stored, StandardOpenOption.READ)) {
            BackupTarget.linkOrCopy(stored, in, in.size(), segments.resolve(file));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          e.getMessage() + "; " + dir + " is incomplete: delete it before restoring again", e);
    }
    return description;
  }

  private ObjectNode pick(Optional<String> id) throws IOException {
    if (id.isPresent()) {
      return target
          .get(id.get())
          .orElseThrow(
              () ->
                  new IOException(
                      "backup " + id.get() + " is not in " + target.root() + " (or not complete)"));
    }
    List<ObjectNode> all = target.list();
    if (all.isEmpty()) {
      throw new IOException(target.root() + " holds no backup");
    }
    return all.get(all.size() - 1);
  }

  /** Copies the regular files of a folder (not its folders, not lock files) into another. */
  private static void copyFlat(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(from, Files::isRegularFile)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (name.endsWith(".lock") || name.equals(BackupTarget.DESCRIPTION)) {
          continue;
        }
        try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
          SourceBackup.copyPrefix(in, in.size(), to.resolve(name));
        }
      }
    }
  }
}
