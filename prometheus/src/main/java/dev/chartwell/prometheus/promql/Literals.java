package dev.chartwell.prometheus.promql;

/** Reading PromQL's number, duration and string literals (token text to value). */
final class Literals {
  private Literals() {}

  static double number(String text) {
    String t = text.toLowerCase(java.util.Locale.ROOT);
    if (t.equals("inf")) {
      return Double.POSITIVE_INFINITY;
    }
    if (t.equals("nan")) {
      return Double.NaN;
    }
    if (t.startsWith("0x")) {
      return Long.parseUnsignedLong(t.substring(2), 16);
    }
    return Double.parseDouble(t);
  }

  /** A duration such as {@code 1h30m}: units in decreasing order, each once. */
  static long durationMs(String text, int position) {
    long total = 0;
    int lastUnit = -1;
    int i = 0;
    while (i < text.length()) {
      int start = i;
      while (i < text.length() && Character.isDigit(text.charAt(i))) {
        i++;
      }
      long n;
      try {
        n = Long.parseLong(text.substring(start, i));
      } catch (NumberFormatException e) {
        throw PromQlException.badData(position, "duration out of range: " + text);
      }
      int unit;
      long ms;
      if (text.startsWith("ms", i)) {
        unit = 6;
        ms = 1;
        i += 2;
      } else {
        char c = text.charAt(i++);
        unit = "ywdhms".indexOf(c);
        ms =
            switch (c) {
              case 'y' -> 365L * 24 * 3600_000;
              case 'w' -> 7L * 24 * 3600_000;
              case 'd' -> 24L * 3600_000;
              case 'h' -> 3600_000L;
              case 'm' -> 60_000L;
              default -> 1000L;
            };
      }
      if (unit <= lastUnit) {
        throw PromQlException.badData(position, "not a valid duration string: \"" + text + "\"");
      }
      lastUnit = unit;
      try {
        total = Math.addExact(total, Math.multiplyExact(n, ms));
      } catch (ArithmeticException e) {
        throw PromQlException.badData(position, "duration out of range: " + text);
      }
    }
    return total;
  }

  /** A quoted string as Go's strconv.Unquote reads it. */
  static String string(String text, int position) {
    char q = text.charAt(0);
    String body = text.substring(1, text.length() - 1);
    if (q == '`') {
      return body;
    }
    StringBuilder b = new StringBuilder(body.length());
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = body.charAt(++i);
      switch (e) {
        case 'a' -> b.append('\u0007');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'v' -> b.append('\u000b');
        case '\\' -> b.append('\\');
        case '"', '\'' -> {
          if (e != q) {
            throw PromQlException.badData(position, "invalid escape sequence \\" + e);
          }
          b.append(e);
        }
        case 'x' -> {
          b.append((char) hex(body, i + 1, 2, position));
          i += 2;
        }
        case 'u' -> {
          b.appendCodePoint(hex(body, i + 1, 4, position));
          i += 4;
        }
        case 'U' -> {
          b.appendCodePoint(hex(body, i + 1, 8, position));
          i += 8;
        }
        default -> {
          if (e >= '0' && e <= '7' && i + 2 < body.length()) {
            try {
              b.append((char) Integer.parseInt(body.substring(i, i + 3), 8));
            } catch (NumberFormatException x) {
              throw PromQlException.badData(position, "invalid escape sequence \\" + e);
            }
            i += 2;
          } else {
            throw PromQlException.badData(position, "invalid escape sequence \\" + e);
          }
        }
      }
    }
    return b.toString();
  }

  private static int hex(String s, int from, int n, int position) {
    try {
      int v = Integer.parseUnsignedInt(s.substring(from, from + n), 16);
      if (!Character.isValidCodePoint(v)) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      throw PromQlException.badData(position, "invalid escape sequence in string");
    }
  }
}
