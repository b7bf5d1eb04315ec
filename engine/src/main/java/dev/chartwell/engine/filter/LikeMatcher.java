package dev.chartwell.engine.filter;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A compiled {@code LIKE} pattern: {@code %} any run, {@code _} any one character, {@code \}
 * escapes. Prefix, suffix and contains patterns skip the regular expression engine.
 */
final class LikeMatcher {
  private enum Kind {
    EXACT,
    PREFIX,
    SUFFIX,
    CONTAINS,
    REGEX
  }

  private final Kind kind;
  private final String literal;
  private final Pattern regex;
  private final boolean caseInsensitive;

  LikeMatcher(String pattern, boolean caseInsensitive) {
    this.caseInsensitive = caseInsensitive;
    String p = caseInsensitive ? pattern.toLowerCase(Locale.ROOT) : pattern;
    StringBuilder lit = new StringBuilder();
    StringBuilder re = new StringBuilder();
    boolean leading = false;
    boolean trailing = false;
    boolean inner = false;
    int i = 0;
    while (i < p.length()) {
      char c = p.charAt(i);
      if (c == '\\' && i + 1 < p.length()) {
        char n = p.charAt(++i);
        lit.append(n);
        re.append(Pattern.quote(String.valueOf(n)));
        if (trailing) {
          inner = true;
        }
      } else if (c == '%') {
        if (lit.length() == 0 && !inner) {
          leading = true;
        } else {
          trailing = true;
        }
        re.append(".*");
      } else if (c == '_') {
        inner = true;
        re.append('.');
      } else {
        lit.append(c);
        re.append(Pattern.quote(String.valueOf(c)));
        if (trailing) {
          inner = true;
        }
      }
      i++;
    }
    this.literal = lit.toString();
    if (inner) {
      this.kind = Kind.REGEX;
    } else if (leading && trailing) {
      this.kind = Kind.CONTAINS;
    } else if (leading) {
      this.kind = Kind.SUFFIX;
    } else if (trailing) {
      this.kind = Kind.PREFIX;
    } else {
      this.kind = Kind.EXACT;
    }
    this.regex = kind == Kind.REGEX ? Pattern.compile(re.toString(), Pattern.DOTALL) : null;
  }

  boolean matches(String value) {
    String v = caseInsensitive ? value.toLowerCase(Locale.ROOT) : value;
    return switch (kind) {
      case EXACT -> v.equals(literal);
      case PREFIX -> v.startsWith(literal);
      case SUFFIX -> v.endsWith(literal);
      case CONTAINS -> v.contains(literal);
      case REGEX -> regex.matcher(v).matches();
    };
  }
}
