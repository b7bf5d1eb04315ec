package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The kernel's readahead for the disk a data directory is on (Linux). Segment files are read
 * through memory mappings, and on a page fault the kernel reads up to the readahead around the
 * page. With the 128 KB most disks have, a query that touches a few pages of a file reads about
 * that; some virtual machines set 8 MB, and then every touched page of a file not in memory pulls
 * in 8 MB: with more data than memory, a restart read 61 GB to open a billion events' 3,815 files
 * (63 s, against 1.5 s at 128 KB), and queries kept rereading whole files. The engine cannot advise
 * the kernel per mapping from Java 17, so it explains the setting instead: once per data directory
 * (until the setting changes), at {@code INFO}, as a note on speed, not as a command (nothing is
 * wrong, and whether to change a disk's setting is the machine owner's choice).
 */
final class ReadAhead {
  /** Above this the engine says what the setting means. */
  static final long NOTE_KB = 1024;

  private ReadAhead() {}

  /**
   * @param dir a directory
   * @return the note to log about it, if its disk reads ahead more than {@link #NOTE_KB}
   */
  static Optional<String> note(Path dir) {
    return setting(dir).map(x -> message(dir, x.device(), x.kb()));
  }

  /** A disk's read-ahead, when it is above {@link #NOTE_KB}. */
  private record Setting(String device, long kb) {}

  private static Optional<Setting> setting(Path dir) {
    return device(dir)
        .flatMap(
            name -> {
              OptionalLong kb = kilobytes(Path.of("/sys/class/block", name));
              return kb.isEmpty() || kb.getAsLong() <= NOTE_KB
                  ? Optional.empty()
                  : Optional.of(new Setting(name, kb.getAsLong()));
            });
  }

  static String message(Path dir, String device, long kb) {
    return "note on read speed: the disk of "
        + dir
        + " ("
        + device
        + ") has a read-ahead of "
        + kb
        + " KB: each time a query touches a part of a segment file that is not in memory, the"
        + " kernel reads "
        + kb
        + " KB of that file around it (most disks read 128 KB). Only queries over data that is not"
        + " in memory take longer; nothing is wrong and no data is at risk. Lowering"
        + " /sys/class/block/"
        + device
        + "/queue/read_ahead_kb is optional (docs/storage.md). Said once per data directory.";
  }

  /**
   * The note, once per data directory and setting: a file in the directory records the disk and
   * read-ahead it was given for, so later starts say nothing until the setting changes.
   *
   * @param dir a (locked) data directory
   * @return the note to log now, if any
   */
  static Optional<String> noteOnce(Path dir) {
    Optional<Setting> setting = setting(dir);
    Path marker = dir.resolve(NOTED);
    try {
      if (setting.isEmpty()) {
        Files.deleteIfExists(marker);
        return Optional.empty();
      }
      String said = setting.get().device() + " " + setting.get().kb();
      if (Files.exists(marker) && Files.readString(marker).equals(said)) {
        return Optional.empty();
      }
      try (FileChannel ch =
          OwnerOnly.open(
              marker,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(said.getBytes(StandardCharsets.UTF_8)));
      }
    } catch (IOException | RuntimeException e) {
      // A read-only or odd directory: say it every time rather than never.
    }
    return setting.map(x -> message(dir, x.device(), x.kb()));
  }

  /** The file that records the note was given. */
  static final String NOTED = "read-ahead-noted";

  /** The block device holding a directory, as named under {@code /sys/class/block}. */
  private static Optional<String> device(Path dir) {
    try {
      String store = Files.getFileStore(dir).name(); // "/dev/vda1", or "overlay", "tmpfs", ...
      if (!store.startsWith("/dev/")) {
        return Optional.empty();
      }
      Path real = Path.of(store).toRealPath(); // /dev/mapper/x -> /dev/dm-0
      return Optional.of(real.getFileName().toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // not Linux, or not a plain block device: nothing to say
    }
  }

  /**
   * @param block a device's folder under {@code /sys/class/block}
   * @return its readahead, or its disk's for a partition; empty when there is none to read
   */
  static OptionalLong kilobytes(Path block) {
    try {
      Path own = block.resolve("queue/read_ahead_kb");
      if (Files.isReadable(own)) {
        return OptionalLong.of(Long.parseLong(Files.readString(own).trim()));
      }
      Path disk = block.toRealPath().getParent().resolve("queue/read_ahead_kb");
      if (Files.isReadable(disk)) {
        return OptionalLong.of(Long.parseLong(Files.readString(disk).trim()));
      }
    } catch (IOException | RuntimeException e) {
      // no such device folder, or not a number: nothing to say
    }
    return OptionalLong.empty();
  }
}
