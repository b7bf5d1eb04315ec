package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appends, replay, file rolls, reopening and truncation. */
class WriteAheadLogTest {
  @TempDir Path tmp;

  @Test
  void recordsRoundTripAcrossRollsAndReopens() throws IOException {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    Path dir = tmp.resolve("wal");
    long last = 0;
    long largestWrite = 0;
    try {
      for (int round = 0; round < 4; round++) {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.NEVER, 2_048)) {
          assertEquals(last, wal.lastPosition());
          assertEquals(last, wal.recovery().records());
          assertEquals("", wal.recovery().cut());
          for (int b = 0; b < 30; b++) {
            List<byte[]> batch = new ArrayList<>();
            int n = 1 + random.nextInt(12);
            for (int i = 1; i <= n; i++) {
              long p = last + i;
              int size = random.nextInt(20) == 0 ? 5_000 : Records.sizeOf(p);
              batch.add(Records.payload(p, size));
            }
            largestWrite =
                Math.max(largestWrite, RecordBuffer.encodedBytes(batch, Integer.MAX_VALUE));
            long returned = n == 1 ? wal.append(batch.get(0)) : wal.append(batch);
            assertEquals(last + n, returned);
            last = returned;
          }
          List<Long> positions = new ArrayList<>();
          wal.replay(0, (p, r) -> positions.add(p));
          assertEquals(last, positions.size());
          for (int i = 0; i < positions.size(); i++) {
            assertEquals(i + 1, positions.get(i));
          }
          long after = random.nextInt((int) last + 1);
          long[] count = {0};
          wal.replay(after, (p, r) -> count[0]++);
          assertEquals(last - after, count[0]);
          assertEquals(Records.sizeOnDisk(dir), wal.bytesOnDisk());
        }
      }
      assertTrue(Records.logFiles(dir).size() > 5, "files rolled");
      for (Path f : Records.logFiles(dir)) {
        long limit = Math.max(2_048, LogFile.HEADER_BYTES + largestWrite);
        assertTrue(Files.size(f) <= limit, f + " is larger than the roll size and one write");
      }
    } catch (AssertionError | IOException | RuntimeException e) {
      throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
    }
  }

  @Test
  void replayReturnsTheBytesAppended() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1_000)) {
      for (int i = 0; i < 20; i++) {
        Records.appendStandard(wal, 1 + i % 5);
      }
      Records.checkReplay(wal, 0, wal.lastPosition());
      Records.checkReplay(wal, 17, wal.lastPosition());
      Records.checkReplay(wal, wal.lastPosition(), wal.lastPosition());
    }
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1_000)) {
      Records.checkReplay(wal, 0, 60);
    }
  }

  @Test
  void emptyRecordsAndLargeRecordsAreKept() throws IOException {
    byte[] big = Records.payload(3, 3_000_000);
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST)) {
      assertEquals(1, wal.append(new byte[0]));
      assertEquals(2, wal.append(new byte[0]));
      assertEquals(3, wal.append(big));
    }
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST)) {
      List<byte[]> got = new ArrayList<>();
      wal.replay(0, (p, r) -> got.add(r));
      assertEquals(3, got.size());
      assertEquals(0, got.get(0).length);
      assertArrayEquals(big, got.get(2));
    }
  }

  @Test
  void truncateBeforeDeletesOnlyFilesWhoseRecordsAreAllAtOrBeforeThePosition() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 600)) {
      for (int i = 0; i < 40; i++) {
        Records.appendStandard(wal, 3);
      }
      long last = wal.lastPosition();
      assertTrue(Records.logFiles(tmp).size() > 10);
      for (long p = 0; p <= last + 5; p += 7) {
        wal.truncateBefore(p);
        List<Path> files = Records.logFiles(tmp);
        long first = LogFile.parseName(files.get(0).getFileName().toString());
        assertEquals(first, wal.firstPosition());
        if (p < last) {
          assertTrue(first <= p + 1, "record " + (p + 1) + " is kept");
          if (files.size() > 1) {
            long second = LogFile.parseName(files.get(1).getFileName().toString());
            assertTrue(second > p + 1, "the first file kept is needed for " + (p + 1));
          }
          Records.checkReplay(wal, p, last);
        }
        assertEquals(Records.sizeOnDisk(tmp), wal.bytesOnDisk());
      }
      assertEquals(1, Records.logFiles(tmp).size(), "the file being written is kept");
      long p = wal.firstPosition();
      assertThrows(IllegalArgumentException.class, () -> wal.replay(p - 2, (q, r) -> {}));
      Records.appendStandard(wal, 50);
    }
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 600)) {
      assertEquals(170, wal.lastPosition());
      Records.checkReplay(wal, wal.firstPosition() - 1, 170);
    }
  }

  @Test
  void aSecondOpenOfTheSameDirectoryIsRefused() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.NEVER)) {
      IOException e =
          assertThrows(IOException.class, () -> WriteAheadLog.open(tmp, FsyncPolicy.NEVER));
      assertTrue(e.getMessage().contains("open elsewhere"), e.getMessage());
      wal.append(new byte[] {1});
    }
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.NEVER)) {
      assertEquals(1, wal.lastPosition());
    }
  }

  @Test
  void argumentsAndClosedLogAreChecked() throws IOException {
    WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST);
    assertThrows(IllegalArgumentException.class, () -> wal.append(List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> wal.append(new byte[WriteAheadLog.MAX_RECORD_BYTES + 1]));
    assertThrows(NullPointerException.class, () -> wal.append((byte[]) null));
    assertEquals(0, wal.lastPosition());
    wal.append(new byte[] {7});
    wal.close();
    wal.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> wal.append(new byte[1]));
    assertTrue(e.getMessage().contains(tmp.toString()), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, WriteAheadLog.MIN_ROLL_BYTES - 1));
  }

  @Test
  void requestForcesBeforeEachAppendReturnsAndNeverDoesNot() throws IOException {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal =
        WriteAheadLog.open(tmp.resolve("r"), FsyncPolicy.REQUEST, 1 << 20, io)) {
      int before = io.forces.get();
      for (int i = 0; i < 10; i++) {
        Records.appendStandard(wal, 2);
        assertEquals(before + i + 1, io.forces.get(), "one fsync per lone append");
        assertTrue(io.forcedEnd.get() >= io.writtenEnd.get());
      }
    }
    TestFiles never = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp.resolve("n"), FsyncPolicy.NEVER, 300, never)) {
      for (int i = 0; i < 10; i++) {
        Records.appendStandard(wal, 2);
      }
    }
    assertEquals(0, never.forces.get());
    assertEquals(0, never.directorySyncs.get());
    assertTrue(never.writes.get() >= 10);
  }

  @Test
  void writeThenAwaitDurableSplitsAnAppend() throws IOException {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1 << 20, io)) {
      int forces = io.forces.get();
      long first = wal.write(List.of(Records.of(1), Records.of(2)));
      long second = wal.write(List.of(Records.of(3)));
      assertEquals(2, first);
      assertEquals(3, second);
      assertEquals(forces, io.forces.get(), "write does not force");
      wal.awaitDurable(first);
      assertEquals(forces + 1, io.forces.get());
      assertEquals(io.writtenEnd.get(), io.forcedEnd.get(), "the fsync covered both writes");
      wal.awaitDurable(second);
      assertEquals(forces + 1, io.forces.get(), "already covered");
      assertThrows(IllegalArgumentException.class, () -> wal.awaitDurable(4));
      Records.checkReplay(wal, 0, 3);
    }
  }

  @Test
  void intervalForcesInTheBackground() throws Exception {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.interval(5), 1 << 20, io)) {
      int before = io.forces.get();
      Records.appendStandard(wal, 3);
      long end = io.writtenEnd.get();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hung test only
      while (io.forcedEnd.get() < end && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertTrue(io.forces.get() > before, "the background thread forced the file");
      assertEquals(end, io.forcedEnd.get());
      Records.appendStandard(wal, 3);
    }
    assertEquals(io.writtenEnd.get(), io.forcedEnd.get(), "close forces what was written");
  }

  @Test
  void aNewFileIsMadeDurableWithADirectorySyncAndTheOldOneIsForced() throws IOException {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.interval(3_600_000), 200, io)) {
      int dirSyncs = io.directorySyncs.get();
      int forces = io.forces.get();
      Records.appendStandard(wal, 1);
      Records.appendStandard(wal, 1);
      Records.appendStandard(wal, 1);
      assertTrue(Records.logFiles(tmp).size() >= 2);
      assertTrue(io.directorySyncs.get() > dirSyncs, "the new name was synced");
      assertTrue(io.forces.get() > forces, "the finished file was forced");
    }
  }
}
