package dev.chartwell.engine.segment;

import dev.chartwell.parser.Tokens;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The distinct tokens of a column while its token index is built, numbered in the order first met.
 * Tokens are runs of ASCII letters and digits ({@link Tokens#isTokenChar}), lower-cased; they are
 * read straight out of each value and kept as bytes in one array, found through an open-addressing
 * table of ids, so that the millions of token occurrences of a segment make no object each.
 */
final class TokenTable {
  private byte[] text = new byte[1 << 12];
  private int textEnd;
  private int[] starts = new int[257]; // token id -> where its bytes start; one more: the end
  private int[] hashes = new int[256];
  private int size;
  private int[] slots = new int[512]; // token id + 1, or 0 for an empty slot

  /**
   * @return the number of distinct tokens met
   */
  int size() {
    return size;
  }

  /**
   * @param id a token id
   * @return the token's text
   */
  String token(int id) {
    return new String(text, starts[id], starts[id + 1] - starts[id], StandardCharsets.ISO_8859_1);
  }

  /**
   * Numbers the token {@code value[from, to)} (token characters only), lower-cased.
   *
   * @return its id, a new one when it was not met before
   */
  int id(String value, int from, int to) {
    int h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + lower(value.charAt(i));
    }
    h ^= h >>> 16;
    h *= 0x9E3779B1;
    int mask = slots.length - 1;
    for (int slot = (h ^ h >>> 15) & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        int id = add(value, from, to, h);
        slots[slot] = id + 1;
        if (size * 2 > slots.length) {
          rehash();
        }
        return id;
      }
      if (hashes[entry - 1] == h && sameToken(entry - 1, value, from, to)) {
        return entry - 1;
      }
    }
  }

  private static int lower(char c) {
    return c <= 'Z' && c >= 'A' ? c + ('a' - 'A') : c;
  }

  private boolean sameToken(int id, String value, int from, int to) {
    int start = starts[id];
    if (starts[id + 1] - start != to - from) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (text[start + i - from] != lower(value.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private int add(String value, int from, int to, int hash) {
    int id = size++;
    if (textEnd + (to - from) > text.length) {
      text = Arrays.copyOf(text, Math.max(text.length * 2, textEnd + (to - from)));
    }
    for (int i = from; i < to; i++) {
      text[textEnd++] = (byte) lower(value.charAt(i));
    }
    if (size + 1 > starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
      hashes = Arrays.copyOf(hashes, starts.length);
    }
    hashes[id] = hash;
    starts[id + 1] = textEnd;
    return id;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    int mask = slots.length - 1;
    for (int id = 0; id < size; id++) {
      int h = hashes[id];
      int slot = (h ^ h >>> 15) & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = id + 1;
    }
  }
}
