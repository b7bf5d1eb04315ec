package dev.chartwell.server.http;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * A streamed response being written: Jetty's asynchronous writes, one at a time, ended by the
 * producer, by a failed write or by the client going away (the request's client watch stays armed
 * for the whole stream). Holds no thread.
 */
final class OpenStream implements StreamSink {
  private final org.eclipse.jetty.server.Response response;
  private final Callback done;
  private final Runnable finish;
  private final PrintStream log;
  private final List<Consumer<String>> closeListeners = new ArrayList<>();
  private final List<Runnable> stopListeners = new ArrayList<>();
  private boolean writing; // guarded by this
  private boolean closing; // close asked while a write was in flight
  private String closedBecause; // non-null once closed
  private boolean stopping;

  /**
   * @param response Jetty's response, its status and headers set
   * @param done completes the exchange
   * @param finish releases the request's resources once the stream has ended
   * @param log where a failing listener is reported
   */
  OpenStream(
      org.eclipse.jetty.server.Response response, Callback done, Runnable finish, PrintStream log) {
    this.response = response;
    this.done = done;
    this.finish = finish;
    this.log = log;
  }

  @Override
  public boolean write(byte[] chunk, Runnable written) {
    synchronized (this) {
      if (closedBecause != null || closing) {
        return false;
      }
      if (writing) {
        throw new IllegalStateException("a write is in flight");
      }
      writing = true;
    }
    response.write(
        false,
        ByteBuffer.wrap(chunk),
        Callback.from(
            () -> {
              boolean close;
              synchronized (this) {
                writing = false;
                close = closing;
              }
              if (close) {
                end("closed", null);
              } else {
                run(written);
              }
            },
            x -> end("write failed: " + x.getMessage(), x)));
    return true;
  }

  @Override
  public synchronized boolean writing() {
    return writing;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closedBecause != null) {
        return;
      }
      if (writing) {
        closing = true;
        return;
      }
    }
    end("closed", null);
  }

  /** The client went away: the stream ends without its last chunk. */
  void clientGone() {
    end("client disconnected", new java.io.IOException("the client disconnected"));
  }

  /** The server begins to stop: the producer is told, once. */
  void serverStopping() {
    List<Runnable> toRun;
    synchronized (this) {
      if (stopping || closedBecause != null) {
        return;
      }
      stopping = true;
      toRun = List.copyOf(stopListeners);
    }
    toRun.forEach(this::run);
  }

  @Override
  public void onClose(Consumer<String> listener) {
    String reason;
    synchronized (this) {
      reason = closedBecause;
      if (reason == null) {
        closeListeners.add(listener);
        return;
      }
    }
    run(() -> listener.accept(reason));
  }

  @Override
  public void onServerStop(Runnable listener) {
    boolean now;
    synchronized (this) {
      now = stopping && closedBecause == null;
      if (!now) {
        stopListeners.add(listener);
      }
    }
    if (now) {
      run(listener);
    }
  }

  private void end(String reason, Throwable failure) {
    List<Consumer<String>> toTell;
    synchronized (this) {
      if (closedBecause != null) {
        return;
      }
      closedBecause = reason;
      toTell = List.copyOf(closeListeners);
      closeListeners.clear();
      stopListeners.clear();
    }
    finish.run();
    if (failure == null) {
      response.write(true, BufferUtil.EMPTY_BUFFER, done);
    } else {
      done.failed(failure);
    }
    toTell.forEach(l -> run(() -> l.accept(reason)));
  }

  private void run(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      log.println("stream listener failed: " + e);
      e.printStackTrace(log);
    }
  }
}
