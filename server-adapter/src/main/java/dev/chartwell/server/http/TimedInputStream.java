package dev.chartwell.server.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body as it arrives from the connection, counting the time spent in its reads: waiting
 * for the client's bytes and copying them ({@code read} in {@code Server-Timing}), and the bytes
 * received.
 */
final class TimedInputStream extends FilterInputStream {
  private long nanos;
  private long bytes;

  /**
   * @param in the body as the connection delivers it
   */
  TimedInputStream(InputStream in) {
    super(in);
  }

  /**
   * @return the time spent in reads so far
   */
  long nanos() {
    return nanos;
  }

  /**
   * @return the bytes received so far
   */
  long bytes() {
    return bytes;
  }

  @Override
  public int read() throws IOException {
    long t = System.nanoTime();
    try {
      int b = super.read();
      if (b >= 0) {
        bytes++;
      }
      return b;
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    long t = System.nanoTime();
    try {
      int n = super.read(b, off, len);
      if (n > 0) {
        bytes += n;
      }
      return n;
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public long skip(long n) throws IOException {
    long t = System.nanoTime();
    try {
      long skipped = super.skip(n);
      bytes += skipped;
      return skipped;
    } finally {
      nanos += System.nanoTime() - t;
    }
  }
}
