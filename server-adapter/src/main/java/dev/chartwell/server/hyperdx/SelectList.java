package dev.chartwell.server.hyperdx;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A search's {@code select}: comma-separated columns, each a name ({@code ServiceName}, {@code
 * LogAttributes.http.method}), a quoted name ({@code `k8s.pod.name`}) or a map lookup ({@code
 * LogAttributes['http.method']}, the flattened column {@code LogAttributes.http.method}),
 * optionally renamed ({@code ... AS method}). Chartwell stores columns, not SQL: anything else is
 * refused.
 */
final class SelectList {
  /**
   * One selected column.
   *
   * @param column the stored column
   * @param key the key of its value in each result row (the text as written, or its alias)
   */
  record Item(String column, String key) {}

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.@-]*");
  private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");
  private static final Pattern LOOKUP =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_.]*)\\[\\s*'((?:[^'\\\\]|\\\\.)*)'\\s*]");
  private static final Pattern ALIAS =
      Pattern.compile("(?is)(.+?)\\s+AS\\s+(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)");

  private SelectList() {}

  /**
   * @param text the select text
   * @param field the field's name for problems ({@code select})
   * @param problems where problems go
   * @return the columns (empty when the text is blank)
   */
  static List<Item> parse(String text, String field, List<String> problems) {
    List<Item> items = new ArrayList<>();
    if (text.isBlank()) {
      return items;
    }
    if (text.contains(";") || Pattern.compile("(?i)(?<!\\w)SELECT\\s").matcher(text).find()) {
      problems.add(field + ": must not hold semicolons or subqueries; list columns");
      return items;
    }
    for (String part : split(text)) {
      String p = part.strip();
      String key = null;
      Matcher alias = ALIAS.matcher(p);
      if (alias.matches()) {
        p = alias.group(1).strip();
        key = unquote(alias.group(2));
      }
      String column = column(p);
      if (column == null) {
        problems.add(
            field
                + ": '"
                + part.strip()
                + "' is not a column; Chartwell selects columns (Name, `name`, Map['key']), not SQL"
                + " expressions");
      } else {
        items.add(new Item(column, key != null ? key : p));
      }
    }
    return items;
  }

  private static String column(String p) {
    if (NAME.matcher(p).matches()) {
      return p;
    }
    Matcher q = QUOTED.matcher(p);
    if (q.matches()) {
      return q.group(1);
    }
    Matcher m = LOOKUP.matcher(p);
    if (m.matches()) {
      return m.group(1) + "." + m.group(2).replace("\\'", "'").replace("\\\\", "\\");
    }
    return null;
  }

  private static String unquote(String alias) {
    return alias.startsWith("`") ? alias.substring(1, alias.length() - 1) : alias;
  }

  /** Splits on commas outside quotes and brackets. */
  private static List<String> split(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    char quote = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '`' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '(') {
        depth++;
      } else if (c == ']' || c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }
}
