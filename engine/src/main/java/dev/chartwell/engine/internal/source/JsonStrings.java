package dev.chartwell.engine.internal.source;

/**
 * Event text written inside JSON strings (rows sent to an external store, webhook bodies): quotes,
 * backslashes and control characters escaped, and U+2028/U+2029, which JavaScript source does not
 * allow raw; every other character is kept as it is.
 */
public final class JsonStrings {
  private JsonStrings() {}

  /**
   * Appends a text as a quoted JSON string.
   *
   * @param s the text
   * @param sb where to append it
   */
  public static void quote(String s, StringBuilder sb) {
    sb.append('"');
    escape(s, sb);
    sb.append('"');
  }

  /**
   * Appends a text as the inside of a JSON string.
   *
   * @param s the text
   * @param sb where to append it
   */
  public static void escape(String s, StringBuilder sb) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
  }
}
