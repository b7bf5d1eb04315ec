package dev.chartwell.server.charts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The member names of one line, in order: as written, with their depth, flattened hash and field.
 * {@link LineParser} keeps the last line's to predict the next one's (lines of one stream name
 * their members alike) and compares names with {@link #same}, a word at a time.
 */
final class LineNames {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  byte[] text = new byte[1024];
  int[] ends = new int[32];
  int[] depths = new int[32];
  int[] hashes = new int[32];
  int[] fields = new int[32];
  int count;

  int start(int k) {
    return k == 0 ? 0 : ends[k - 1];
  }

  int add(byte[] bytes, int from, int length, int depth, int hash, int field) {
    int k = count++;
    if (k == ends.length) {
      ends = Arrays.copyOf(ends, 2 * k);
      depths = Arrays.copyOf(depths, 2 * k);
      hashes = Arrays.copyOf(hashes, 2 * k);
      fields = Arrays.copyOf(fields, 2 * k);
    }
    int at = start(k);
    if (at + length > text.length) {
      text = Arrays.copyOf(text, Math.max(2 * text.length, at + length));
    }
    System.arraycopy(bytes, from, text, at, length);
    ends[k] = at + length;
    depths[k] = depth;
    hashes[k] = hash;
    fields[k] = field;
    return k;
  }

  /** Makes this the first {@code count} names of another record. */
  void copy(LineNames other, int count) {
    this.count = 0;
    for (int k = 0; k < count; k++) {
      int from = other.start(k);
      add(
          other.text,
          from,
          other.ends[k] - from,
          other.depths[k],
          other.hashes[k],
          other.fields[k]);
    }
  }

  /** Whether {@code a[aFrom, aFrom + length)} and {@code b[bFrom, bFrom + length)} are equal. */
  static boolean same(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      if ((long) LONG.get(a, aFrom + i) != (long) LONG.get(b, bFrom + i)) {
        return false;
      }
    }
    if (i == length) {
      return true;
    }
    if (aFrom + i + 8 <= a.length && bFrom + i + 8 <= b.length) {
      // The last 1-7 bytes in one word each, the bytes past them masked off (little-endian: low).
      long mask = -1L >>> (8 * (8 - (length - i)));
      return (((long) LONG.get(a, aFrom + i) ^ (long) LONG.get(b, bFrom + i)) & mask) == 0;
    }
    for (; i < length; i++) {
      if (a[aFrom + i] != b[bFrom + i]) {
        return false;
      }
    }
    return true;
  }
}
