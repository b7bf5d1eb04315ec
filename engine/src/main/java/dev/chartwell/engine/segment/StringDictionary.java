package dev.chartwell.engine.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The sorted distinct strings of a segment column, as UTF-8 back to back in one buffer with an
 * offset per entry. Ids are positions in {@link String#compareTo} order, so a range of strings is a
 * range of ids and the first and last entries are the column's zone map.
 *
 * <p>The buffers are Java arrays for a segment built in memory, or views of a memory-mapped segment
 * file ({@link SegmentFile}); entries are compared as bytes, without decoding them.
 */
public final class StringDictionary {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final ByteBuffer data; // big-endian, for prefix keys
  private final IntBuffer offsets;
  private final int size;

  private StringDictionary(ByteBuffer data, IntBuffer offsets) {
    this.data = data;
    this.offsets = offsets;
    this.size = offsets.capacity() - 1;
  }

  /**
   * @param sortedDistinct distinct strings in {@link String#compareTo} order
   * @return the dictionary
   */
  public static StringDictionary of(List<String> sortedDistinct) {
    byte[][] encoded = new byte[sortedDistinct.size()][];
    long total = 0;
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = sortedDistinct.get(i).getBytes(StandardCharsets.UTF_8);
      total += encoded[i].length;
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("a dictionary larger than 2 GiB in one segment");
    }
    byte[] data = new byte[(int) total];
    int[] offsets = new int[encoded.length + 1];
    int pos = 0;
    for (int i = 0; i < encoded.length; i++) {
      offsets[i] = pos;
      System.arraycopy(encoded[i], 0, data, pos, encoded[i].length);
      pos += encoded[i].length;
    }
    offsets[encoded.length] = pos;
    return new StringDictionary(ByteBuffer.wrap(data), IntBuffer.wrap(offsets));
  }

  /**
   * Reads a dictionary back from its parts, as {@link SegmentFile} stores them.
   *
   * @param offsets where each entry starts, and the end of the last
   * @param data the UTF-8 bytes of every entry, back to back
   * @return the dictionary
   * @throws IllegalArgumentException when the offsets do not describe the data
   */
  static StringDictionary of(IntBuffer offsets, ByteBuffer data) {
    int n = offsets.capacity();
    if (n < 1 || offsets.get(0) != 0 || offsets.get(n - 1) != data.capacity()) {
      throw new IllegalArgumentException("dictionary offsets do not match its data");
    }
    return new StringDictionary(data.order(ByteOrder.BIG_ENDIAN), offsets);
  }

  /**
   * @return the number of distinct strings
   */
  public int size() {
    return size;
  }

  /**
   * @param id an id from 0 to {@code size() - 1}
   * @return the string
   */
  public String get(int id) {
    int from = offsets.get(id);
    int length = offsets.get(id + 1) - from;
    if (data.hasArray()) {
      return new String(data.array(), data.arrayOffset() + from, length, StandardCharsets.UTF_8);
    }
    byte[] bytes = new byte[length];
    data.get(from, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * @param value a string
   * @return its id, or {@code -(insertion point) - 1} when absent (as {@link Arrays#binarySearch})
   */
  public int indexOf(String value) {
    byte[] key = value.getBytes(StandardCharsets.UTF_8);
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = compareTo(mid, key);
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

  /** Compares an entry with the UTF-8 bytes of a string, in {@link String#compareTo} order. */
  private int compareTo(int id, byte[] key) {
    int from = offsets.get(id);
    int length = offsets.get(id + 1) - from;
    int n = Math.min(length, key.length);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      if (data.getLong(from + i) != (long) BIG_ENDIAN_LONG.get(key, i)) {
        break; // the difference is within these 8 bytes
      }
    }
    for (; i < n; i++) {
      byte a = data.get(from + i);
      if (a != key[i]) {
        return utf16Rank(a & 0xFF) - utf16Rank(key[i] & 0xFF);
      }
    }
    return Integer.compare(length, key.length);
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
    int from = offsets.get(id);
    int length = offsets.get(id + 1) - from;
    int otherFrom = other.offsets.get(otherId);
    int otherLength = other.offsets.get(otherId + 1) - otherFrom;
    int n = Math.min(length, otherLength);
    ByteBuffer a = data;
    ByteBuffer b = other.data;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      if (a.getLong(from + i) != b.getLong(otherFrom + i)) {
        break; // the difference is within these 8 bytes
      }
    }
    for (; i < n; i++) {
      byte x = a.get(from + i);
      byte y = b.get(otherFrom + i);
      if (x != y) {
        return utf16Rank(x & 0xFF) - utf16Rank(y & 0xFF);
      }
    }
    return Integer.compare(length, otherLength); // a proper prefix sorts first
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
    int from = offsets.get(id);
    int n = offsets.get(id + 1) - from;
    long key;
    if (n >= 8) {
      key = data.getLong(from);
    } else {
      key = 0;
      for (int i = 0; i < n; i++) {
        key |= (long) (data.get(from + i) & 0xFF) << (56 - 8 * i);
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
   * @return the UTF-8 bytes of every entry (read with absolute gets)
   */
  ByteBuffer data() {
    return data;
  }

  /**
   * @return where each entry starts, and the end of the last
   */
  IntBuffer offsets() {
    return offsets;
  }

  /**
   * @return bytes of the entries and their offsets
   */
  public long bytes() {
    return 32L + data.capacity() + 4L * offsets.capacity();
  }
}
