package dev.chartwell.engine.internal.storage;

import java.lang.System.Logger.Level;
import java.util.function.Consumer;

/**
 * The engine's default reporter: its lines go to the {@link System.Logger} named {@value #NAME},
 * progress at {@code INFO} and problems (files set aside, storage that failed) at {@code WARNING},
 * so that they reach whatever logging the application has set up (java.util.logging by default;
 * SLF4J, Logback or Log4j 2 through their {@code System.LoggerFinder} bridges). The engine itself
 * never writes to standard output or standard error. An application that wants the lines itself
 * gives the engine its own reporter, which then receives every line.
 */
public final class EngineLog implements Consumer<String> {
  /** The name of the engine's logger. */
  public static final String NAME = "dev.chartwell.engine";

  private final System.Logger logger = System.getLogger(NAME);

  /** A reporter that logs to the engine's logger. */
  public EngineLog() {}

  /**
   * @param line progress or a note, in our words, logged at {@code INFO}
   */
  @Override
  public void accept(String line) {
    logger.log(Level.INFO, line);
  }

  /**
   * What the engine's threads do with an exception nothing caught: log it at {@code ERROR} with its
   * stack trace, instead of the JVM's default of printing it on standard error.
   *
   * @param thread the thread that ends
   * @param failure what it threw
   */
  public static void uncaught(Thread thread, Throwable failure) {
    System.getLogger(NAME)
        .log(Level.ERROR, "thread " + thread.getName() + " failed: " + failure, failure);
  }

  /**
   * Reports a problem: at {@code WARNING} to the engine's logger when the reporter is the default,
   * else to the application's reporter like any other line.
   *
   * @param reporter where the engine's lines go
   * @param line the problem, in our words
   */
  public static void problem(Consumer<String> reporter, String line) {
    if (reporter instanceof EngineLog log) {
      log.logger.log(Level.WARNING, line);
    } else {
      reporter.accept(line);
    }
  }
}
