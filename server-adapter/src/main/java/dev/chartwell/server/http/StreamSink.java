package dev.chartwell.server.http;

import java.util.function.Consumer;

/**
 * The body of a streamed response ({@link Response#stream}): chunks written one at a time, without
 * holding an HTTP worker, until the producer closes it, the client goes away or the server stops.
 *
 * <p>At most one write may be in flight: write the next chunk from the previous one's completion
 * action (or after it ran). Every method is thread-safe.
 */
public interface StreamSink {
  /**
   * Writes a chunk and sends it to the client at once (no buffering beyond the connection's).
   *
   * @param chunk the bytes
   * @param written what to do once they are written (not run when the write fails: the sink then
   *     closes and tells its close listeners)
   * @return false when the sink is closed already (nothing is written)
   * @throws IllegalStateException when a write is in flight
   */
  boolean write(byte[] chunk, Runnable written);

  /**
   * @return whether a write is in flight
   */
  boolean writing();

  /** Ends the response once the write in flight (if any) is done; idempotent. */
  void close();

  /**
   * Registers what to do when the stream ends, for whatever reason; runs at once when it has ended
   * already.
   *
   * @param listener told why it ended: {@code closed} (by the producer), {@code client
   *     disconnected} or {@code write failed: ...}
   */
  void onClose(Consumer<String> listener);

  /**
   * Registers what to do when the server begins to stop: the producer should write its last chunk
   * and {@link #close()} promptly (the server stops the connection anyway when its stop timeout
   * passes).
   *
   * @param listener what to do
   */
  void onServerStop(Runnable listener);
}
