package dev.chartwell.engine.internal.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Distinct byte strings numbered in the order first met: the values of a head's string column while
 * it repeats them, the tokens of a column while its token index is built. The strings are kept back
 * to back in one array and found through an open-addressing table of ids, so that the millions of
 * values or token occurrences of a segment make no object each. These strings are short (a service
 * name, a word, a number), so each is also kept as its first eight bytes packed into a {@code
 * long}: finding one of up to eight bytes costs one multiplication for the hash and a comparison of
 * two longs, with no byte loop.
 */
final class Utf8Table {
  private byte[] text;
  private int textEnd;
  private int[] bounds = new int[257]; // id -> where its bytes start; one more: the end
  private long[] heads = new long[256]; // id -> its first 8 bytes, packed
  private int[] hashes = new int[256];
  private int size;
  private int slotted; // strings with a slot: all but those appended
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
   *     array that later additions may replace but never change below the last string's end
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
   * Numbers the string {@code value[from, to)}.
   *
   * @return its id, a new one when it was not met before
   */
  int id(byte[] value, int from, int to) {
    return id(value, from, to, pack(value, from, to));
  }

  /**
   * Numbers the string {@code value[from, to)} whose first bytes the caller packed already.
   *
   * @param head {@link #pack} of the string
   * @return its id, a new one when it was not met before
   */
  int id(byte[] value, int from, int to, long head) {
    int h = hash(value, from, to, head);
    int mask = slots.length - 1;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        int id = add(value, from, to, head, h);
        slots[slot] = id + 1;
        if (++slotted * 2 > slots.length) {
          rehash();
        }
        return id;
      }
      int id = entry - 1;
      if (heads[id] == head && hashes[id] == h && same(id, value, from, to)) {
        return id;
      }
    }
  }

  /**
   * @param id a string's id
   * @param value holds a string whose first eight bytes {@code head} holds
   * @param from where it starts
   * @param to where it ends
   * @param head its first bytes, packed by {@link #pack}
   * @return whether string {@code id} is that string
   */
  boolean is(int id, byte[] value, int from, int to, long head) {
    return heads[id] == head && same(id, value, from, to);
  }

  /**
   * Packs a string's first eight bytes (fewer when it is shorter) into a {@code long}, first byte
   * lowest. With their lengths equal, two strings of up to eight bytes are equal exactly when these
   * are (a missing byte and a NUL differ by the length).
   *
   * @return the packed bytes
   */
  static long pack(byte[] value, int from, int to) {
    int length = to - from;
    if (from + 8 <= value.length) { // one read, the bytes past the string masked off
      long word = (long) WORDS.get(value, from);
      return length >= 8 ? word : word & ((1L << (8 * length)) - 1);
    }
    long head = 0;
    for (int i = Math.min(to, from + 8) - 1; i >= from; i--) {
      head = head << 8 | (value[i] & 0xFF);
    }
    return head;
  }

  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * @return a hash of a string from its packed head and the bytes after it
   */
  static int hash(byte[] value, int from, int to, long head) {
    long h = head * 0x9E3779B97F4A7C15L + (to - from);
    int i = from + 8;
    for (; i + 8 <= to; i += 8) {
      h = (h + (long) WORDS.get(value, i)) * 0x9E3779B97F4A7C15L;
    }
    if (i < to) { // the last eight bytes, overlapping the word before: still inside the string
      h = (h + (long) WORDS.get(value, to - 8)) * 0x9E3779B97F4A7C15L;
    }
    // A product's low bits depend only on the factors' low bits, that is on the first bytes: the
    // high half, where every byte counts, is folded down and mixed again (MurmurHash3's finalizer),
    // because the table's slots are the low bits.
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }

  /** Whether string {@code id} has this length and these bytes after the head (checked apart). */
  private boolean same(int id, byte[] value, int from, int to) {
    int start = bounds[id];
    int length = to - from;
    return bounds[id + 1] - start == length
        && (length <= 8 || Arrays.equals(text, start + 8, start + length, value, from + 8, to));
  }

  private int add(byte[] value, int from, int to, long head, int hash) {
    int id = size++;
    int length = to - from;
    if (textEnd + length > text.length) {
      text = Arrays.copyOf(text, Math.max(text.length * 2, textEnd + length));
    }
    System.arraycopy(value, from, text, textEnd, length);
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

  /**
   * Numbers a string that the caller knows is not in the table yet, without giving it a slot: the
   * caller finds it again by an index of its own and never asks {@link #id} for it. Its bytes and
   * id are like any other's.
   *
   * @return its id
   */
  int append(byte[] value, int from, int to) {
    return add(value, from, to, pack(value, from, to), 0);
  }

  private void rehash() {
    int[] old = slots;
    slots = new int[old.length * 2];
    int mask = slots.length - 1;
    for (int entry : old) { // not by id: appended strings have no slot
      if (entry != 0) {
        int slot = hashes[entry - 1] & mask;
        while (slots[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        slots[slot] = entry;
      }
    }
  }

  /**
   * @return an estimate of the heap this table uses
   */
  long bytes() {
    return 64L
        + text.length
        + 4L * (bounds.length + hashes.length + slots.length)
        + 8L * heads.length;
  }
}
