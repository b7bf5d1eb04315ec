package dev.chartwell.server.clickstack;

import dev.chartwell.server.validation.Problems;

/**
 * The formulas of a chart tile ({@code config.formulas}, HyperDX's document): arithmetic over the
 * tile's select items by letter, {@code A} the first, with {@code + - * /}, parentheses and
 * numbers, such as {@code A / (A + B) * 100}. A formula is checked when the dashboard is saved: it
 * parses, and each letter names a select item of the tile.
 */
final class Formulas {
  /** The longest formula, in characters. */
  static final int MAX_LENGTH = 1024;

  private final String text;
  private final int items;
  private int at;

  private Formulas(String text, int items) {
    this.text = text;
    this.items = items;
  }

  /**
   * @param expression a formula
   * @param items how many select items the tile has
   * @param path the formula's path
   * @param p where the problem goes
   */
  static void check(String expression, int items, String path, Problems p) {
    if (expression.length() > MAX_LENGTH) {
      p.add(path, "longer than " + MAX_LENGTH + " characters");
      return;
    }
    Formulas f = new Formulas(expression, items);
    String problem = f.parse();
    if (problem != null) {
      p.add(path, problem);
    }
  }

  /** sum := product (('+' | '-') product)*; the first problem, or {@code null}. */
  private String parse() {
    String problem = sum();
    if (problem == null && skip() < text.length()) {
      problem = "unexpected '" + text.charAt(at) + "' at position " + (at + 1);
    }
    return problem;
  }

  private String sum() {
    String problem = product();
    while (problem == null && skip() < text.length() && "+-".indexOf(text.charAt(at)) >= 0) {
      at++;
      problem = product();
    }
    return problem;
  }

  private String product() {
    String problem = operand();
    while (problem == null && skip() < text.length() && "*/".indexOf(text.charAt(at)) >= 0) {
      at++;
      problem = operand();
    }
    return problem;
  }

  /** operand := '-' operand | '(' sum ')' | letter | number. */
  private String operand() {
    if (skip() >= text.length()) {
      return "unexpected end of the formula";
    }
    char c = text.charAt(at);
    if (c == '-') {
      at++;
      return operand();
    }
    if (c == '(') {
      at++;
      String problem = sum();
      if (problem != null) {
        return problem;
      }
      if (skip() >= text.length() || text.charAt(at) != ')') {
        return "a '(' is not closed";
      }
      at++;
      return null;
    }
    if (c >= 'A' && c <= 'Z') {
      at++;
      if (c - 'A' >= items) {
        return c
            + " names select item "
            + (c - 'A' + 1)
            + ", and the tile has "
            + items
            + (items == 1 ? " item" : " items");
      }
      return null;
    }
    int start = at;
    while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.')) {
      at++;
    }
    if (at == start) {
      return "unexpected '" + c + "' at position " + (at + 1) + "; use A-Z, numbers, + - * / ( )";
    }
    try {
      Double.parseDouble(text.substring(start, at));
      return null;
    } catch (NumberFormatException e) {
      return "'" + text.substring(start, at) + "' is not a number";
    }
  }

  private int skip() {
    while (at < text.length() && text.charAt(at) == ' ') {
      at++;
    }
    return at;
  }
}
