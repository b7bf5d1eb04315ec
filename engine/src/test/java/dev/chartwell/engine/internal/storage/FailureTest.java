package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.StorageFailedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed write or fsync fails the log: that append and every later one throw, naming the
 * directory and the cause; reopening recovers exactly what is on disk.
 */
class FailureTest {
  @TempDir Path tmp;

  @Test
  void aFailedWriteFailsThisAndEveryLaterAppend() throws IOException {
    TestFiles io = new TestFiles();
    WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1 << 20, io);
    Records.appendStandard(wal, 5);
    io.writesBeforeFailure = 0;
    io.bytesOfFailingWrite = 30; // half a record reaches the file
    StorageFailedException e =
        assertThrows(StorageFailedException.class, () -> Records.appendStandard(wal, 3));
    assertTrue(e.getMessage().contains(tmp.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("no space left on device"), e.getMessage());
    assertEquals(tmp, e.directory());
    io.writesBeforeFailure = -1; // the disk is fine again, the log stays failed
    StorageFailedException later =
        assertThrows(StorageFailedException.class, () -> wal.append(new byte[1]));
    assertTrue(later.getMessage().contains("no space left on device"), later.getMessage());
    assertEquals(5, wal.lastPosition());
    wal.close(); // the failure was reported; closing does not report it again
    try (WriteAheadLog reopened = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST)) {
      assertEquals(5, reopened.lastPosition());
      assertEquals(30, reopened.recovery().bytesCut());
      Records.checkReplay(reopened, 0, 5);
      Records.appendStandard(reopened, 2);
      Records.checkReplay(reopened, 0, 7);
    }
  }

  @Test
  void aFailedFsyncFailsThisAndEveryLaterAppend() throws IOException {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1 << 20, io)) {
      Records.appendStandard(wal, 2);
      io.failForces = true;
      StorageFailedException e =
          assertThrows(StorageFailedException.class, () -> Records.appendStandard(wal, 1));
      assertTrue(e.getMessage().contains("input/output error"), e.getMessage());
      io.failForces = false;
      assertThrows(StorageFailedException.class, () -> wal.append(new byte[1]));
      assertThrows(StorageFailedException.class, () -> wal.append(List.of(new byte[1])));
    }
  }

  @Test
  void aFailedBackgroundFsyncFailsTheNextAppend() throws Exception {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.interval(2), 1 << 20, io)) {
      Records.appendStandard(wal, 2);
      io.failForces = true;
      Records.appendStandard(wal, 1); // written; the failing fsync comes later
      StorageFailedException e = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hung test only
      while (e == null && System.nanoTime() < deadline) {
        try {
          wal.append(new byte[1]);
          Thread.sleep(2);
        } catch (StorageFailedException failed) {
          e = failed;
        }
      }
      assertTrue(e != null, "an append after the failed fsync threw");
      assertTrue(e.getMessage().contains("input/output error"), e.getMessage());
    }
  }

  @Test
  void aFailedDirectorySyncWhenRollingFailsTheAppend() throws IOException {
    TestFiles io = new TestFiles();
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 200, io)) {
      Records.appendStandard(wal, 1);
      io.failDirectorySyncs = true;
      assertThrows(StorageFailedException.class, () -> Records.appendStandard(wal, 3));
      assertThrows(StorageFailedException.class, () -> Records.appendStandard(wal, 1));
    }
  }

  @Test
  void concurrentAppendsEitherSucceedDurablyOrThrow() throws Exception {
    TestFiles io = new TestFiles();
    Acks acknowledged = new Acks();
    AtomicInteger failures = new AtomicInteger();
    WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1 << 20, io);
    io.writesBeforeFailure = 60;
    io.bytesOfFailingWrite = 100;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 100; i++) {
                  byte[] record = Records.payload(1_000_000L + i, 64);
                  try {
                    acknowledged.add(wal.append(record));
                  } catch (StorageFailedException e) {
                    failures.incrementAndGet();
                  }
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    wal.close();
    assertTrue(failures.get() > 0);
    try (WriteAheadLog reopened = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST)) {
      long last = reopened.lastPosition();
      for (long p : acknowledged.positions.keySet()) {
        assertTrue(p <= last, "acknowledged " + p + " is on disk (last " + last + ")");
      }
      Records.checkReplayPositions(reopened, last);
    }
  }

  /** Positions acknowledged by several threads. */
  private static final class Acks {
    final ConcurrentHashMap<Long, Boolean> positions = new ConcurrentHashMap<>();

    void add(long p) {
      positions.put(p, true);
    }
  }
}
