package dev.chartwell.server.validation;

import java.util.Locale;

/**
 * The one check of names (of keys, services, sources, dashboards, tiles, alerts, webhooks, tags),
 * column and field names, and source expressions. A name must not be blank; none of them may hold a
 * control character (C0 including NUL, TAB, CR, LF and ESC, DEL, or C1) or an unpaired UTF-16
 * surrogate, or be longer than {@link #MAX_LENGTH} characters (UTF-16 code units, as a JSON string
 * counts them). Each problem is a text starting with the field's path, e.g. {@code name: must not
 * contain control characters (found U+001B at position 3)}; positions count from 1.
 */
public final class Names {
  /** The longest name, field name or expression, in characters. */
  public static final int MAX_LENGTH = 256;

  private Names() {}

  /**
   * Checks a name: not blank, then {@link #text}.
   *
   * @param path the field's path in the request, e.g. {@code tiles[2].name}
   * @param value the name
   * @param maxLength the longest allowed (at most {@link #MAX_LENGTH} in practice)
   * @return the problem, or {@code null} when the name is fine
   */
  public static String name(String path, String value, int maxLength) {
    if (value.isBlank()) {
      return path + ": must not be blank";
    }
    return text(path, value, maxLength);
  }

  /**
   * Checks a name of at most {@link #MAX_LENGTH} characters.
   *
   * @param path the field's path in the request
   * @param value the name
   * @return the problem, or {@code null} when the name is fine
   */
  public static String name(String path, String value) {
    return name(path, value, MAX_LENGTH);
  }

  /**
   * Checks a column or field name or a source expression: no control characters, no unpaired
   * surrogates, at most {@link #MAX_LENGTH} characters. Empty is allowed here (the caller decides
   * what empty means).
   *
   * @param path the field's path in the request
   * @param value the text
   * @return the problem, or {@code null} when it is fine
   */
  public static String expression(String path, String value) {
    return text(path, value, MAX_LENGTH);
  }

  private static String text(String path, String value, int maxLength) {
    // The length first: a 900 KB value is refused without a scan of its characters.
    if (value.length() > maxLength) {
      return path + ": longer than " + maxLength + " characters";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        return path
            + ": must not contain control characters (found "
            + codePoint(c)
            + " at position "
            + (i + 1)
            + ")";
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++; // a supplementary character
      } else if (Character.isSurrogate(c)) {
        return path
            + ": must be valid Unicode text (found the unpaired surrogate "
            + codePoint(c)
            + " at position "
            + (i + 1)
            + ")";
      }
    }
    return null;
  }

  private static String codePoint(char c) {
    return String.format(Locale.ROOT, "U+%04X", (int) c);
  }
}
