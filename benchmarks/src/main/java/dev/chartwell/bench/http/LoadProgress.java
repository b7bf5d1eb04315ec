package dev.chartwell.bench.http;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows how a load advances: events and bytes acknowledged, events/s, MB/s and the time left. On a
 * terminal it is one line rewritten every second; otherwise (a file, a pipe) a plain line every ten
 * seconds, so that logs stay readable.
 */
final class LoadProgress implements AutoCloseable {
  private final long totalBytes;
  private final PrintStream out;
  private final boolean terminal;
  private final long startNanos = System.nanoTime();
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final ScheduledExecutorService ticker;

  /**
   * @param totalBytes the size of what is being loaded (for the share done and the time left)
   * @param out where lines go
   * @param terminal whether {@code out} is a terminal (one updating line) or not (plain lines)
   * @param quiet print nothing while loading
   */
  LoadProgress(long totalBytes, PrintStream out, boolean terminal, boolean quiet) {
    this.totalBytes = totalBytes;
    this.out = out;
    this.terminal = terminal;
    if (quiet) {
      ticker = null;
      return;
    }
    ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "load-progress");
              t.setDaemon(true);
              return t;
            });
    long every = terminal ? 1 : 10;
    ticker.scheduleAtFixedRate(this::print, every, every, TimeUnit.SECONDS);
  }

  /**
   * @return whether standard output is a terminal
   */
  static boolean stdoutIsTerminal() {
    return System.console() != null;
  }

  /**
   * Counts a request the server acknowledged.
   *
   * @param events its events
   * @param bytes its bytes
   */
  void add(long events, long bytes) {
    this.events.addAndGet(events);
    this.bytes.addAndGet(bytes);
  }

  /**
   * @return events acknowledged so far
   */
  long events() {
    return events.get();
  }

  /**
   * @return seconds since the load started
   */
  double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  synchronized void print() {
    String line = line(events.get(), bytes.get(), totalBytes, seconds());
    if (terminal) {
      out.print("\r" + line + "\033[K");
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Stops the updates; on a terminal, ends the updated line. */
  @Override
  public synchronized void close() {
    if (ticker == null) {
      return;
    }
    ticker.shutdownNow();
    if (terminal) {
      out.print("\r\033[K");
      out.flush();
    }
  }

  /**
   * @param events events acknowledged so far
   * @param bytes their bytes
   * @param totalBytes bytes to load in all
   * @param seconds time since the start
   * @return for example {@code 1,200,000 events, 321.6 of 2,683.7 MB (12%), 104,233 events/s, 27.9
   *     MB/s, 1m 25s left}
   */
  static String line(long events, long bytes, long totalBytes, double seconds) {
    double mb = bytes / 1e6;
    double rate = seconds > 0 ? events / seconds : 0;
    double mbPerSecond = seconds > 0 ? mb / seconds : 0;
    String left =
        bytes == 0 || seconds <= 0
            ? "time left unknown"
            : duration((totalBytes - bytes) / (bytes / seconds)) + " left";
    return String.format(
        Locale.ROOT,
        "%,d events, %,.1f of %,.1f MB (%d%%), %,.0f events/s, %,.1f MB/s, %s",
        events,
        mb,
        totalBytes / 1e6,
        totalBytes == 0 ? 100 : (int) (100 * bytes / totalBytes),
        rate,
        mbPerSecond,
        left);
  }

  /**
   * @param seconds a duration
   * @return {@code 42s}, {@code 3m 05s} or {@code 1h 02m}
   */
  static String duration(double seconds) {
    long s = Math.max(0, Math.round(seconds));
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
  }
}
