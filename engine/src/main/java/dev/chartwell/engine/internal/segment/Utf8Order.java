package dev.chartwell.engine.internal.segment;

import java.util.Arrays;

/**
 * {@link String#compareTo} order on UTF-8 bytes, without decoding them: the byte ranks that {@link
 * StringDictionary} compares entries and prefix keys by.
 *
 * <p>UTF-8 bytes sort in code point order, which is {@link String#compareTo} (UTF-16) order except
 * between supplementary characters (lead bytes F0-F4) and U+E000-U+FFFF (lead bytes EE and EF):
 * UTF-16 puts the supplementary characters, as surrogates, first. The first differing bytes of two
 * valid UTF-8 strings sit at the same position of a character, so swapping those lead bytes' ranks
 * restores the UTF-16 order. Kept apart from the dictionary because the rule is about the encoding,
 * not about any layout; the methods are static and small so that the JIT inlines them into the
 * dictionary's lookups.
 */
final class Utf8Order {
  private Utf8Order() {}

  /** A byte's rank at the first difference: lead bytes EE and EF move after F0-F4. */
  static int utf16Rank(int b) {
    if (b < 0xEE) {
      return b;
    }
    return b >= 0xF0 ? b - 2 : b + 7;
  }

  /** Compares two UTF-8 byte strings in {@link String#compareTo} order. */
  static int compareRanked(byte[] a, int aLength, byte[] b, int bLength) {
    int n = Math.min(aLength, bLength);
    int i = Arrays.mismatch(a, 0, n, b, 0, n);
    if (i >= 0) {
      return utf16Rank(a[i] & 0xFF) - utf16Rank(b[i] & 0xFF);
    }
    return Integer.compare(aLength, bLength);
  }

  /** Replaces each byte of a prefix key by its rank. */
  static long ranked(long key) {
    if ((key & 0x8080808080808080L) == 0) {
      return key; // ASCII: every byte is its own rank
    }
    long ranked = 0;
    for (int shift = 56; shift >= 0; shift -= 8) {
      ranked |= (long) utf16Rank((int) (key >>> shift) & 0xFF) << shift;
    }
    return ranked;
  }
}
