package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
    // 0.3 s of this thread's own processor time (30 ticks at 100 a second), however long the
    // machine takes to give it: a busy machine stretches the wall time, not the work.
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long until = threads.getCurrentThreadCpuTime() + 300_000_000L;
    long sum = 0;
    while (threads.getCurrentThreadCpuTime() < until) {
      sum += Long.numberOfTrailingZeros(sum + System.nanoTime());
    }
    CpuUse.Seconds s = use.since();
    assertTrue(sum >= 0);
    assertTrue(s.server().getAsDouble() >= 0.25, "server " + s.server());
    assertEquals(s.server().getAsDouble(), s.harness().getAsDouble(), 0.05); // the same process
    assertTrue(s.machine().getAsDouble() >= s.server().getAsDouble() - 0.05, "machine " + s);
  }

  @Test
  void aProcessThatDoesNotExistHasNoFigure() {
    assertEquals(-1, CpuUse.processTicks(Long.MAX_VALUE));
  }
}
