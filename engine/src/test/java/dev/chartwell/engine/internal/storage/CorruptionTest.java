package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad bytes that a torn write cannot explain are reported with the file and offset, never skipped:
 * a flipped byte anywhere in a record that valid records follow, in the last record of an older
 * file, in any file header, and a missing file.
 */
class CorruptionTest {
  @TempDir Path tmp;

  @Test
  void aFlippedByteAnywhereInAMiddleRecordIsCorruption() throws IOException {
    Path source = tmp.resolve("source");
    long[] ends = write(source, 5, WriteAheadLog.DEFAULT_ROLL_BYTES);
    Path file = Records.logFiles(source).get(0);
    byte[] whole = Files.readAllBytes(file);
    int start = (int) ends[2];
    int end = (int) ends[3];
    for (int at = start; at < end; at++) {
      for (int mask : new int[] {0x01, 0x80, 0xFF}) {
        byte[] bad = whole.clone();
        bad[at] ^= (byte) mask;
        StorageCorruptedException e = expectCorruption(file, bad, "byte " + at + " ^ " + mask);
        assertEquals(start, e.offset(), "byte " + at + " ^ " + mask + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("no torn tail"), e.getMessage());
      }
    }
  }

  @Test
  void aBadRecordAtTheEndOfAnOlderFileIsCorruption() throws IOException {
    Path source = tmp.resolve("source");
    write(source, 6, 200);
    List<Path> files = Records.logFiles(source);
    assertTrue(files.size() >= 3);
    Path older = files.get(0);
    byte[] whole = Files.readAllBytes(older);
    long second = LogFile.parseName(files.get(1).getFileName().toString());
    int lastStart = whole.length - (RecordBuffer.RECORD_HEADER_BYTES + size(second - 1));
    for (int at = lastStart; at < whole.length; at++) {
      byte[] bad = whole.clone();
      bad[at] ^= 0x10;
      StorageCorruptedException e = expectCorruption(older, bad, "byte " + at);
      assertEquals(lastStart, e.offset());
      assertTrue(e.getMessage().contains("not the newest"), e.getMessage());
    }
    byte[] shorter = java.util.Arrays.copyOf(whole, whole.length - 1);
    assertEquals(lastStart, expectCorruption(older, shorter, "cut by a byte").offset());
  }

  @Test
  void aFlippedHeaderByteIsCorruptionInEveryFile() throws IOException {
    Path source = tmp.resolve("source");
    write(source, 4, 200);
    List<Path> files = Records.logFiles(source);
    for (Path file : List.of(files.get(0), files.get(files.size() - 1))) {
      byte[] whole = Files.readAllBytes(file);
      for (int at = 0; at < LogFile.HEADER_BYTES; at++) {
        byte[] bad = whole.clone();
        bad[at] ^= 0x04;
        StorageCorruptedException e = expectCorruption(file, bad, file + " byte " + at);
        assertEquals(0, e.offset(), e.getMessage());
      }
    }
  }

  @Test
  void aMissingFileIsCorruption() throws IOException {
    Path dir = tmp.resolve("source");
    write(dir, 8, 200);
    List<Path> files = Records.logFiles(dir);
    assertTrue(files.size() >= 3);
    Files.delete(files.get(1));
    StorageCorruptedException e =
        assertThrows(
            StorageCorruptedException.class, () -> WriteAheadLog.open(dir, FsyncPolicy.NEVER));
    assertEquals(files.get(2), e.file());
    assertTrue(e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void aFileOfAnotherFormatVersionIsRefused() throws IOException {
    Path dir = tmp.resolve("source");
    write(dir, 2, WriteAheadLog.DEFAULT_ROLL_BYTES);
    Path file = Records.logFiles(dir).get(0);
    byte[] bytes = Files.readAllBytes(file);
    java.nio.ByteBuffer header = LogFile.header(1);
    header.putInt(4, 2);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(header.array(), 0, 16);
    header.putInt(16, (int) crc.getValue());
    System.arraycopy(header.array(), 0, bytes, 0, LogFile.HEADER_BYTES);
    StorageCorruptedException e = expectCorruption(file, bytes, "version 2");
    assertTrue(e.getMessage().contains("format version 2"), e.getMessage());
  }

  /** Writes standard records one append each and returns the file size after each. */
  private static long[] write(Path dir, int count, long rollBytes) throws IOException {
    long[] ends = new long[count + 1];
    try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.NEVER, rollBytes)) {
      ends[0] = wal.bytesOnDisk();
      for (int i = 1; i <= count; i++) {
        wal.append(Records.payload(i, size(i)));
        ends[i] = wal.bytesOnDisk();
      }
    }
    return ends;
  }

  private static int size(long position) {
    return 20 + (int) (position * 17 % 60);
  }

  /** Copies the log with one file replaced and expects opening the copy to report corruption. */
  private StorageCorruptedException expectCorruption(Path file, byte[] replacement, String what)
      throws IOException {
    Path dir = Files.createTempDirectory(tmp, "copy");
    for (Path f : Records.logFiles(file.getParent())) {
      if (f.equals(file)) {
        Files.write(dir.resolve(f.getFileName()), replacement);
      } else {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    StorageCorruptedException e =
        assertThrows(
            StorageCorruptedException.class,
            () -> WriteAheadLog.open(dir, FsyncPolicy.NEVER).close(),
            what);
    assertEquals(dir.resolve(file.getFileName()), e.file(), what);
    assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
    assertEquals(replacement.length, Files.size(dir.resolve(file.getFileName())), "not truncated");
    return e;
  }
}
