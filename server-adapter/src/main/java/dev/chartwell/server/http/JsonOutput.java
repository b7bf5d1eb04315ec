package dev.chartwell.server.http;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * JSON text written as UTF-8 straight into one growing byte array, for a {@link JsonBody}: the
 * caller writes the structure (pre-encoded names, brackets, commas) as raw bytes and the values
 * through {@link #number} and {@link #nul} (strings come pre-encoded, e.g. by {@link
 * dev.chartwell.engine.internal.source.JsonStrings}). Numbers read back as those Jackson's
 * generator writes: doubles in their shortest form by Jackson's fast writer, NaN and the infinities
 * as the strings Jackson writes for them.
 */
public final class JsonOutput {
  private static final byte[] NULL = ascii("null");

  private byte[] buf;
  private int pos;

  /**
   * @param capacity bytes to allocate up front
   */
  public JsonOutput(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  /**
   * @param text ASCII text, such as a JSON fragment of names and punctuation
   * @return its bytes, to pass to {@link #raw(byte[])}
   */
  public static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Writes bytes that are JSON text already.
   *
   * @param json the bytes
   */
  public void raw(byte[] json) {
    ensure(json.length);
    System.arraycopy(json, 0, buf, pos, json.length);
    pos += json.length;
  }

  /**
   * Writes one ASCII character of JSON punctuation.
   *
   * @param c the character
   */
  public void raw(char c) {
    ensure(1);
    buf[pos++] = (byte) c;
  }

  /**
   * @param value an integer
   */
  public void number(long value) {
    ensure(20);
    pos = NumberOutput.outputLong(value, buf, pos);
  }

  /**
   * @param value a double: its shortest decimal form that reads back as the same value; NaN and the
   *     infinities as the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}
   */
  public void number(double value) {
    String text = NumberOutput.toString(value, true);
    boolean quoted = !Double.isFinite(value);
    ensure(text.length() + 2);
    if (quoted) {
      buf[pos++] = '"';
    }
    for (int i = 0; i < text.length(); i++) {
      buf[pos++] = (byte) text.charAt(i);
    }
    if (quoted) {
      buf[pos++] = '"';
    }
  }

  /** Writes {@code null}. */
  public void nul() {
    raw(NULL);
  }

  /**
   * @return the bytes written, sharing this output's array (write nothing more once handed out)
   */
  public ByteBuffer buffer() {
    return ByteBuffer.wrap(buf, 0, pos);
  }

  private void ensure(int more) {
    if (pos + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
    }
  }
}
