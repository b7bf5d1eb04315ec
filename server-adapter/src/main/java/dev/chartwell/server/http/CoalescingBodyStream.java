package dev.chartwell.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.io.Content;

/**
 * A request body as a blocking stream that reads a trickling sender in batches.
 *
 * <p>Some clients send a body as many tiny writes: the Elasticsearch Java client's {@code
 * BulkIngester} sends each action line, document and newline as an HTTP chunk of its own, each in
 * its own TCP packet. Read as it arrives, every packet costs a wait for the socket, a wake-up of
 * the selector and one of the reading thread — several times the CPU of parsing the event it
 * carries. So when a wait for more bytes follows one that brought little ({@link #SMALL} bytes),
 * the reader first pauses for {@link #PAUSE_NANOS} and reads again: the packets that arrived
 * meanwhile are read in one go. It goes on pausing while each pause brings bytes but fewer than a
 * fast sender would ({@link #FAST}), so a steady trickle costs the server one timed sleep and a few
 * reads per pause instead of a wake-up of the selector and of the reader per packet. A sender that
 * writes large pieces never pauses the reader, a pause that brings much returns to waiting, and a
 * pause that brings nothing is followed by an ordinary wait, so a sender that stopped costs one
 * pause.
 */
final class CoalescingBodyStream extends InputStream {
  /** Bytes a wait must bring for the sender not to count as trickling. */
  static final int SMALL = 4096;

  /** Bytes a pause must bring for the sender to count as fast again (128 MB/s). */
  static final int FAST = 65536;

  /** How long one pause for a trickling sender lasts. */
  static final long PAUSE_NANOS = 500_000;

  private final Content.Source source;
  private Content.Chunk chunk;
  private long fetched = SMALL; // bytes read since the last wait or pause; no pause before a wait
  private long pauses;
  private boolean paused; // the last wait for bytes was a pause

  private final Runnable pause;

  CoalescingBodyStream(Content.Source source) {
    this(source, () -> LockSupport.parkNanos(PAUSE_NANOS));
  }

  /**
   * @param source the body
   * @param pause what a pause does (tests script the bytes arriving meanwhile)
   */
  CoalescingBodyStream(Content.Source source, Runnable pause) {
    this.source = source;
    this.pause = pause;
  }

  /**
   * @return how many times the reader paused for a trickling sender
   */
  long pauses() {
    return pauses;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int copied = 0; // from chunks already there: a read fills what it can without waiting
    while (true) {
      if (chunk != null) {
        if (Content.Chunk.isFailure(chunk)) {
          if (copied > 0) {
            return copied; // the failure is the next read's
          }
          throw new IOException("the request body failed", chunk.getFailure());
        }
        ByteBuffer buffer = chunk.getByteBuffer();
        int n = Math.min(len - copied, buffer.remaining());
        buffer.get(b, off + copied, n);
        copied += n;
        fetched += n;
        if (copied == len) {
          return copied;
        }
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          chunk = Content.Chunk.EOF;
          return copied > 0 ? copied : -1;
        }
        chunk = null;
      }
      chunk = source.read();
      if (chunk == null) {
        if (copied > 0) {
          return copied;
        }
        // A pause that brought nothing ends the batching: the sender has stopped for now.
        paused = fetched > 0 && fetched < (paused ? FAST : SMALL);
        if (paused) {
          pauses++;
          pause.run();
        } else {
          awaitContent();
        }
        fetched = 0;
      }
    }
  }

  private void awaitContent() throws IOException {
    CountDownLatch ready = new CountDownLatch(1);
    source.demand(ready::countDown);
    try {
      ready.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the request body");
    }
  }

  @Override
  public void close() {
    if (chunk != null) {
      chunk.release();
      chunk = Content.Chunk.EOF;
    }
  }
}
