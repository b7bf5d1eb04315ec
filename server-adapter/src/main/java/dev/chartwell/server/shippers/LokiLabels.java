package dev.chartwell.server.shippers;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a stream's labels as Loki's protobuf push gives them: LogQL's selector text, {@code
 * {job="app", level="info"}}, values in double quotes with {@code \"}, {@code \\} and {@code \n}
 * escapes, names of letters, digits and {@code _} not starting with a digit.
 */
final class LokiLabels {
  private LokiLabels() {}

  /** Labels that are not a selector, and why. */
  static final class Invalid extends Exception {
    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * @param text the selector text
   * @return the labels in order
   * @throws Invalid when the text is not a selector of {@code name="value"} pairs, or names a label
   *     twice
   */
  static Map<String, String> parse(String text) throws Invalid {
    Map<String, String> out = new LinkedHashMap<>();
    String s = text.strip();
    if (s.length() < 2 || s.charAt(0) != '{' || s.charAt(s.length() - 1) != '}') {
      throw new Invalid("labels must be a selector such as {job=\"app\"}, got " + shown(text));
    }
    int i = skip(s, 1);
    int end = s.length() - 1;
    while (i < end) {
      int nameStart = i;
      while (i < end && nameChar(s.charAt(i), i == nameStart)) {
        i++;
      }
      String name = s.substring(nameStart, i);
      if (name.isEmpty()) {
        throw new Invalid("a label name is expected at position " + (i + 1) + " of " + shown(text));
      }
      i = skip(s, i);
      if (i >= end || s.charAt(i) != '=') {
        throw new Invalid("'=' is expected after label " + name + " in " + shown(text));
      }
      i = skip(s, i + 1);
      if (i >= end || s.charAt(i) != '"') {
        throw new Invalid("the value of label " + name + " must be quoted in " + shown(text));
      }
      StringBuilder value = new StringBuilder();
      i++;
      while (true) {
        if (i >= end) {
          throw new Invalid("the value of label " + name + " is not closed in " + shown(text));
        }
        char c = s.charAt(i++);
        if (c == '"') {
          break;
        }
        if (c == '\\') {
          if (i >= end) {
            throw new Invalid("a lone \\ ends the value of label " + name);
          }
          char e = s.charAt(i++);
          value.append(
              switch (e) {
                case 'n' -> '\n';
                case 't' -> '\t';
                default -> e;
              });
        } else {
          value.append(c);
        }
      }
      if (out.put(name, value.toString()) != null) {
        throw new Invalid("label " + name + " is given twice in " + shown(text));
      }
      i = skip(s, i);
      if (i < end) {
        if (s.charAt(i) != ',') {
          throw new Invalid("',' is expected between labels in " + shown(text));
        }
        i = skip(s, i + 1);
      }
    }
    return out;
  }

  /**
   * @param name a label name
   * @return whether it is one Loki accepts
   */
  static boolean validName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!nameChar(name.charAt(i), i == 0)) {
        return false;
      }
    }
    return true;
  }

  private static boolean nameChar(char c, boolean first) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || (!first && c >= '0' && c <= '9');
  }

  private static int skip(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static String shown(String text) {
    return "'" + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + "'";
  }
}
