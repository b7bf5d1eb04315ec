package dev.chartwell.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Bytes on disk as the benchmarks count them: every regular file under a folder, read by size. */
public final class DiskUse {
  private DiskUse() {}

  /**
   * @param dir a folder
   * @return the bytes of every regular file under it
   * @throws IOException when the folder cannot be walked
   */
  public static long bytesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      long total = 0;
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }
}
