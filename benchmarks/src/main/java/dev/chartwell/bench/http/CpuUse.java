package dev.chartwell.bench.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * The processor time a load took, read from Linux's {@code /proc}: the server's own (user and
 * system time of all its threads), the harness's (the client that reads the file and sends it) and
 * the whole machine's (every core, the kernel's writeback threads included). It tells how much work
 * each system does per event whatever the number of cores, which a rate alone hides: a server that
 * keeps one core busy and one that keeps two are not doing the same work at the same rate.
 *
 * <p>Times are in the kernel's clock ticks, which {@code /proc} reports at {@link
 * #TICKS_PER_SECOND} ({@code USER_HZ}, 100 on every Linux architecture the JVM runs on). Elsewhere,
 * or when a file cannot be read, the figures are absent.
 */
final class CpuUse {
  /** {@code USER_HZ}: the unit of the times in {@code /proc/PID/stat} and {@code /proc/stat}. */
  static final double TICKS_PER_SECOND = 100;

  private final long serverPid;
  private final long server;
  private final long harness;
  private final long machine;

  private CpuUse(long serverPid) {
    this.serverPid = serverPid;
    this.server = processTicks(serverPid);
    this.harness = processTicks(ProcessHandle.current().pid());
    this.machine = machineTicks();
  }

  /**
   * Starts counting.
   *
   * @param serverPid the server process
   * @return the counts at the start
   */
  static CpuUse start(long serverPid) {
    return new CpuUse(serverPid);
  }

  /** Seconds of processor time since {@link #start}, each absent when it could not be read. */
  record Seconds(OptionalDouble server, OptionalDouble harness, OptionalDouble machine) {}

  /**
   * @return the processor time used since {@link #start}
   */
  Seconds since() {
    return new Seconds(
        seconds(server, processTicks(serverPid)),
        seconds(harness, processTicks(ProcessHandle.current().pid())),
        seconds(machine, machineTicks()));
  }

  private static OptionalDouble seconds(long before, long after) {
    return before < 0 || after < 0
        ? OptionalDouble.empty()
        : OptionalDouble.of((after - before) / TICKS_PER_SECOND);
  }

  /** A process's user plus system time in ticks, or -1. */
  static long processTicks(long pid) {
    try {
      return ticksOfStat(Files.readString(Path.of("/proc/" + pid + "/stat")));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** User plus system time from the text of {@code /proc/PID/stat}. */
  static long ticksOfStat(String stat) {
    // The command name, field 2, is in parentheses and may hold spaces and parentheses itself:
    // fields are counted after its last ')'.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime and stime, fields 14 and 15
  }

  /**
   * Every core's busy time in ticks, or -1: user, nice, system, irq and softirq time (not idle, I/O
   * wait, or the time a hypervisor gave to other machines).
   */
  static long machineTicks() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
      String[] f = first.trim().split("\\s+");
      if (!f[0].equals("cpu")) {
        return -1;
      }
      long busy = 0;
      for (int i = 1; i < f.length && i <= 7; i++) {
        if (i != 4 && i != 5) { // user nice system [idle iowait] irq softirq
          busy += Long.parseLong(f[i]);
        }
      }
      return busy;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
