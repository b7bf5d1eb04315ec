package dev.chartwell.server.http;

import java.io.PrintStream;

/**
 * What the process does with an error it cannot survive. After an {@link OutOfMemoryError} any
 * thread may be half way through changing shared state, and a server that goes on answering {@code
 * /health} while failing everything else is worse than one that stops: so it writes one line and
 * halts with {@link #EXIT_OUT_OF_MEMORY}, for a supervisor to restart it. Durable state is never
 * half-written by a halt (stores are crash-safe), and nothing acknowledged depends on shutdown
 * hooks.
 */
public final class FatalErrors implements Thread.UncaughtExceptionHandler {
  /** The exit status after an out-of-memory error. */
  public static final int EXIT_OUT_OF_MEMORY = 3;

  private final PrintStream err;

  /**
   * @param err where the one line goes
   */
  public FatalErrors(PrintStream err) {
    this.err = err;
  }

  /**
   * Halts the process if {@code e} is (or was caused by) an out-of-memory error; returns otherwise.
   *
   * @param e a throwable caught anywhere
   * @param where the thread or task it was caught in
   */
  public void haltIfFatal(Throwable e, String where) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError) {
        err.println(
            "chartwell: out of memory in "
                + where
                + "; exiting with status "
                + EXIT_OUT_OF_MEMORY
                + " (give the JVM more heap with -Xmx, or lower --max-memory or --query-memory)");
        err.flush();
        Runtime.getRuntime().halt(EXIT_OUT_OF_MEMORY);
      }
    }
  }

  @Override
  public void uncaughtException(Thread t, Throwable e) {
    haltIfFatal(e, "thread " + t.getName());
    err.println("chartwell: uncaught error in thread " + t.getName() + ": " + e);
    e.printStackTrace(err);
  }
}
