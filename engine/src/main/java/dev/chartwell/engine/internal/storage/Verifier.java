package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.internal.segment.Segment;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Verifies segment files' checksums in the background, one at a time on one low-priority thread:
 * every file found at start and every file written since. A query that needs a file first verifies
 * it itself (whichever comes first does it; the other finds it done), so the background pass only
 * makes sure that damage is found even in data no one queries, without delaying a restart.
 */
final class Verifier implements AutoCloseable {
  private record Item(Segment segment, boolean foundAtStart) {}

  private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
  private final Consumer<String> reporter;
  private final Thread thread;
  private volatile boolean closed;
  private int startupLeft; // guarded by this
  private long startupBytes; // guarded by this
  private long startupStarted; // guarded by this

  Verifier(Consumer<String> reporter) {
    this.reporter = reporter;
    this.thread = new Thread(this::run, "chartwell-verifier");
    thread.setDaemon(true);
    thread.setUncaughtExceptionHandler(EngineLog::uncaught);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.start();
  }

  /**
   * @param segment a mapped segment to verify when its turn comes
   */
  void add(Segment segment) {
    if (!segment.isVerified()) {
      queue.add(new Item(segment, false));
    }
  }

  /**
   * Verifies the files found at start, reporting when all are done (with how long it took).
   *
   * @param segments the segments
   */
  synchronized void addFoundAtStart(java.util.List<Segment> segments) {
    startupStarted = System.nanoTime();
    for (Segment s : segments) {
      startupLeft++;
      startupBytes += s.bytes();
      queue.add(new Item(s, true));
    }
    if (startupLeft > 0) {
      reporter.accept(
          String.format(
              Locale.ROOT,
              "verifying the checksums of %,d segment files (%,d MB) in the background",
              startupLeft,
              startupBytes >> 20));
    }
  }

  private void run() {
    while (!closed) {
      Item item;
      try {
        item = queue.poll(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (item == null) {
        continue;
      }
      Segment s = item.segment();
      if (s.acquire()) { // else it was dropped meanwhile
        try {
          s.verify(); // a failure is reported by the segment's owner, who quarantines it
        } finally {
          s.release();
        }
      }
      if (item.foundAtStart()) {
        countStartup();
      }
    }
  }

  private synchronized void countStartup() {
    if (--startupLeft == 0) {
      reporter.accept(
          String.format(
              Locale.ROOT,
              "verified the segment files found at start (%,d MB) in %.1f s",
              startupBytes >> 20,
              (System.nanoTime() - startupStarted) / 1e9));
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
