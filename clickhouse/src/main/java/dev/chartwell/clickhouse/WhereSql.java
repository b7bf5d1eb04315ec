package dev.chartwell.clickhouse;

import dev.chartwell.clickhouse.ClickHouseTable.Kind;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.internal.filter.Numbers;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Tokens;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Compiles a {@code where} tree to a ClickHouse boolean expression with the engine's semantics
 * (docs/where-language.md): every leaf is a UInt8 that is never NULL (false for events without the
 * field), so that {@code NOT} is the complement over all events; string predicates read a value's
 * text as the engine writes it; comparisons are numeric when both sides are numbers, else by
 * string; literals are decided here, in Java, with the engine's own number rules, and written as
 * escaped literals.
 *
 * <p>Functions relied on, all present in ClickHouse 18.16: {@code position}, {@code lowerUTF8},
 * {@code upperUTF8}, {@code lower}, {@code like}, {@code match}, {@code extractAll}, {@code
 * arrayExists}, {@code hex}, {@code toFloat64OrZero}, {@code isFinite}, {@code assumeNotNull},
 * {@code isNotNull}; {@code mapContains} for Map columns (21.x).
 */
public final class WhereSql {
  /** The SQL of a where that selects every event. */
  static final String ALL = "1";

  private static final String TOKENS_RE = "[a-z0-9]+";

  private final ClickHouseTable table;
  private final String path;

  private WhereSql(ClickHouseTable table, String path) {
    this.table = table;
    this.path = path;
  }

  /**
   * @param where the parsed where
   * @param table the table it filters
   * @param path the where's field path, for errors
   * @return SQL of a UInt8 that holds for the matching events
   * @throws InvalidQueryException when a bare term meets a table without implicit column
   */
  public static String compile(Expr where, ClickHouseTable table, String path) {
    return new WhereSql(table, path).sql(where);
  }

  private String sql(Expr e) {
    if (e instanceof Expr.MatchAll) {
      return ALL;
    }
    if (e instanceof Expr.And a) {
      return join(a.operands(), " AND ");
    }
    if (e instanceof Expr.Or o) {
      return join(o.operands(), " OR ");
    }
    if (e instanceof Expr.Not n) {
      return "NOT (" + sql(n.operand()) + ")";
    }
    if (e instanceof Expr.Token t) {
      return implicit(t.token(), f -> token("lower(" + f.text() + ")", t.token(), "a-z0-9"));
    }
    if (e instanceof Expr.Phrase p) {
      return implicit(p.text(), f -> phrase(f, p.text()));
    }
    if (e instanceof Expr.TokenPattern p) {
      return implicit(
          p.pattern(),
          f -> "arrayExists(cw_t -> cw_t LIKE " + like(p.pattern()) + ", " + tokens(f) + ")");
    }
    if (e instanceof Expr.IsNull n) {
      return field(n.field())
          .map(f -> f.present().equals("1") ? "0" : "NOT " + f.present())
          .orElse("1");
    }
    if (e instanceof Expr.Match m) {
      return leaf(m.field(), f -> match(f, m.value()));
    }
    if (e instanceof Expr.Compare c) {
      return leaf(c.operand().field(), f -> compare(f, c.operand().fold(), c.op(), c.value()));
    }
    if (e instanceof Expr.Range r) {
      return leaf(
          r.operand().field(),
          f ->
              "("
                  + compare(
                      f,
                      r.operand().fold(),
                      r.lowerInclusive() ? CompareOp.GE : CompareOp.GT,
                      r.lower())
                  + " AND "
                  + compare(
                      f,
                      r.operand().fold(),
                      r.upperInclusive() ? CompareOp.LE : CompareOp.LT,
                      r.upper())
                  + ")");
    }
    if (e instanceof Expr.In in) {
      return leaf(
          in.operand().field(),
          f -> {
            List<String> parts = new ArrayList<>();
            for (String v : in.values()) {
              parts.add(compare(f, in.operand().fold(), CompareOp.EQ, v));
            }
            return "(" + String.join(" OR ", parts) + ")";
          });
    }
    if (e instanceof Expr.Like l) {
      return leaf(
          l.operand().field(),
          f -> {
            String text = fold(f.text(), l.operand().fold());
            return l.caseInsensitive()
                ? "(lowerUTF8("
                    + text
                    + ") LIKE "
                    + like(l.pattern().toLowerCase(Locale.ROOT))
                    + ")"
                : "(" + text + " LIKE " + like(l.pattern()) + ")";
          });
    }
    if (e instanceof Expr.Exists x) {
      return leaf(x.field(), f -> f.kind() == Kind.STRING ? "(" + f.value() + " != '')" : "1");
    }
    if (e instanceof Expr.HasToken h) {
      return leaf(h.field(), f -> token(f.text(), h.token(), "A-Za-z0-9"));
    }
    Expr.Contains c = (Expr.Contains) e;
    return leaf(
        c.field(),
        f ->
            c.caseInsensitive()
                ? "(position(lowerUTF8("
                    + f.text()
                    + "), "
                    + Sql.string(c.text().toLowerCase(Locale.ROOT))
                    + ") > 0)"
                : "(position(" + f.text() + ", " + Sql.string(c.text()) + ") > 0)");
  }

  private String join(List<Expr> operands, String op) {
    List<String> parts = new ArrayList<>();
    for (Expr x : operands) {
      parts.add("(" + sql(x) + ")");
    }
    return String.join(op, parts);
  }

  private Optional<Field> field(String name) {
    return Field.resolve(table, name);
  }

  private String leaf(String name, java.util.function.Function<Field, String> predicate) {
    return field(name).map(f -> f.where(predicate.apply(f))).orElse("0");
  }

  private String implicit(String text, java.util.function.Function<Field, String> predicate) {
    if (table.implicitColumn() == null) {
      throw InvalidQueryException.noImplicitColumn(path, text);
    }
    return leaf(table.implicitColumn(), predicate);
  }

  private static String tokens(Field f) {
    return "extractAll(lower(" + f.text() + "), " + Sql.string(TOKENS_RE) + ")";
  }

  private static String phrase(Field f, String text) {
    StringBuilder sb =
        new StringBuilder("(position(lowerUTF8(")
            .append(f.text())
            .append("), ")
            .append(Sql.string(text))
            .append(") > 0");
    for (String t : new java.util.LinkedHashSet<>(Tokens.lowerCaseTokens(text))) {
      sb.append(" AND ").append(token("lower(" + f.text() + ")", t, "a-z0-9"));
    }
    return sb.append(')').toString();
  }

  /**
   * A whole token: the text has it with no token character just before or after. A regular
   * expression rather than the array of tokens ({@code has(extractAll(...))}): ClickHouse finds the
   * literal token first and checks the boundaries only there, about twenty times faster on the
   * bench data set. Tokens hold only letters and digits, so nothing in them needs escaping.
   *
   * @param text SQL of the text searched
   * @param token the token
   * @param tokenChars the token characters as a regular expression class body
   */
  private static String token(String text, String token, String tokenChars) {
    return "match("
        + text
        + ", "
        + Sql.string("(^|[^" + tokenChars + "])" + token + "([^" + tokenChars + "]|$)")
        + ")";
  }

  /** Lucene's loose {@code field:value}. */
  private static String match(Field f, String value) {
    return switch (f.kind()) {
      case STRING, MAP, DATETIME, DATETIME64 ->
          "(position(lowerUTF8("
              + f.value()
              + "), "
              + Sql.string(value.toLowerCase(Locale.ROOT))
              + ") > 0)";
      case LONG -> {
        BigDecimal exact = Numbers.parseExact(value);
        yield exact == null ? "0" : longInterval(f.value(), CompareOp.EQ, exact);
      }
      case DOUBLE -> {
        double d = Numbers.parseDouble(value);
        yield Double.isNaN(d) ? "0" : "(" + f.value() + " = " + Sql.number(d) + ")";
      }
      case BOOL -> boolEquals(f, value);
    };
  }

  /** {@code Compare}: numeric when both sides are numbers, else string; EQ exact on strings. */
  private static String compare(Field f, Fold fold, CompareOp op, String value) {
    if (fold != Fold.NONE) {
      return stringCompare(fold(f.text(), fold), op, value);
    }
    double d = Numbers.parseDouble(value);
    return switch (f.kind()) {
      case STRING, MAP, DATETIME, DATETIME64 -> stringCompare(f.value(), op, value);
      case LONG -> {
        BigDecimal exact = Numbers.parseExact(value);
        if (exact != null) {
          yield longInterval(f.value(), op, exact);
        }
        yield op == CompareOp.EQ ? "0" : textOrder(f.text(), op, value);
      }
      case DOUBLE -> {
        if (!Double.isNaN(d)) {
          yield "(" + f.value() + " " + op.symbol() + " " + Sql.number(d) + ")";
        }
        yield op == CompareOp.EQ ? "0" : textOrder(f.text(), op, value);
      }
      case BOOL -> op == CompareOp.EQ ? boolEquals(f, value) : textOrder(f.text(), op, value);
    };
  }

  private static String boolEquals(Field f, String value) {
    String v = value.toLowerCase(Locale.ROOT);
    return v.equals("true") || v.equals("false")
        ? "(" + f.text() + " = " + Sql.string(v) + ")"
        : "0";
  }

  /** A string value against a literal: numeric when both are numbers, else byte order. */
  private static String stringCompare(String text, CompareOp op, String value) {
    String lit = Sql.string(value);
    if (op == CompareOp.EQ) {
      return "(" + text + " = " + lit + ")";
    }
    double d = Numbers.parseDouble(value);
    String asString = textOrder(text, op, value);
    if (Double.isNaN(d)) {
      return asString;
    }
    return "if("
        + Field.isNumber(text)
        + ", toFloat64OrZero("
        + text
        + ") "
        + op.symbol()
        + " "
        + Sql.number(d)
        + ", "
        + asString
        + ")";
  }

  /**
   * A string against a literal in byte order, compared as upper-case hex (which keeps byte order):
   * ClickHouse 18.16 orders strings with NUL bytes wrongly against some constants ({@code '' >=
   * '\\0'} and {@code '\\0' <= ''} are both true there; found by the hostile-literals test), hex
   * digits have no NUL.
   */
  private static String textOrder(String text, CompareOp op, String value) {
    return "(hex(" + text + ") " + op.symbol() + " " + Sql.string(hex(value)) + ")";
  }

  private static String hex(String value) {
    return java.util.HexFormat.of()
        .withUpperCase()
        .formatHex(value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** The integers {@code v op literal}, exactly, as one interval (the engine's LongInterval). */
  private static String longInterval(String value, CompareOp op, BigDecimal lit) {
    BigDecimal floor = lit.setScale(0, RoundingMode.FLOOR);
    BigDecimal ceil = lit.setScale(0, RoundingMode.CEILING);
    BigDecimal lo;
    BigDecimal hi;
    switch (op) {
      case EQ -> {
        if (floor.compareTo(lit) != 0) {
          return "0";
        }
        lo = floor;
        hi = floor;
      }
      case GT -> {
        lo = floor.add(BigDecimal.ONE);
        hi = null;
      }
      case GE -> {
        lo = ceil;
        hi = null;
      }
      case LT -> {
        lo = null;
        hi = ceil.subtract(BigDecimal.ONE);
      }
      default -> {
        lo = null;
        hi = floor;
      }
    }
    BigDecimal min = BigDecimal.valueOf(Long.MIN_VALUE);
    BigDecimal max = BigDecimal.valueOf(Long.MAX_VALUE);
    if ((lo != null && lo.compareTo(max) > 0) || (hi != null && hi.compareTo(min) < 0)) {
      return "0";
    }
    if (lo != null && hi != null && lo.compareTo(hi) > 0) {
      return "0";
    }
    List<String> parts = new ArrayList<>();
    if (lo != null && lo.compareTo(min) > 0) {
      parts.add(value + " >= " + integer(lo));
    }
    if (hi != null && hi.compareTo(max) < 0) {
      parts.add(value + " <= " + integer(hi));
    }
    return parts.isEmpty() ? "1" : "(" + String.join(" AND ", parts) + ")";
  }

  private static String integer(BigDecimal v) {
    long l = v.longValueExact();
    return l < 0 ? "toInt64(" + l + ")" : Long.toString(l);
  }

  private static String fold(String text, Fold fold) {
    return switch (fold) {
      case NONE -> text;
      case LOWER -> "lowerUTF8(" + text + ")";
      case UPPER -> "upperUTF8(" + text + ")";
    };
  }

  /**
   * @param pattern an engine LIKE pattern ({@code \} escapes any character)
   * @return the ClickHouse LIKE literal that means the same
   */
  static String like(String pattern) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        if (i + 1 < pattern.length()) {
          char next = pattern.charAt(++i);
          literal(out, next);
        } else {
          literal(out, c);
        }
      } else {
        out.append(c);
      }
    }
    return Sql.string(out.toString());
  }

  private static void literal(StringBuilder out, char c) {
    if (c == '%' || c == '_' || c == '\\') {
      out.append('\\');
    }
    out.append(c);
  }
}
