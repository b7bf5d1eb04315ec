package dev.chartwell.engine.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The sorted distinct strings of a segment column, as UTF-8 in one byte array. Ids are positions in
 * {@link String#compareTo} order, so a range of strings is a range of ids and the first and last
 * entries are the column's zone map.
 */
public final class StringDictionary {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final byte[] data;
  private final int[] offsets;

  private StringDictionary(byte[] data, int[] offsets) {
    this.data = data;
    this.offsets = offsets;
  }

  /**
   * @param sortedDistinct distinct strings in {@link String#compareTo} order
   * @return the dictionary
   */
  public static StringDictionary of(List<String> sortedDistinct) {
    byte[][] encoded = new byte[sortedDistinct.size()][];
    int total = 0;
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = sortedDistinct.get(i).getBytes(StandardCharsets.UTF_8);
      total += encoded[i].length;
    }
    byte[] data = new byte[total];
    int[] offsets = new int[encoded.length + 1];
    int pos = 0;
    for (int i = 0; i < encoded.length; i++) {
      offsets[i] = pos;
      System.arraycopy(encoded[i], 0, data, pos, encoded[i].length);
      pos += encoded[i].length;
    }
    offsets[encoded.length] = pos;
    return new StringDictionary(data, offsets);
  }

  /**
   * @return the number of distinct strings
   */
  public int size() {
    return offsets.length - 1;
  }

  /**
   * @param id an id from 0 to {@code size() - 1}
   * @return the string
   */
  public String get(int id) {
    return new String(data, offsets[id], offsets[id + 1] - offsets[id], StandardCharsets.UTF_8);
  }

  /**
   * @param value a string
   * @return its id, or {@code -(insertion point) - 1} when absent (as {@link Arrays#binarySearch})
   */
  public int indexOf(String value) {
    int lo = 0;
    int hi = size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = get(mid).compareTo(value);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /**
   * Compares two entries, of this dictionary and of another, in {@link String#compareTo} order
   * without decoding them.
   *
   * <p>UTF-8 bytes sort in code point order, which is {@link String#compareTo} (UTF-16) order
   * except between supplementary characters (lead bytes F0-F4) and U+E000-U+FFFF (lead bytes EE and
   * EF): UTF-16 puts the supplementary characters, as surrogates, first. The first differing bytes
   * of two valid UTF-8 strings sit at the same position of a character, so swapping those lead
   * bytes' ranks restores the UTF-16 order.
   *
   * @param id an entry of this dictionary
   * @param other another dictionary (or this one)
   * @param otherId an entry of {@code other}
   * @return negative, zero or positive as entry {@code id} is less than, equal to or greater than
   *     the other entry
   */
  public int compare(int id, StringDictionary other, int otherId) {
    int from = offsets[id];
    int to = offsets[id + 1];
    int otherFrom = other.offsets[otherId];
    int otherTo = other.offsets[otherId + 1];
    int i = Arrays.mismatch(data, from, to, other.data, otherFrom, otherTo);
    if (i < 0) {
      return 0;
    }
    if (from + i == to) {
      return -1; // a proper prefix sorts first
    }
    if (otherFrom + i == otherTo) {
      return 1;
    }
    return utf16Rank(data[from + i] & 0xFF) - utf16Rank(other.data[otherFrom + i] & 0xFF);
  }

  /**
   * The first 8 bytes of an entry as an unsigned big-endian number, each byte replaced by its rank
   * in {@link String#compareTo} order and missing bytes by 0. When two entries' prefixes differ,
   * {@link Long#compareUnsigned} of the prefixes orders them as {@link #compare} does; when they
   * are equal, only {@link #compare} can tell.
   *
   * @param id an entry
   * @return its prefix key
   */
  public long prefix(int id) {
    int from = offsets[id];
    int n = offsets[id + 1] - from;
    long key;
    if (n >= 8) {
      key = (long) BIG_ENDIAN_LONG.get(data, from);
    } else {
      key = 0;
      for (int i = 0; i < n; i++) {
        key |= (long) (data[from + i] & 0xFF) << (56 - 8 * i);
      }
    }
    if ((key & 0x8080808080808080L) == 0) {
      return key; // ASCII: every byte is its own rank
    }
    long ranked = 0;
    for (int shift = 56; shift >= 0; shift -= 8) {
      ranked |= (long) utf16Rank((int) (key >>> shift) & 0xFF) << shift;
    }
    return ranked;
  }

  /** A byte's rank at the first difference: lead bytes EE and EF move after F0-F4. */
  private static int utf16Rank(int b) {
    if (b < 0xEE) {
      return b;
    }
    return b >= 0xF0 ? b - 2 : b + 7;
  }

  /**
   * @return heap bytes used
   */
  public long bytes() {
    return 32L + data.length + 4L * offsets.length;
  }
}
