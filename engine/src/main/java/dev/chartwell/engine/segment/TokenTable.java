package dev.chartwell.engine.segment;

import java.util.Arrays;

/**
 * The distinct tokens of a column while its token index is built, numbered in the order first met.
 * Tokens are short (a word, a number), so each is also kept as its first eight bytes packed into a
 * {@code long} beside its length: finding a token of up to eight bytes costs one multiply for the
 * hash and a comparison of two longs, with no byte loop. The bytes of every token are also kept
 * back to back in one array, for the sorted dictionary.
 */
final class TokenTable {
  private byte[] text = new byte[1 << 14];
  private int textEnd;
  private int[] bounds = new int[1025]; // id -> where its bytes start; one more: the end
  private long[] heads = new long[1024]; // id -> its first 8 bytes, packed
  private int[] hashes = new int[1024];
  private int size;
  private int[] slots = new int[2048]; // id + 1, or 0 for an empty slot

  /**
   * The tokens found last, by hash: a text's common words come back all the time, and finding them
   * here reads one small array instead of the table's slots and entries.
   */
  private final long[] recentHeads = new long[RECENT];

  private final int[] recentIds = new int[RECENT]; // id + 1, or 0

  private static final int RECENT = 1024;

  /**
   * @return the number of distinct tokens met
   */
  int size() {
    return size;
  }

  /**
   * @return the tokens' bytes, token {@code id} at {@code [bounds()[id], bounds()[id + 1])}
   */
  byte[] text() {
    return text;
  }

  /**
   * @return where each token starts, and the end of the last
   */
  int[] bounds() {
    return bounds;
  }

  /**
   * @param token the token's bytes, already lower-cased, from index 0
   * @param length its length
   * @param head its first (up to) eight bytes packed by {@link #pack}
   * @return its id, a new one when it was not met before
   */
  int id(byte[] token, int length, long head) {
    int h = hash(token, length, head);
    int recent = h & (RECENT - 1);
    if (recentHeads[recent] == head) {
      int id = recentIds[recent] - 1;
      if (id >= 0 && bounds[id + 1] - bounds[id] == length && sameTail(id, token, length)) {
        return id;
      }
    }
    int id = find(token, length, head, h);
    recentHeads[recent] = head;
    recentIds[recent] = id + 1;
    return id;
  }

  private int find(byte[] token, int length, long head, int h) {
    int mask = slots.length - 1;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        int id = add(token, length, head, h);
        slots[slot] = id + 1;
        if (size * 2 > slots.length) {
          rehash();
        }
        return id;
      }
      int id = entry - 1;
      if (heads[id] == head
          && hashes[id] == h
          && bounds[id + 1] - bounds[id] == length
          && sameTail(id, token, length)) {
        return id;
      }
    }
  }

  /** Whether a token's bytes after its first eight (which its head holds) are these. */
  private boolean sameTail(int id, byte[] token, int length) {
    int start = bounds[id];
    for (int i = 8; i < length; i++) {
      if (text[start + i] != token[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Packs a token's first eight bytes (fewer when it is shorter) into a {@code long}, first byte
   * lowest; two tokens of the same length up to eight are equal exactly when these are.
   *
   * @param token the bytes
   * @param length how many
   * @return the packed bytes
   */
  static long pack(byte[] token, int length) {
    long head = 0;
    for (int i = Math.min(length, 8) - 1; i >= 0; i--) {
      head = head << 8 | (token[i] & 0xFF);
    }
    return head;
  }

  private static int hash(byte[] token, int length, long head) {
    long h = head * 0x9E3779B97F4A7C15L + length;
    for (int i = 8; i < length; i++) {
      h = (h + token[i]) * 0x9E3779B97F4A7C15L;
    }
    return (int) (h ^ (h >>> 29) ^ (h >>> 32));
  }

  private int add(byte[] token, int length, long head, int hash) {
    int id = size++;
    if (textEnd + length > text.length) {
      text = Arrays.copyOf(text, Math.max(text.length * 2, textEnd + length));
    }
    System.arraycopy(token, 0, text, textEnd, length);
    textEnd += length;
    if (size + 1 > bounds.length) {
      bounds = Arrays.copyOf(bounds, bounds.length * 2);
      heads = Arrays.copyOf(heads, bounds.length);
      hashes = Arrays.copyOf(hashes, bounds.length);
    }
    heads[id] = head;
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
}
