package dev.chartwell.engine.segment;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Distinct byte strings numbered in the order first met: the tokens of a column while its token
 * index is built, the values of a head's string column while it repeats them. The strings are kept
 * back to back in one array and found through an open-addressing table of ids, so that the millions
 * of values or token occurrences of a segment make no object each.
 */
final class Utf8Table {
  private byte[] text;
  private int textEnd;
  private int[] bounds = new int[257]; // id -> where its bytes start; one more: the end
  private int[] hashes = new int[256];
  private int size;
  private int[] slots = new int[512]; // id + 1, or 0 for an empty slot

  Utf8Table() {
    this(1 << 12);
  }

  /**
   * @param textCapacity bytes to allocate room for up front
   */
  Utf8Table(int textCapacity) {
    text = new byte[Math.max(16, textCapacity)];
  }

  /**
   * @return the number of distinct strings met
   */
  int size() {
    return size;
  }

  /**
   * @return the strings' bytes, string {@code id} at {@code [bounds()[id], bounds()[id + 1])}; an
   *     array that later additions may replace but never change below {@link #textBytes()}
   */
  byte[] text() {
    return text;
  }

  /**
   * @return where each string starts, and the end of the last; like {@link #text()}, never changed
   *     below {@link #size()} + 1
   */
  int[] bounds() {
    return bounds;
  }

  /**
   * @return the bytes of every string together
   */
  int textBytes() {
    return textEnd;
  }

  /**
   * @param id a string's id
   * @return its text, as Latin-1 (for ASCII strings such as tokens)
   */
  String latin1(int id) {
    return new String(text, bounds[id], bounds[id + 1] - bounds[id], StandardCharsets.ISO_8859_1);
  }

  /**
   * Numbers the string {@code value[from, to)}.
   *
   * @return its id, a new one when it was not met before
   */
  int id(byte[] value, int from, int to) {
    int h = hash(value, from, to);
    int mask = slots.length - 1;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        int id = add(value, from, to, h);
        slots[slot] = id + 1;
        if (size * 2 > slots.length) {
          rehash();
        }
        return id;
      }
      int id = entry - 1;
      if (hashes[id] == h && same(id, value, from, to)) {
        return id;
      }
    }
  }

  /**
   * Byte by byte: the values of a repeating column are short, shorter than a vector loop's setup.
   */
  private boolean same(int id, byte[] value, int from, int to) {
    int start = bounds[id];
    if (bounds[id + 1] - start != to - from) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (text[start + i - from] != value[i]) {
        return false;
      }
    }
    return true;
  }

  private static int hash(byte[] value, int from, int to) {
    int h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + value[i];
    }
    h ^= h >>> 16;
    h *= 0x9E3779B1;
    return h ^ h >>> 15;
  }

  private int add(byte[] value, int from, int to, int hash) {
    int id = size++;
    int length = to - from;
    if (textEnd + length > text.length) {
      text = Arrays.copyOf(text, Math.max(text.length * 2, textEnd + length));
    }
    System.arraycopy(value, from, text, textEnd, length);
    textEnd += length;
    if (size + 1 > bounds.length) {
      bounds = Arrays.copyOf(bounds, bounds.length * 2);
      hashes = Arrays.copyOf(hashes, bounds.length);
    }
    hashes[id] = hash;
    bounds[id + 1] = textEnd;
    return id;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    int mask = slots.length - 1;
    for (int id = 0; id < size; id++) {
      int slot = hashes[id] & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = id + 1;
    }
  }

  /**
   * @return an estimate of the heap this table uses
   */
  long bytes() {
    return 64L + text.length + 4L * (bounds.length + hashes.length + slots.length);
  }
}
