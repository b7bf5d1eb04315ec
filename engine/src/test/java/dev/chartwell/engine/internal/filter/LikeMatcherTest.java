package dev.chartwell.engine.internal.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** LIKE matching: the same answers as a regular expression, in time linear in the text. */
class LikeMatcherTest {

  @Test
  void matchesTheBasicForms() {
    assertTrue(new LikeMatcher("abc", false).matches("abc"));
    assertFalse(new LikeMatcher("abc", false).matches("abcd"));
    assertTrue(new LikeMatcher("ab%", false).matches("abcd"));
    assertTrue(new LikeMatcher("%cd", false).matches("abcd"));
    assertTrue(new LikeMatcher("%bc%", false).matches("abcd"));
    assertTrue(new LikeMatcher("a_c", false).matches("abc"));
    assertFalse(new LikeMatcher("a_c", false).matches("ac"));
    assertTrue(new LikeMatcher("a%b%c", false).matches("aXbYc"));
    assertFalse(new LikeMatcher("a%b%c", false).matches("aXcYb"));
    assertTrue(new LikeMatcher("\\%\\_", false).matches("%_"));
    assertFalse(new LikeMatcher("\\%\\_", false).matches("ab"));
    assertTrue(new LikeMatcher("%ERROR%", true).matches("an error here"));
    assertTrue(new LikeMatcher("%", false).matches(""));
    assertTrue(new LikeMatcher("", false).matches(""));
    assertFalse(new LikeMatcher("", false).matches("a"));
    // A trailing backslash escapes nothing and stands for itself.
    assertTrue(new LikeMatcher("a\\", false).matches("a\\"));
  }

  @Test
  void prefixAndSuffixDoNotOverlap() {
    assertFalse(new LikeMatcher("ab%ba", false).matches("aba"));
    assertTrue(new LikeMatcher("ab%ba", false).matches("abba"));
    assertFalse(new LikeMatcher("a_%_a", false).matches("aaa"));
    assertTrue(new LikeMatcher("a_%_a", false).matches("aaaa"));
  }

  @Test
  void underscoreIsOneCodePoint() {
    String emoji = "x\uD83D\uDE00y"; // x😀y: four chars, three code points
    assertTrue(new LikeMatcher("x_y", false).matches(emoji));
    assertFalse(new LikeMatcher("x__y", false).matches(emoji));
    assertTrue(new LikeMatcher("%\uD83D\uDE00%", false).matches(emoji));
  }

  /** The pattern of the attack: a backtracking regex never finished on this one. */
  @Test
  @Timeout(10)
  void pathologicalPatternsRunInLinearTime() {
    String text = "a".repeat(200_000);
    for (String pattern :
        new String[] {"_%_%_%_%_%z", "%a%a%a%a%a%a%a%a%a%a%b", "%_%_%_%_%_%_%_%_%_%_%_%b"}) {
      assertFalse(new LikeMatcher(pattern, true).matches(text), pattern);
    }
    assertTrue(new LikeMatcher("_%_%_%_%_%a", true).matches(text));
  }

  @Test
  void agreesWithARegularExpressionOnRandomInputs() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    String alphabet = "ab%_\\A";
    for (int i = 0; i < 50_000; i++) {
      String pattern = random(random, alphabet, 6);
      String value = random(random, "abAB_%\\", 8);
      boolean ci = random.nextBoolean();
      assertEquals(
          regex(pattern, ci, value),
          new LikeMatcher(pattern, ci).matches(value),
          () ->
              "seed "
                  + seed
                  + ": pattern '"
                  + pattern
                  + "' value '"
                  + value
                  + "' caseInsensitive "
                  + ci);
    }
  }

  private static String random(Random r, String chars, int maxLength) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(maxLength + 1);
    for (int i = 0; i < n; i++) {
      sb.append(chars.charAt(r.nextInt(chars.length())));
    }
    return sb.toString();
  }

  /** The obvious translation to a regular expression, as the old matcher did it. */
  private static boolean regex(String rawPattern, boolean ci, String rawValue) {
    String pattern = ci ? rawPattern.toLowerCase(Locale.ROOT) : rawPattern;
    String value = ci ? rawValue.toLowerCase(Locale.ROOT) : rawValue;
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        re.append(".*");
      } else if (c == '_') {
        re.append('.');
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(value).matches();
  }
}
