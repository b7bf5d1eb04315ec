package dev.chartwell.server.patterns;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The where that finds every line of a template: each word of the template's constant text (a
 * maximal run of ASCII letters and digits outside its placeholders and {@code <*>}, as the where
 * languages cut tokens) must be in the field. It may also match lines of other templates (the same
 * words in another order or among others), never fewer: each line of the template has every one of
 * those words.
 */
public final class PatternWhere {
  /** The most words a where names; a longer template's first ones. */
  public static final int MAX_TERMS = 16;

  private PatternWhere() {}

  /**
   * @param template a template's tokens
   * @return the distinct words of its constant text, in order, at most {@value #MAX_TERMS}
   */
  public static List<String> terms(List<String> template) {
    Set<String> out = new LinkedHashSet<>();
    for (String token : template) {
      if (token.equals(Drain.WILDCARD) || Masker.isPlaceholder(token)) {
        continue;
      }
      String literal = stripPlaceholders(token);
      int i = 0;
      while (i < literal.length() && out.size() < MAX_TERMS) {
        while (i < literal.length() && !word(literal.charAt(i))) {
          i++;
        }
        int start = i;
        while (i < literal.length() && word(literal.charAt(i))) {
          i++;
        }
        if (i > start) {
          out.add(literal.substring(start, i));
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * The Lucene-like where (see docs/where-language.md) of a template.
   *
   * @param words words of a template's constant text ({@link #terms}, or some of them)
   * @param field the field the lines were read from
   * @param implicit whether that field is the source's implicit column (bare words search it)
   * @param where the where the lines matched (blank: none), kept in front
   * @return the where (empty, which matches every event, when there is nothing to require)
   */
  public static String lucene(List<String> words, String field, boolean implicit, String where) {
    StringBuilder out = new StringBuilder();
    if (where != null && !where.isBlank()) {
      out.append('(').append(where.strip()).append(')');
    }
    String prefix = implicit ? "" : luceneName(field) + ":";
    Set<String> seen = new LinkedHashSet<>();
    for (String term : words) {
      String lower = term.toLowerCase(Locale.ROOT);
      if (seen.add(lower)) {
        out.append(out.length() == 0 ? "" : " ").append(prefix).append(lower);
      }
    }
    return out.toString();
  }

  /**
   * The SQL where of a template: {@code hasToken(field, 'word')} for each word, case-sensitive.
   *
   * @param words words of a template's constant text ({@link #terms}, or some of them)
   * @param field the field the lines were read from
   * @param where the where the lines matched (blank: none), kept in front
   * @return the where (empty, which matches every event, when there is nothing to require)
   */
  public static String sql(List<String> words, String field, String where) {
    StringBuilder out = new StringBuilder();
    if (where != null && !where.isBlank()) {
      out.append('(').append(where.strip()).append(')');
    }
    String column = "`" + field.replace("`", "") + "`";
    for (String term : words) {
      out.append(out.length() == 0 ? "" : " AND ")
          .append("hasToken(")
          .append(column)
          .append(", '")
          .append(term)
          .append("')");
    }
    return out.toString();
  }

  private static String stripPlaceholders(String token) {
    String s = token.replace(Drain.WILDCARD, " ");
    for (String p : Masker.PLACEHOLDERS) {
      s = s.replace(p, " ");
    }
    return s;
  }

  private static boolean word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  private static String luceneName(String field) {
    return field.replaceAll("([\\\\:\\s()\"])", "\\\\$1");
  }
}
