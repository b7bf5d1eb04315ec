package dev.chartwell.server.charts;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Passes bytes through and fails at the first byte that breaks strict UTF-8 (RFC 3629): overlong
 * forms such as {@code C0 AF}, UTF-16 surrogates encoded as {@code ED A0..BF}, code points past
 * U+10FFFF, bytes C0, C1 and F5-FF, stray continuation bytes, and a sequence cut off at the end.
 * Jackson decodes some of these (an overlong {@code C0 AF} becomes {@code /}); the ingestion of
 * JSON arrays reads through this check so that no such text is ever stored.
 */
final class Utf8Check extends FilterInputStream {
  /** Thrown at the first invalid byte. */
  static final class InvalidUtf8Exception extends IOException {
    private static final long serialVersionUID = 1L;

    InvalidUtf8Exception(long offset) {
      super("invalid UTF-8 at byte offset " + offset, null);
    }
  }

  private long offset;

  /** Continuation bytes still expected in the current sequence. */
  private int pending;

  /** Allowed range of the next continuation byte (narrower right after E0, ED, F0, F4). */
  private int low = 0x80;

  private int high = 0xBF;

  Utf8Check(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      end();
    } else {
      check(b);
    }
    return b;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    int n = super.read(buf, off, len);
    if (n < 0) {
      end();
      return n;
    }
    for (int i = 0; i < n; i++) {
      check(buf[off + i] & 0xFF);
    }
    return n;
  }

  private void end() throws InvalidUtf8Exception {
    if (pending > 0) {
      throw new InvalidUtf8Exception(offset);
    }
  }

  private void check(int b) throws InvalidUtf8Exception {
    if (pending > 0) {
      if (b < low || b > high) {
        throw new InvalidUtf8Exception(offset);
      }
      low = 0x80;
      high = 0xBF;
      pending--;
    } else if (b >= 0x80) {
      if (b >= 0xC2 && b <= 0xDF) {
        pending = 1;
      } else if (b >= 0xE0 && b <= 0xEF) {
        pending = 2;
        low = b == 0xE0 ? 0xA0 : 0x80;
        high = b == 0xED ? 0x9F : 0xBF;
      } else if (b >= 0xF0 && b <= 0xF4) {
        pending = 3;
        low = b == 0xF0 ? 0x90 : 0x80;
        high = b == 0xF4 ? 0x8F : 0xBF;
      } else {
        throw new InvalidUtf8Exception(offset);
      }
    }
    offset++;
  }
}
