package dev.chartwell.server.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body and fails with 413 as soon as more than the route's limit has been read, so
 * that an oversized body is never buffered whole, whether or not it declared its length.
 */
final class LimitedInputStream extends FilterInputStream {
  private final long limit;
  private long read;

  LimitedInputStream(InputStream in, long limit) {
    super(in);
    this.limit = limit;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    count(skipped);
    return skipped;
  }

  private void count(long n) {
    read += n;
    if (read > limit) {
      throw tooLarge(limit);
    }
  }

  static ApiException tooLarge(long limit) {
    return new ApiException(
        ErrorCode.PAYLOAD_TOO_LARGE, "request body exceeds the limit of " + limit + " bytes");
  }
}
