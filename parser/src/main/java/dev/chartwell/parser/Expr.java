package dev.chartwell.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The meaning of a {@code where} clause, independent of the language it was written in. Both
 * languages produce the same nodes for the same meaning ({@code status:>=500}, {@code status:[500
 * TO *]} and SQL {@code status >= 500} are one {@link Compare}), so the engine compiles one tree
 * and never looks at the text again.
 *
 * <p>Field predicates are false for events that do not have the field; {@link Not} is the
 * complement over all events. Values are kept as text: whether a comparison is numeric is decided
 * per value at execution ("numeric when both sides are numbers").
 *
 * <p>Nodes are immutable and compare by value. {@link And} and {@link Or} are flat (no direct child
 * of the same kind) and have at least two operands; use {@link #and} and {@link #or} to build them.
 */
public sealed interface Expr {

  /** Matches every event: the empty {@code where}. */
  record MatchAll() implements Expr {}

  /**
   * All operands match.
   *
   * @param operands two or more, none an {@link And}
   */
  record And(List<Expr> operands) implements Expr {
    /** Validates and copies the operands. */
    public And {
      operands = flatOperands(operands, And.class);
    }
  }

  /**
   * At least one operand matches.
   *
   * @param operands two or more, none an {@link Or}
   */
  record Or(List<Expr> operands) implements Expr {
    /** Validates and copies the operands. */
    public Or {
      operands = flatOperands(operands, Or.class);
    }
  }

  /**
   * The operand does not match (events without the field included).
   *
   * @param operand the negated expression
   */
  record Not(Expr operand) implements Expr {
    /** Validates the operand. */
    public Not {
      Objects.requireNonNull(operand, "operand");
    }
  }

  /**
   * A whole token of the source's implicit column, case-insensitive (Lucene bare {@code error}).
   *
   * @param token lower-case ASCII letters and digits only
   */
  record Token(String token) implements Expr {
    /** Validates the token. */
    public Token {
      if (!Tokens.isSingleToken(token) || !token.equals(token.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("not a lower-case token: '" + token + "'");
      }
    }
  }

  /**
   * Every token of the text is a token of the implicit column and the whole text appears in it,
   * case-insensitively (Lucene {@code "two words"} or {@code user_service}).
   *
   * @param text lower-case text that is not a single token
   */
  record Phrase(String text) implements Expr {
    /** Validates the text. */
    public Phrase {
      if (Tokens.isSingleToken(text) || !text.equals(text.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("a phrase is lower-case and not a single token");
      }
    }
  }

  /**
   * Some token of the implicit column matches a case-insensitive pattern (Lucene bare {@code foo*},
   * {@code *foo}, {@code *foo*}).
   *
   * @param pattern lower-case pattern in {@code LIKE} syntax: {@code %} any run of characters,
   *     {@code _} any one character, {@code \} escapes the next character
   */
  record TokenPattern(String pattern) implements Expr {
    /** Validates the pattern. */
    public TokenPattern {
      if (!pattern.equals(pattern.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("token patterns are lower-case");
      }
    }
  }

  /**
   * Lucene's loose {@code field:value}: on a string, contains the value case-insensitively; on a
   * number, equals it; on a boolean, equals {@code true}/{@code false}.
   *
   * @param field the field name
   * @param value the value, not empty
   */
  record Match(String field, String value) implements Expr {
    /** Validates the value. */
    public Match {
      requireField(field);
      if (value.isEmpty()) {
        throw new IllegalArgumentException("match value is empty");
      }
    }
  }

  /** Comparison operators of {@link Compare}; "not equal" is {@code Not(Compare(EQ))}. */
  enum CompareOp {
    /** equal: exact and case-sensitive on strings, numeric on numbers. */
    EQ("="),
    /** less than. */
    LT("<"),
    /** less than or equal. */
    LE("<="),
    /** greater than. */
    GT(">"),
    /** greater than or equal. */
    GE(">=");

    private final String symbol;

    CompareOp(String symbol) {
      this.symbol = symbol;
    }

    /**
     * @return the operator as written in SQL
     */
    public String symbol() {
      return symbol;
    }
  }

  /** A case transformation applied to a field's value before it is compared (SQL functions). */
  enum Fold {
    /** the value as stored. */
    NONE,
    /** SQL {@code lower(field)}. */
    LOWER,
    /** SQL {@code upper(field)}. */
    UPPER
  }

  /**
   * A field's value, possibly case-folded, as the left side of a comparison.
   *
   * @param field the field name
   * @param fold the case transformation
   */
  record Operand(String field, Fold fold) {
    /** Validates the field. */
    public Operand {
      requireField(field);
      Objects.requireNonNull(fold, "fold");
    }

    /**
     * @param field a field name
     * @return the field's value as stored
     */
    public static Operand of(String field) {
      return new Operand(field, Fold.NONE);
    }
  }

  /**
   * Compares a field's value with a constant: numerically when both are numbers, else as strings.
   *
   * @param operand the field side
   * @param op the operator
   * @param value the constant
   */
  record Compare(Operand operand, CompareOp op, String value) implements Expr {
    /** Validates the parts. */
    public Compare {
      Objects.requireNonNull(operand, "operand");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * A bounded range: both ends present, each inclusive or exclusive. Open-ended ranges are {@link
   * Compare}s.
   *
   * @param operand the field side
   * @param lower lower bound
   * @param lowerInclusive whether the lower bound matches
   * @param upper upper bound
   * @param upperInclusive whether the upper bound matches
   */
  record Range(
      Operand operand, String lower, boolean lowerInclusive, String upper, boolean upperInclusive)
      implements Expr {
    /** Validates the parts. */
    public Range {
      Objects.requireNonNull(operand, "operand");
      Objects.requireNonNull(lower, "lower");
      Objects.requireNonNull(upper, "upper");
    }
  }

  /**
   * The field's value equals one of the constants (SQL {@code IN}).
   *
   * @param operand the field side
   * @param values one or more constants
   */
  record In(Operand operand, List<String> values) implements Expr {
    /** Validates and copies the values. */
    public In {
      Objects.requireNonNull(operand, "operand");
      values = List.copyOf(values);
      if (values.isEmpty()) {
        throw new IllegalArgumentException("IN needs at least one value");
      }
    }
  }

  /**
   * The field's value, as a string, matches a pattern (SQL {@code LIKE}/{@code ILIKE}, Lucene
   * {@code field:pre*}).
   *
   * @param operand the field side
   * @param pattern {@code LIKE} syntax: {@code %} any run, {@code _} any one character, {@code \}
   *     escapes
   * @param caseInsensitive {@code ILIKE} rather than {@code LIKE}
   */
  record Like(Operand operand, String pattern, boolean caseInsensitive) implements Expr {
    /**
     * Validates the parts and keeps the pattern canonical: an escape before a character that needs
     * none ({@code \a}) is dropped, so that patterns that mean the same are equal.
     */
    public Like {
      Objects.requireNonNull(operand, "operand");
      Objects.requireNonNull(pattern, "pattern");
      pattern = canonical(pattern);
    }

    private static String canonical(String pattern) {
      if (pattern.indexOf('\\') < 0) {
        return pattern;
      }
      StringBuilder sb = new StringBuilder(pattern.length());
      for (int i = 0; i < pattern.length(); i++) {
        char c = pattern.charAt(i);
        if (c == '\\' && i + 1 < pattern.length()) {
          char next = pattern.charAt(i + 1);
          if (next == '%' || next == '_' || next == '\\') {
            sb.append(c);
          }
          sb.append(next);
          i++;
        } else {
          sb.append(c);
        }
      }
      return sb.toString();
    }
  }

  /**
   * The event does not have the field (SQL {@code IS NULL}).
   *
   * @param field the field name
   */
  record IsNull(String field) implements Expr {
    /** Validates the field. */
    public IsNull {
      requireField(field);
    }
  }

  /**
   * The field is present and not the empty string (Lucene {@code field:*}).
   *
   * @param field the field name
   */
  record Exists(String field) implements Expr {
    /** Validates the field. */
    public Exists {
      requireField(field);
    }
  }

  /**
   * The field's value has this token, case-sensitively (SQL {@code hasToken(field, 'tok')}).
   *
   * @param field the field name
   * @param token ASCII letters and digits
   */
  record HasToken(String field, String token) implements Expr {
    /** Validates the parts. */
    public HasToken {
      requireField(field);
      if (!Tokens.isSingleToken(token)) {
        throw new IllegalArgumentException("not a token: '" + token + "'");
      }
    }
  }

  /**
   * The field's value contains the text (SQL {@code position(field, 'text') > 0} and {@code
   * positionCaseInsensitive}).
   *
   * @param field the field name
   * @param text the text looked for
   * @param caseInsensitive whether case is ignored
   */
  record Contains(String field, String text, boolean caseInsensitive) implements Expr {
    /** Validates the parts. */
    public Contains {
      requireField(field);
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * Conjunction that keeps the tree flat: nested {@link And}s are spliced in, {@link MatchAll}
   * operands are dropped, a single operand is returned as is.
   *
   * @param operands one or more expressions
   * @return their conjunction
   */
  static Expr and(List<Expr> operands) {
    List<Expr> flat = new ArrayList<>();
    for (Expr e : operands) {
      if (e instanceof And a) {
        flat.addAll(a.operands());
      } else if (!(e instanceof MatchAll)) {
        flat.add(e);
      }
    }
    return switch (flat.size()) {
      case 0 -> new MatchAll();
      case 1 -> flat.get(0);
      default -> new And(flat);
    };
  }

  /**
   * Disjunction that keeps the tree flat, like {@link #and}; any {@link MatchAll} operand makes the
   * whole disjunction {@link MatchAll}.
   *
   * @param operands one or more expressions
   * @return their disjunction
   */
  static Expr or(List<Expr> operands) {
    List<Expr> flat = new ArrayList<>();
    for (Expr e : operands) {
      if (e instanceof MatchAll) {
        return e;
      } else if (e instanceof Or o) {
        flat.addAll(o.operands());
      } else {
        flat.add(e);
      }
    }
    return flat.size() == 1 ? flat.get(0) : new Or(flat);
  }

  private static List<Expr> flatOperands(List<Expr> operands, Class<? extends Expr> kind) {
    List<Expr> copy = List.copyOf(operands);
    if (copy.size() < 2) {
      throw new IllegalArgumentException(kind.getSimpleName() + " needs two or more operands");
    }
    for (Expr e : copy) {
      if (kind.isInstance(e) || e instanceof MatchAll) {
        throw new IllegalArgumentException(
            kind.getSimpleName() + " operands must not be " + e.getClass().getSimpleName());
      }
    }
    return copy;
  }

  private static void requireField(String field) {
    if (field == null || field.isEmpty()) {
      throw new IllegalArgumentException("field name is empty");
    }
  }
}
