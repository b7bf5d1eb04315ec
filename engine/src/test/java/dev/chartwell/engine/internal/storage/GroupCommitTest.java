package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent appends with {@code request} share fsyncs, and each returns only after a completed
 * force that covered its record.
 */
class GroupCommitTest {
  static final int THREADS = 8;
  static final int PER_THREAD = 200;
  static final int PAYLOAD = 100;

  @TempDir Path tmp;

  @Test
  void concurrentAppendsShareFsyncsAndReturnOnlyWhenCovered() throws Exception {
    TestFiles io = new TestFiles();
    io.forceDelayMillis = 2; // a disk whose fsync takes a millisecond or more
    List<Long> positions = new ArrayList<>();
    int forcesBefore;
    try (WriteAheadLog wal = WriteAheadLog.open(tmp, FsyncPolicy.REQUEST, 1 << 30, io)) {
      forcesBefore = io.forces.get();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < PER_THREAD; i++) {
                    byte[] record = new byte[PAYLOAD];
                    record[0] = (byte) thread;
                    long p = wal.append(record);
                    long end =
                        LogFile.HEADER_BYTES + p * (RecordBuffer.RECORD_HEADER_BYTES + PAYLOAD);
                    long forced = io.forcedEnd.get();
                    assertTrue(
                        forced >= end,
                        "append " + p + " returned when forces covered " + forced + " < " + end);
                    mine.add(p);
                  }
                  return mine;
                }));
      }
      start.countDown();
      for (Future<List<Long>> f : results) {
        positions.addAll(f.get());
      }
      pool.shutdown();
    }
    int forces = io.forces.get() - forcesBefore;
    positions.sort(null);
    for (int i = 0; i < positions.size(); i++) {
      assertEquals(i + 1, positions.get(i), "each position once");
    }
    int appends = THREADS * PER_THREAD;
    System.out.printf(
        "group commit: %d appends from %d threads needed %d fsyncs%n", appends, THREADS, forces);
    assertTrue(forces <= appends / 3, forces + " fsyncs for " + appends + " appends");
  }
}
