package dev.chartwell.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The checks {@link EventBatch#putString(int, String)} makes on a string's UTF-8 encoding: whether
 * {@link String#getBytes} kept every character, or replaced an unpaired surrogate by a '?'. Kept
 * apart from the batch as the one piece of it that is about Unicode rather than storage; static and
 * allocation-free, as it runs once per string value.
 */
final class Utf8Strings {
  private Utf8Strings() {}

  /**
   * UTF-8 as long as its string: ASCII, unless an unpaired surrogate became a '?'. Eight bytes at a
   * time.
   */
  static boolean noQuestionMark(byte[] utf8) {
    int n = utf8.length;
    if (n < 8) {
      for (int i = 0; i < n; i++) {
        if (utf8[i] == '?') {
          return false;
        }
      }
      return true;
    }
    for (int i = 0; i + 8 <= n; i += 8) {
      if (hasQuestionMark((long) WORDS.get(utf8, i))) {
        return false;
      }
    }
    return !hasQuestionMark((long) WORDS.get(utf8, n - 8)); // the tail, overlapping
  }

  private static boolean hasQuestionMark(long word) {
    long x = word ^ 0x3F3F3F3F3F3F3F3FL; // a '?' becomes a zero byte
    return ((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0;
  }

  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Whether a string holds no unpaired surrogate (UTF-8 would have replaced it by '?'). */
  static boolean validUnicode(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
        if (!Character.isLowSurrogate(s.charAt(++i))) {
          return false;
        }
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
