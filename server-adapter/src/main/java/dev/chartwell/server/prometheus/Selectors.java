package dev.chartwell.server.prometheus;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a series selector ({@code match[]}): {@code name}, {@code name{l="v", ...}} or {@code
 * {l=~"re", ...}}, with the four matcher operators and PromQL's quoted strings ({@code "..."},
 * {@code '...'}, {@code `...`}). At least one matcher must not match the empty string, as in
 * Prometheus.
 */
final class Selectors {
  private final String text;
  private int pos;

  private Selectors(String text) {
    this.text = text;
  }

  /**
   * @param selector the selector text
   * @return its matchers
   * @throws IllegalArgumentException naming the position of what is wrong
   */
  static List<LabelMatcher> parse(String selector) {
    return new Selectors(selector).selector();
  }

  private List<LabelMatcher> selector() {
    List<LabelMatcher> out = new ArrayList<>();
    skipSpace();
    if (pos < text.length() && isNameStart(text.charAt(pos), true)) {
      out.add(new LabelMatcher(Labels.NAME, LabelMatcher.Type.EQUAL, name(true)));
      skipSpace();
    }
    if (pos < text.length() && text.charAt(pos) == '{') {
      pos++;
      skipSpace();
      while (pos < text.length() && text.charAt(pos) != '}') {
        String label = name(false);
        skipSpace();
        LabelMatcher.Type type = operator();
        skipSpace();
        String value = string();
        try {
          out.add(new LabelMatcher(label, type, value));
        } catch (IllegalArgumentException e) {
          throw error(e.getMessage());
        }
        skipSpace();
        if (pos < text.length() && text.charAt(pos) == ',') {
          pos++;
          skipSpace();
        } else if (pos >= text.length() || text.charAt(pos) != '}') {
          throw error("expected ',' or '}'");
        }
      }
      if (pos >= text.length()) {
        throw error("the selector is not closed with '}'");
      }
      pos++;
      skipSpace();
    }
    if (pos != text.length()) {
      throw error("unexpected '" + text.charAt(pos) + "'");
    }
    if (out.isEmpty() || out.stream().allMatch(LabelMatcher::matchesEmpty)) {
      throw new IllegalArgumentException(
          "the selector "
              + text
              + " needs a metric name or a matcher that does not match the empty string");
    }
    return out;
  }

  private LabelMatcher.Type operator() {
    for (LabelMatcher.Type t :
        new LabelMatcher.Type[] {
          LabelMatcher.Type.REGEX,
          LabelMatcher.Type.NOT_REGEX,
          LabelMatcher.Type.NOT_EQUAL,
          LabelMatcher.Type.EQUAL
        }) {
      if (text.startsWith(t.symbol(), pos)) {
        pos += t.symbol().length();
        return t;
      }
    }
    throw error("expected a matcher operator (=, !=, =~ or !~)");
  }

  private String name(boolean metric) {
    int start = pos;
    while (pos < text.length() && isNameStart(text.charAt(pos), metric)
        || pos > start && pos < text.length() && Character.isDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos == start) {
      throw error("expected a label name");
    }
    return text.substring(start, pos);
  }

  private static boolean isNameStart(char c, boolean metric) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':');
  }

  private String string() {
    if (pos >= text.length()) {
      throw error("expected a quoted string");
    }
    char quote = text.charAt(pos);
    if (quote != '"' && quote != '\'' && quote != '`') {
      throw error("expected a quoted string");
    }
    pos++;
    StringBuilder b = new StringBuilder();
    while (pos < text.length() && text.charAt(pos) != quote) {
      char c = text.charAt(pos++);
      if (c == '\\' && quote != '`' && pos < text.length()) {
        char e = text.charAt(pos++);
        switch (e) {
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          default -> b.append(e);
        }
      } else {
        b.append(c);
      }
    }
    if (pos >= text.length()) {
      throw error("the string is not closed");
    }
    pos++;
    return b.toString();
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(
        "parse error in the selector " + text + " at character " + (pos + 1) + ": " + what);
  }
}
