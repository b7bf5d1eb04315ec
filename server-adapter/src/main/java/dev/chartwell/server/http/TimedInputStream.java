package dev.chartwell.server.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body as it arrives from the connection, counting the time spent in its reads: waiting
 * for the client's bytes and copying them ({@code read} in {@code Server-Timing}).
 */
final class TimedInputStream extends FilterInputStream {
  private long nanos;

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

  @Override
  public int read() throws IOException {
    long t = System.nanoTime();
    try {
      return super.read();
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    long t = System.nanoTime();
    try {
      return super.read(b, off, len);
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public long skip(long n) throws IOException {
    long t = System.nanoTime();
    try {
      return super.skip(n);
    } finally {
      nanos += System.nanoTime() - t;
    }
  }
}
