package dev.chartwell.engine.internal.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Lowercase hexadecimal digits packed two to a byte, as a {@code HEX} {@link StringDictionary}
 * stores trace and span ids, and back. Lowercase hex digits sort as their values do, so packed ids
 * keep their strings' order. Eight digits at a time where it pays.
 */
final class HexDigits {
  private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** The value of each ASCII character as a lowercase hex digit, or -1. */
  private static final byte[] NIBBLES = new byte[128];

  static {
    Arrays.fill(NIBBLES, (byte) -1);
    for (int i = 0; i < DIGITS.length; i++) {
      NIBBLES[DIGITS[i]] = (byte) i;
    }
  }

  private static final VarHandle LITTLE_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LITTLE_ENDIAN_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private HexDigits() {}

  /**
   * @param nibble a value whose low four bits are taken
   * @return its lowercase hex digit, as ASCII
   */
  static byte digit(int nibble) {
    return DIGITS[nibble & 15];
  }

  /**
   * Packs lowercase hex digits two to a byte, eight digits at a time.
   *
   * @param digits holds the digits
   * @param from where they start
   * @param packed where they go, {@code packed.length} bytes from twice as many digits
   * @return whether every one was a lowercase hex digit (if not, {@code packed} is partly written)
   */
  static boolean pack(byte[] digits, int from, byte[] packed) {
    return pack(digits, from, packed, 0, packed.length);
  }

  /**
   * Packs lowercase hex digits two to a byte into part of an array.
   *
   * @param digits holds the digits
   * @param from where they start
   * @param packed where they go
   * @param at the first byte of {@code packed} to write
   * @param length how many bytes to write, from twice as many digits
   * @return whether every one was a lowercase hex digit (if not, {@code packed} is partly written)
   */
  static boolean pack(byte[] digits, int from, byte[] packed, int at, int length) {
    int o = at;
    int end = at + length;
    for (; o + 4 <= end; o += 4, from += 8) {
      long x = (long) LITTLE_ENDIAN_LONG.get(digits, from);
      if (!lowerHex(x)) {
        return false;
      }
      // Each digit's value ('0'-'9': the low four bits; 'a'-'f': those plus 9, bit 6 being set),
      // then each pair as one byte in the low half of its 16 bits, then the four bytes together.
      long v = (x & 0x0F0F0F0F0F0F0F0FL) + 9 * ((x >>> 6) & 0x0101010101010101L);
      long t = (v & 0x00FF00FF00FF00FFL) << 4 | (v >>> 8) & 0x00FF00FF00FF00FFL;
      t = (t | t >>> 8) & 0x0000FFFF0000FFFFL;
      LITTLE_ENDIAN_INT.set(packed, o, (int) (t | t >>> 16));
    }
    for (; o < end; o++, from += 2) {
      int high = nibble(digits[from]);
      int low = nibble(digits[from + 1]);
      if (high < 0 || low < 0) {
        return false;
      }
      packed[o] = (byte) (high << 4 | low);
    }
    return true;
  }

  /**
   * The eight digits of four packed bytes as ASCII, the first digit in the high byte: the nibbles
   * spread into eight bytes, high nibble first, then each 0-15 turned into its digit all at once:
   * {@code '0'} + n, plus 39 more ({@code 'a' - '0' - 10}) where n > 9.
   *
   * @param packed four packed bytes, the first in the high bits
   * @return the digits, big-endian
   */
  static long ascii(int packed) {
    long x = packed & 0xFFFFFFFFL;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFL;
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FL;
    long letters = ((x + 0x0606060606060606L) >>> 4) & 0x0101010101010101L;
    return x + 0x3030303030303030L + letters * 39;
  }

  /**
   * Whether each of eight bytes is '0'-'9' or 'a'-'f'. For bytes below 0x80, adding a constant sets
   * a byte's top bit exactly when the byte is at least 0x80 minus that constant, without a carry
   * into the next byte.
   */
  private static boolean lowerHex(long x) {
    long top = 0x8080808080808080L;
    if ((x & top) != 0) {
      return false;
    }
    long digit = (x + 0x5050505050505050L) & ~(x + 0x4646464646464646L); // 0x30 to 0x39
    long letter = (x + 0x1F1F1F1F1F1F1F1FL) & ~(x + 0x1919191919191919L); // 0x61 to 0x66
    return ((digit | letter) & top) == top;
  }

  /** The value of a lowercase hex digit, or -1. */
  private static int nibble(int c) {
    return (c & ~0x7F) == 0 ? NIBBLES[c] : -1;
  }
}
