package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Test records whose bytes follow from their position, and helpers to check a log. */
final class Records {
  private Records() {}

  /**
   * @param position the position the record gets
   * @param size its length
   * @return bytes that identify the position
   */
  static byte[] payload(long position, int size) {
    byte[] b = new byte[size];
    long x = position * 0x9E3779B97F4A7C15L;
    for (int i = 0; i < size; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      b[i] = (byte) x;
    }
    return b;
  }

  /** A size that varies with the position: 0 to 299 bytes. */
  static int sizeOf(long position) {
    return (int) ((position * 7919) % 300);
  }

  /** The standard record for a position. */
  static byte[] of(long position) {
    return payload(position, sizeOf(position));
  }

  /** Replays everything after a position and checks each record is the standard one. */
  static long checkReplay(WriteAheadLog wal, long after, long last) throws IOException {
    List<Long> seen = new ArrayList<>();
    wal.replay(
        after,
        (p, r) -> {
          assertArrayEquals(of(p), r, "record " + p);
          seen.add(p);
        });
    assertEquals(last - after, seen.size(), "records after " + after);
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(after + 1 + i, seen.get(i));
    }
    return seen.size();
  }

  /** Replays everything and checks the positions run from 1 to {@code last}. */
  static void checkReplayPositions(WriteAheadLog wal, long last) throws IOException {
    long[] next = {1};
    wal.replay(0, (p, r) -> assertEquals(next[0]++, p));
    assertEquals(last + 1, next[0]);
  }

  /** Appends standard records for the next positions. */
  static long appendStandard(WriteAheadLog wal, int count) {
    long first = wal.lastPosition() + 1;
    List<byte[]> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      batch.add(of(first + i));
    }
    long last = wal.append(batch);
    assertEquals(first + count - 1, last);
    return last;
  }

  /** The log files of a directory, oldest first. */
  static List<Path> logFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> LogFile.parseName(p.getFileName().toString()) >= 0).sorted().toList();
    }
  }

  /** The bytes of the log files of a directory. */
  static long sizeOnDisk(Path dir) throws IOException {
    long n = 0;
    for (Path p : logFiles(dir)) {
      n += Files.size(p);
    }
    return n;
  }
}
