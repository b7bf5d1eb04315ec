package dev.chartwell.engine.internal.warmup;

import dev.chartwell.engine.Source;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The warm-up over new data: once the start-up warm-up has ended, {@link SourceRounds} run again
 * when the engine's sources have grown to at least twice the events the last rounds saw (and to at
 * least {@link #LEAST_EVENTS} with an engine's warm-up), as soon as no event has arrived for {@link
 * #QUIET_NANOS}.
 *
 * <p>Why: code the JIT compiled on the warm-up's synthetic events, or on a few real ones, traps on
 * segments of other shapes (a bucket's values outgrowing a first array, other trip counts, sets of
 * rows stored as other containers) and runs interpreted until it is compiled again. An engine
 * started empty and then loaded with 2M events answered its 20th round of dashboard queries
 * 1.3–2.5× slower than its 200th (Q2 7.7 against 4.7 ms, Q4 0.82 against 0.32); after these rounds,
 * the 20th was as fast as the 200th. Waiting for a quiet second keeps them out of a bulk load's
 * way; doubling bounds them to a few per process (one per doubling of the events held).
 *
 * <p>Not thread-safe: one warm-up thread calls {@link #watch}; {@link #idle} may be called from any
 * thread.
 */
final class NewDataRounds {
  /** The fewest events held before rounds over them pay: one segment of the default size. */
  static final long LEAST_EVENTS = 1L << 18;

  /** How long no event must have arrived before the rounds start. */
  static final long QUIET_NANOS = 1_000_000_000L;

  /**
   * Rounds always run: the compiler's queue can look quiet while methods still run their profiled
   * tier, short of the next tier's thresholds (3 rounds over 2M events left Q2 at 6.2 ms, 45 at
   * 4.6).
   */
  static final int LEAST_ROUNDS = 40;

  /**
   * The most rounds: past {@link #LEAST_ROUNDS} they go on until the compiler has settled, which
   * takes time as well as rounds (60 rounds over 2M events, 1.7 s, ended with the compiler still
   * compiling and Q2 at 6.8 ms; 45 rounds over 3.1 s left it at 4.6).
   */
  static final int MAX_ROUNDS = 400;

  /** The longest the rounds take. */
  static final long MAX_NANOS = 30_000_000_000L;

  /** How often the sources' events are counted. */
  static final long POLL_MILLIS = 250;

  private final Supplier<List<Source>> sources;
  private final int workers;
  private final Pacing pacing;
  private final Consumer<String> say;
  private final LongSupplier nanoTime;
  private final long leastEvents;

  private volatile long warmed; // events when rounds last ran over the sources
  private volatile boolean running;
  private long lastEvents = -1;
  private long lastChange;

  /**
   * @param sources the real engine's sources
   * @param workers the worker threads of the rounds' query engine
   * @param pacing the warm-up's pacing (stopping it ends {@link #watch})
   * @param say where the rounds' line goes
   * @param nanoTime the clock ({@link System#nanoTime} but in tests)
   * @param leastEvents the fewest events rounds run over ({@link #LEAST_EVENTS} but in tests)
   */
  NewDataRounds(
      Supplier<List<Source>> sources,
      int workers,
      Pacing pacing,
      Consumer<String> say,
      LongSupplier nanoTime,
      long leastEvents) {
    this.leastEvents = leastEvents;
    this.sources = sources;
    this.workers = workers;
    this.pacing = pacing;
    this.say = say;
    this.nanoTime = nanoTime;
  }

  /**
   * @param events the events the start-up warm-up's rounds over the real sources saw
   */
  void warmedAt(long events) {
    warmed = events;
  }

  /**
   * @param events the events the sources hold
   * @return whether rounds over them are due (they run once no event arrives for a while)
   */
  boolean due(long events) {
    return events >= Math.max(leastEvents, 2 * warmed);
  }

  /**
   * @return whether no rounds run and none are due
   */
  boolean idle() {
    return !running && !due(SourceRounds.events(sources.get()));
  }

  /**
   * Counts the sources' events every {@link #POLL_MILLIS} and runs the rounds when they are due and
   * no event arrived for {@link #QUIET_NANOS}, until the warm-up is stopped.
   *
   * @throws InterruptedException when the warm-up is stopped
   */
  void watch() throws InterruptedException {
    while (!pacing.stopped()) {
      check();
      pacing.pause(POLL_MILLIS);
    }
    throw new InterruptedException();
  }

  /**
   * One look at the sources: runs the rounds when they are due and quiet.
   *
   * @return whether rounds ran
   * @throws InterruptedException when the warm-up is stopped
   */
  boolean check() throws InterruptedException {
    List<Source> all = sources.get();
    long events = SourceRounds.events(all);
    long now = nanoTime.getAsLong();
    if (events != lastEvents) {
      lastEvents = events;
      lastChange = now;
      return false;
    }
    if (!due(events) || now - lastChange < QUIET_NANOS) {
      return false;
    }
    running = true;
    try {
      long started = System.nanoTime();
      SourceRounds.Outcome o =
          SourceRounds.run(all, workers, pacing, started + MAX_NANOS, LEAST_ROUNDS, MAX_ROUNDS);
      warmed = events;
      if (o.sources() > 0) {
        say.accept(
            String.format(
                Locale.ROOT,
                "warm-up over new data done in %.1f s: %d query shapes over the %,d events of %d"
                    + " sources × %d rounds (the JIT compiler %s)",
                Pacing.seconds(started),
                o.queries(),
                events,
                o.sources(),
                o.rounds(),
                o.settled() ? "settled" : "still compiling"));
      }
      return true;
    } finally {
      running = false;
    }
  }
}
