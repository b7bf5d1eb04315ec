package dev.chartwell.server.http;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Notices that the client of a request went away while its handler still runs, and then runs the
 * actions registered with {@link Request#onClientDisconnect}.
 *
 * <p>HTTP/1.1 does not read from a connection while a request is being handled, so a client that
 * closes its socket goes unnoticed until the response is written. Once the request body has been
 * read to its end (or there is none) and an action is registered, this watch asks the connection's
 * end point to report readability: a well-behaved client sends nothing more until it has the
 * response, so readability means end of stream or a reset, that is, the client is gone. If the
 * client did send bytes (a pipelined request) they are consumed, and the response then closes the
 * connection so that the client retries the unanswered request. The watch is withdrawn before the
 * response is written, so it never competes with the next request on the connection.
 */
final class ClientWatch implements Callback {
  private enum State {
    IDLE,
    WATCHING,
    READING,
    STOPPED,
    GONE
  }

  /** Marks the withdrawal of the read interest, as opposed to a real failure. */
  private static final Throwable WITHDRAWN =
      new IOException("client watch withdrawn", null) {
        private static final long serialVersionUID = 1L;

        @Override
        public synchronized Throwable fillInStackTrace() {
          return this;
        }
      };

  private final EndPoint endPoint;
  private final PrintStream log;
  private final List<Runnable> actions = new ArrayList<>();
  private State state = State.IDLE;
  private boolean bodyDone;
  private boolean consumedBytes;

  /**
   * @param endPoint the request's connection end point
   * @param log where a failing action is reported
   */
  ClientWatch(EndPoint endPoint, PrintStream log) {
    this.endPoint = endPoint;
    this.log = log;
  }

  /**
   * Registers an action; it runs at once (on this thread) if the client is already known to be
   * gone.
   */
  void add(Runnable action) {
    boolean runNow;
    synchronized (this) {
      runNow = state == State.GONE;
      if (!runNow) {
        actions.add(action);
      }
    }
    if (runNow) {
      run(action);
    } else {
      arm();
    }
  }

  /** The request body has been read to its end: the connection may now be watched. */
  void bodyDone() {
    synchronized (this) {
      bodyDone = true;
    }
    arm();
  }

  /**
   * Withdraws the watch before the response is written; waits for a read in progress.
   *
   * @return whether bytes of a following request were consumed (the connection must then close)
   */
  boolean stop() {
    boolean withdraw;
    synchronized (this) {
      while (state == State.READING) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      withdraw = state == State.WATCHING;
      if (state != State.GONE) {
        state = State.STOPPED;
      }
    }
    if (withdraw && endPoint instanceof AbstractEndPoint e) {
      // Only this watch holds the read interest while the handler runs; taking it back here
      // leaves the end point free for the connection to read the next request.
      e.getFillInterest().onFail(WITHDRAWN);
    }
    synchronized (this) {
      return consumedBytes;
    }
  }

  /**
   * @return whether bytes of a following request have been consumed so far
   */
  synchronized boolean consumedBytes() {
    return consumedBytes;
  }

  private void arm() {
    synchronized (this) {
      if (state != State.IDLE || !bodyDone || actions.isEmpty()) {
        return;
      }
      state = State.WATCHING;
    }
    if (!endPoint.tryFillInterested(this)) {
      // Someone else reads the connection (should not happen once the body is read): no watch.
      synchronized (this) {
        if (state == State.WATCHING) {
          state = State.STOPPED;
        }
      }
    }
  }

  /** The end point is readable. */
  @Override
  public void succeeded() {
    synchronized (this) {
      if (state != State.WATCHING) {
        return;
      }
      state = State.READING;
    }
    boolean gone;
    boolean rearm = false;
    try {
      // An empty buffer in Jetty's flush mode (limit 0) with room for one byte.
      int n = endPoint.fill(BufferUtil.allocate(1));
      gone = n < 0;
      synchronized (this) {
        if (n > 0) {
          consumedBytes = true;
        }
        rearm = n == 0;
      }
    } catch (IOException e) {
      gone = true;
    }
    finishRead(gone, rearm);
  }

  /** The end point failed or closed, or the watch was withdrawn. */
  @Override
  public void failed(Throwable x) {
    if (x == WITHDRAWN) {
      return;
    }
    synchronized (this) {
      if (state != State.WATCHING) {
        return;
      }
      state = State.READING;
    }
    finishRead(true, false);
  }

  private void finishRead(boolean gone, boolean rearm) {
    List<Runnable> toRun = List.of();
    synchronized (this) {
      if (gone) {
        state = State.GONE;
        toRun = List.copyOf(actions);
        actions.clear();
      } else {
        state = rearm ? State.IDLE : State.STOPPED;
      }
      notifyAll();
    }
    toRun.forEach(this::run);
    if (rearm) {
      arm();
    }
  }

  private void run(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      log.println("client disconnect action failed: " + e);
      e.printStackTrace(log);
    }
  }
}
