package dev.chartwell.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tokenizer of the {@code where} language's full-text forms: tokens are maximal runs of ASCII
 * letters and digits; every other character separates. The engine's token index uses the same rule.
 */
public final class Tokens {
  private Tokens() {}

  /**
   * @param c a character
   * @return whether it belongs to a token
   */
  public static boolean isTokenChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  /**
   * @param s text
   * @return whether the text is exactly one token (non-empty, letters and digits only)
   */
  public static boolean isSingleToken(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!isTokenChar(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param text any text
   * @return its tokens, lower-cased, in order, with repetitions
   */
  public static List<String> lowerCaseTokens(String text) {
    List<String> out = new ArrayList<>();
    int start = -1;
    for (int i = 0; i <= text.length(); i++) {
      boolean inToken = i < text.length() && isTokenChar(text.charAt(i));
      if (inToken && start < 0) {
        start = i;
      } else if (!inToken && start >= 0) {
        out.add(text.substring(start, i).toLowerCase(Locale.ROOT));
        start = -1;
      }
    }
    return out;
  }
}
