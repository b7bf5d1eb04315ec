package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * and process, at {@code INFO}, as a note on speed, not as a command (nothing is wrong, and whether
 * to change a disk's setting is the machine owner's choice).
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
    return device(dir)
        .flatMap(
            name -> {
              OptionalLong kb = kilobytes(Path.of("/sys/class/block", name));
              if (kb.isEmpty() || kb.getAsLong() <= NOTE_KB) {
                return Optional.empty();
              }
              return Optional.of(message(dir, name, kb.getAsLong()));
            });
  }

  static String message(Path dir, String device, long kb) {
    return "note on read speed: the disk of "
        + dir
        + " ("
        + device
        + ") has a read-ahead of "
        + kb
        + " KB, which means that each time a query touches a part of a segment file that is not"
        + " in memory, the kernel reads "
        + kb
        + " KB of that file around it. Segment files are read through memory mappings, so once"
        + " the data outgrows the memory, queries over files not read recently (and the first"
        + " start after a reboot) read far more from disk than they use and take longer; most"
        + " disks read ahead 128 KB, about what a query needs. Nothing is wrong and no data is at"
        + " risk: lowering the setting (/sys/class/block/"
        + device
        + "/queue/read_ahead_kb, see docs/storage.md) is optional and only speeds up queries over"
        + " data that is not in memory. (Logged once per data directory and process.)";
  }

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
