package dev.chartwell.server.http;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * Reads and drops what is left of a request body after its answer has been written, then completes
 * the request (and the connection closes). A request refused before its body was read — 401, 413,
 * 429 — would otherwise be closed with bytes still arriving; the kernel then resets the connection
 * and a client still sending its body loses the answer it was sent. Reading is asynchronous (no
 * thread waits on the client) and bounded: at most a budget of bytes, and a client that stops
 * sending is ended by the connection's idle timeout.
 */
final class BodyDrain implements Runnable {
  private final Request request;
  private final Callback done;
  private long budget;

  private BodyDrain(Request request, long budget, Callback done) {
    this.request = request;
    this.budget = budget;
    this.done = done;
  }

  /**
   * Drains the request's body, then completes {@code done}. A body declared longer than the budget
   * is not read at all.
   *
   * @param request the request whose answer has been written
   * @param budget the most bytes to read and drop
   * @param done the request's callback, completed when the body ends, fails or exceeds the budget
   */
  static void start(Request request, long budget, Callback done) {
    if (request.getLength() > budget) {
      done.succeeded();
      return;
    }
    new BodyDrain(request, budget, done).run();
  }

  @Override
  public void run() {
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this);
        return;
      }
      boolean last = chunk.isLast() || Content.Chunk.isFailure(chunk);
      budget -= chunk.remaining();
      chunk.release();
      if (last || budget < 0) {
        done.succeeded(); // the answer is out; whatever ended the body is no failure of it
        return;
      }
    }
  }
}
