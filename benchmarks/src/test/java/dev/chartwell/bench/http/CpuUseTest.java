package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Reading processor time from {@code /proc}. */
class CpuUseTest {

  @Test
  void readsUserAndSystemTimeAfterACommandNameWithSpacesAndParentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    String stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 30 0";
    assertEquals(1234 + 56, CpuUse.ticksOfStat(stat));
  }

  @Test
  void measuresTheTimeThisProcessSpends() {
    assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "no /proc here: nothing to read");
    CpuUse use = CpuUse.start(ProcessHandle.current().pid());
    long sum = 0;
    // 0.3 s of this thread's processor time (30 ticks at 100 a second), however long a busy
    // machine takes to give it; the wall-clock deadline only stops a hung test.
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    assumeTrue(threads.isCurrentThreadCpuTimeSupported(), "no thread processor time here");
    long cpuUntil = threads.getCurrentThreadCpuTime() + 300_000_000L;
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (threads.getCurrentThreadCpuTime() < cpuUntil && System.nanoTime() < deadline) {
      for (int i = 0; i < 10_000; i++) {
        sum += Long.numberOfTrailingZeros(sum + System.nanoTime());
      }
    }
    CpuUse.Seconds s = use.since();
    assertTrue(sum >= 0);
    assertTrue(s.server().getAsDouble() >= 0.1, "server " + s.server());
    assertEquals(s.server().getAsDouble(), s.harness().getAsDouble(), 0.05); // the same process
    assertTrue(s.machine().getAsDouble() >= s.server().getAsDouble() - 0.05, "machine " + s);
  }

  @Test
  void aProcessThatDoesNotExistHasNoFigure() {
    assertEquals(-1, CpuUse.processTicks(Long.MAX_VALUE));
  }
}
