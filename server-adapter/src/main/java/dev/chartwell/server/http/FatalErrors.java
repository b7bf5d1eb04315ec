package dev.chartwell.server.http;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

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

  /**
   * Heap kept back until an out-of-memory error, then let go so that the one line can be written:
   * with the heap full, building that line could fail in turn and leave the process running.
   */
  private static final int RESERVE_BYTES = 1 << 20;

  private static volatile byte[] reserve = new byte[RESERVE_BYTES];

  /**
   * The line's fixed parts, and room to assemble it, made before any error: another thread may take
   * the reserve's memory first, so writing the line must not need the heap at all.
   */
  private static final byte[] IN_REQUEST = ascii("chartwell: out of memory in request ");

  private static final byte[] IN_THREAD = ascii("chartwell: out of memory in thread ");
  private static final byte[] EXITING =
      ascii(
          "; exiting with status "
              + EXIT_OUT_OF_MEMORY
              + " (give the JVM more heap with -Xmx, or lower --max-memory or --query-memory)\n");
  private static final int MAX_NAME = 200;
  private static final byte[] LINE = new byte[IN_REQUEST.length + MAX_NAME + EXITING.length];

  /**
   * Set by the first thread that halts. Several threads can run out of memory at once (the request
   * that filled the heap, a selector, a timer); only the first may write the line, or the process
   * would say it twice before it is gone. Made before any error, so taking it allocates nothing.
   */
  private static final AtomicBoolean HALTING = new AtomicBoolean();

  private final PrintStream err;

  /**
   * @param err where the one line goes
   */
  public FatalErrors(PrintStream err) {
    this.err = err;
  }

  /**
   * Halts the process if {@code e} is (or was caused by) an out-of-memory error caught while
   * serving a request; returns otherwise. The caller passes no string it would have to build or
   * resolve: on a full heap even resolving a string literal allocates, and would throw in its turn.
   *
   * @param e a throwable caught while serving a request
   * @param requestId the request's id
   */
  public void haltIfFatal(Throwable e, String requestId) {
    if (outOfMemory(e)) {
      halt(false, requestId);
    }
  }

  /**
   * A thread that died of an out-of-memory error halts the process. So does one that died of
   * anything else when reporting it runs out of memory: on a full heap a thread may die of an error
   * that only the heap caused (a class that could not be initialized, a wrapped failure).
   */
  @Override
  public void uncaughtException(Thread t, Throwable e) {
    if (outOfMemory(e)) {
      halt(true, t.getName());
    }
    try {
      err.println("chartwell: uncaught error in thread " + t.getName() + ": " + e);
      e.printStackTrace(err);
    } catch (OutOfMemoryError reporting) {
      halt(true, t.getName());
    }
  }

  private static boolean outOfMemory(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError) {
        return true;
      }
    }
    return false;
  }

  /**
   * Lets the reserve go, writes the one line if it can, and halts whether it could or not; a second
   * thread that gets here meanwhile waits for the first to halt. Its callers pass no string
   * literal: until the reserve is let go, resolving one could fail.
   *
   * @param thread whether {@code name} is a thread's (else a request's id)
   */
  private void halt(boolean thread, String name) {
    if (!HALTING.compareAndSet(false, true)) {
      // Another thread is writing the line and halting: wait for it rather than halt first (the
      // line would be lost) or write a second one.
      while (true) {
        LockSupport.park(this);
      }
    }
    reserve = null; // before anything that allocates
    try {
      int n = put(LINE, 0, thread ? IN_THREAD : IN_REQUEST);
      for (int i = 0; i < name.length() && i < MAX_NAME; i++) {
        char c = name.charAt(i);
        LINE[n++] = c >= 0x20 && c < 0x7f ? (byte) c : (byte) '?';
      }
      n = put(LINE, n, EXITING);
      err.write(LINE, 0, n);
      err.flush();
    } finally {
      Runtime.getRuntime().halt(EXIT_OUT_OF_MEMORY);
    }
  }

  private static int put(byte[] line, int at, byte[] part) {
    System.arraycopy(part, 0, line, at, part.length);
    return at + part.length;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
