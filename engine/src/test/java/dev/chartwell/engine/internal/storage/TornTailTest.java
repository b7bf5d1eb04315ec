package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed during a write leaves a file that ends inside a record. Opening cuts the file at
 * the last whole record, whatever the byte it ends at, and appends continue from there.
 */
class TornTailTest {
  @TempDir Path tmp;

  @Test
  void aFileCutAtAnyByteOfItsLastRecordsKeepsExactlyTheWholeRecords() throws IOException {
    Path source = tmp.resolve("source");
    long[] ends = new long[7]; // ends[i]: file size with records 1..i
    try (WriteAheadLog wal = WriteAheadLog.open(source, FsyncPolicy.NEVER)) {
      ends[0] = wal.bytesOnDisk();
      for (int i = 1; i <= 6; i++) {
        wal.append(record(i));
        ends[i] = wal.bytesOnDisk();
      }
    }
    Path file = Records.logFiles(source).get(0);
    byte[] whole = Files.readAllBytes(file);
    assertEquals(ends[6], whole.length);
    // every length from the end of the header to the end of the file: cuts inside each record
    for (int length = LogFile.HEADER_BYTES; length <= whole.length; length++) {
      int kept = 0;
      while (kept < 6 && ends[kept + 1] <= length) {
        kept++;
      }
      Path dir = tmp.resolve("cut-" + length);
      Files.createDirectories(dir);
      Files.write(dir.resolve(file.getFileName()), Arrays.copyOf(whole, length));
      try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.NEVER)) {
        assertEquals(kept, wal.lastPosition(), "cut at " + length);
        assertEquals(length - ends[kept], wal.recovery().bytesCut(), "cut at " + length);
        assertEquals(ends[kept], Files.size(dir.resolve(file.getFileName())), "cut at " + length);
        if (length > ends[kept]) {
          assertTrue(wal.recovery().cut().contains("offset " + ends[kept]), wal.recovery().cut());
        }
        checkRecords(wal, kept);
        assertEquals(kept + 1, wal.append(record(kept + 1)));
        assertEquals(kept + 3, wal.append(List.of(record(kept + 2), record(kept + 3))));
      }
      try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.NEVER)) {
        assertEquals("", wal.recovery().cut());
        checkRecords(wal, kept + 3);
      }
    }
  }

  @Test
  void aNewestFileWithAnIncompleteHeaderGetsItsHeaderBack() throws IOException {
    Path source = tmp.resolve("source");
    try (WriteAheadLog wal = WriteAheadLog.open(source, FsyncPolicy.NEVER, 100)) {
      for (int i = 1; i <= 4; i++) {
        wal.append(record(i));
      }
    }
    List<Path> files = Records.logFiles(source);
    assertTrue(files.size() >= 2);
    Path newest = files.get(files.size() - 1);
    long firstOfNewest = LogFile.parseName(newest.getFileName().toString());
    byte[] bytes = Files.readAllBytes(newest);
    for (int length = 0; length < LogFile.HEADER_BYTES; length++) {
      Path dir = tmp.resolve("header-" + length);
      Files.createDirectories(dir);
      for (Path f : files) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
      Files.write(dir.resolve(newest.getFileName()), Arrays.copyOf(bytes, length));
      try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.NEVER, 100)) {
        assertEquals(firstOfNewest - 1, wal.lastPosition());
        assertTrue(wal.recovery().cut().contains("header"), wal.recovery().cut());
        checkRecords(wal, firstOfNewest - 1);
        wal.append(record(firstOfNewest));
      }
      try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.NEVER, 100)) {
        checkRecords(wal, firstOfNewest);
      }
    }
  }

  @Test
  void aWholeLastRecordWithABadChecksumAndNothingAfterItIsATornTail() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.NEVER)) {
      for (int i = 1; i <= 3; i++) {
        wal.append(record(i));
      }
    }
    Path file = Records.logFiles(tmp).get(0);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 1] ^= 1;
    Files.write(file, bytes);
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.NEVER)) {
      assertEquals(2, wal.lastPosition());
      assertTrue(wal.recovery().cut().contains("checksum"), wal.recovery().cut());
    }
  }

  /** Records of 0 to 40 bytes, so that the file is small and every offset is tried. */
  static byte[] record(long position) {
    return Records.payload(position, (int) (position * 13 % 41));
  }

  static void checkRecords(WriteAheadLog wal, long last) throws IOException {
    long[] next = {1};
    wal.replay(
        0,
        (p, r) -> {
          assertEquals(next[0]++, p);
          assertTrue(Arrays.equals(record(p), r), "record " + p);
        });
    assertEquals(last + 1, next[0]);
  }
}
