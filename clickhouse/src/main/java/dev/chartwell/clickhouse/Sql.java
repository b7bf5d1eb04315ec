package dev.chartwell.clickhouse;

/**
 * Literals and identifiers of ClickHouse SQL. Every value that reaches a statement goes through
 * {@link #string} (quotes, backslashes, NUL and every other control character escaped; other
 * characters kept as they are, the statement is sent as UTF-8), so no literal can end early.
 */
public final class Sql {
  private Sql() {}

  /**
   * @param s any text
   * @return a single-quoted ClickHouse string literal holding exactly {@code s}
   */
  public static String string(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '\'' -> sb.append("\\'");
        case '\0' -> sb.append("\\0");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\x%02X", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('\'').toString();
  }

  /**
   * @param name a column, table or database name
   * @return it back-quoted, with back quotes and backslashes escaped
   */
  public static String identifier(String name) {
    StringBuilder sb = new StringBuilder(name.length() + 2).append('`');
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '`' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append('`').toString();
  }

  /**
   * @param v a finite double
   * @return a literal ClickHouse reads back as exactly {@code v}
   */
  public static String number(double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException("not a finite number: " + v);
    }
    // Java's shortest round-trip digits; ClickHouse parses them to the same double.
    return "toFloat64(" + string(Double.toString(v)) + ")";
  }
}
