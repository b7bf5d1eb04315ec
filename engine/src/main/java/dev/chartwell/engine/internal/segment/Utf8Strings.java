package dev.chartwell.engine.internal.segment;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Strings as UTF-8 bytes back to back in one array: string {@code i} is {@code data[bounds[i],
 * bounds[i + 1])}. How sealing hands sorted distinct values to a dictionary and a token index
 * without an object per value.
 *
 * @param data the bytes
 * @param bounds where each string starts, and the end of the last ({@code size + 1} entries)
 * @param size the number of strings
 */
record Utf8Strings(byte[] data, int[] bounds, int size) {
  /**
   * @param values strings (valid Unicode)
   * @return their UTF-8 forms, in the same order
   */
  static Utf8Strings of(List<String> values) {
    byte[][] encoded = new byte[values.size()][];
    long total = 0;
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
      total += encoded[i].length;
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("more than 2 GiB of strings in one segment");
    }
    byte[] data = new byte[(int) total];
    int[] bounds = new int[encoded.length + 1];
    int pos = 0;
    for (int i = 0; i < encoded.length; i++) {
      bounds[i] = pos;
      System.arraycopy(encoded[i], 0, data, pos, encoded[i].length);
      pos += encoded[i].length;
    }
    bounds[encoded.length] = pos;
    return new Utf8Strings(data, bounds, encoded.length);
  }

  /**
   * @param i a string
   * @return where it starts
   */
  int start(int i) {
    return bounds[i];
  }

  /**
   * @param i a string
   * @return its length in bytes
   */
  int length(int i) {
    return bounds[i + 1] - bounds[i];
  }

  /**
   * @return the bytes of every string together
   */
  int totalBytes() {
    return bounds[size];
  }

  /**
   * @param i a string
   * @return it, decoded
   */
  String get(int i) {
    return new String(data, bounds[i], length(i), StandardCharsets.UTF_8);
  }

  /**
   * @param i one string
   * @param j another
   * @return how many leading bytes they share
   */
  int shared(int i, int j) {
    int n = Math.min(length(i), length(j));
    int m = Arrays.mismatch(data, bounds[i], bounds[i] + n, data, bounds[j], bounds[j] + n);
    return m < 0 ? n : m;
  }
}
