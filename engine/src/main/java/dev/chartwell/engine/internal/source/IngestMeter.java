package dev.chartwell.engine.internal.source;

import java.util.function.LongSupplier;

/**
 * Counts the events a source accepted, in total and over a sliding window of the last {@link
 * #WINDOW_SECONDS} seconds (one counter per second of a ring), so that the current ingestion rate
 * can be read at any time without keeping a history.
 *
 * <p>Thread-safe; recording is one short critical section per batch.
 */
public final class IngestMeter {
  /** The length of the window the rate is averaged over. */
  public static final int WINDOW_SECONDS = 10;

  private static final long SECOND = 1_000_000_000L;

  private final LongSupplier nanoClock;
  private final long startNanos;
  private final long[] perSecond = new long[WINDOW_SECONDS];
  private final long[] secondOf = new long[WINDOW_SECONDS];
  private long total; // guarded by this

  /** A meter on the JVM's monotonic clock. */
  public IngestMeter() {
    this(System::nanoTime);
  }

  /**
   * @param nanoClock a monotonic clock in nanoseconds (tests pass their own)
   */
  public IngestMeter(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
    java.util.Arrays.fill(secondOf, -1);
  }

  /**
   * @param events events accepted just now
   */
  public synchronized void record(long events) {
    if (events <= 0) {
      return;
    }
    long second = (nanoClock.getAsLong() - startNanos) / SECOND;
    int slot = (int) (second % WINDOW_SECONDS);
    if (secondOf[slot] != second) {
      secondOf[slot] = second;
      perSecond[slot] = 0;
    }
    perSecond[slot] += events;
    total += events;
  }

  /**
   * @return events accepted since the meter was created
   */
  public synchronized long total() {
    return total;
  }

  /**
   * @return events accepted per second, averaged over the last {@link #WINDOW_SECONDS} seconds (or
   *     since the meter was created, when that is more recent, but over at least one second); 0
   *     when nothing arrived in that time
   */
  public synchronized double perSecond() {
    long elapsed = nanoClock.getAsLong() - startNanos;
    long second = elapsed / SECOND;
    long sum = 0;
    for (int i = 0; i < WINDOW_SECONDS; i++) {
      // The current (partial) second and the WINDOW_SECONDS - 1 before it.
      if (secondOf[i] >= 0 && secondOf[i] > second - WINDOW_SECONDS) {
        sum += perSecond[i];
      }
    }
    long oldestSecond = Math.max(0, second - WINDOW_SECONDS + 1);
    double span = (elapsed - oldestSecond * SECOND) / (double) SECOND;
    return sum / Math.max(span, 1.0); // a first burst is not read as a rate
  }
}
