package dev.chartwell.parser;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes an {@link Expr} as canonical text of a language; parsing that text gives back an equal
 * tree. Not every tree can be written in both languages (SQL has no full-text terms, Lucene no
 * {@code IN}); {@link #canPrint} tells, and {@link #print} refuses with {@link
 * IllegalArgumentException}.
 */
public final class WherePrinter {
  private static final Pattern SQL_NUMBER =
      Pattern.compile("-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern SQL_IDENTIFIER =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  private static final Set<String> SQL_KEYWORDS =
      Set.of("and", "or", "not", "in", "between", "like", "ilike", "is", "null", "true", "false");
  private static final Set<String> LUCENE_KEYWORDS = Set.of("AND", "OR", "NOT", "TO");
  private static final String LUCENE_SPECIAL = " \t\r\n\f()[]{}:\"^~\\<>=&|+-*!?/'";

  private WherePrinter() {}

  /**
   * @param e an expression
   * @param language the language to write
   * @return canonical text that parses back to {@code e}
   * @throws IllegalArgumentException when the language cannot express {@code e}
   */
  public static String print(Expr e, WhereLanguage language) {
    if (e instanceof Expr.MatchAll) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    if (language == WhereLanguage.LUCENE) {
      lucene(e, sb, false);
    } else {
      sql(e, sb, false);
    }
    return sb.toString();
  }

  /**
   * @param e an expression
   * @param language a language
   * @return whether {@link #print} can write {@code e} in it
   */
  public static boolean canPrint(Expr e, WhereLanguage language) {
    try {
      print(e, language);
      return true;
    } catch (IllegalArgumentException ex) {
      return false;
    }
  }

  private static void lucene(Expr e, StringBuilder sb, boolean tight) {
    if (e instanceof Expr.Or o) {
      junction(o.operands(), " OR ", sb, tight, (x, b) -> lucene(x, b, true));
    } else if (e instanceof Expr.And a) {
      junction(a.operands(), " AND ", sb, tight, (x, b) -> lucene(x, b, true));
    } else if (e instanceof Expr.Not n) {
      if (n.operand() instanceof Expr.IsNull isNull) {
        sb.append(luceneWord(isNull.field())).append(":[* TO *]");
      } else {
        sb.append("NOT ");
        lucene(n.operand(), sb, true);
      }
    } else if (e instanceof Expr.MatchAll) {
      sb.append('*');
    } else if (e instanceof Expr.Token t) {
      sb.append(t.token());
    } else if (e instanceof Expr.Phrase p) {
      sb.append(luceneQuoted(p.text()));
    } else if (e instanceof Expr.TokenPattern p) {
      if (p.pattern().equals("%")) {
        throw unsupported(e, WhereLanguage.LUCENE);
      }
      sb.append(luceneWildcard(p.pattern(), e));
    } else if (e instanceof Expr.Match m) {
      sb.append(luceneWord(m.field())).append(':').append(luceneWord(m.value()));
    } else if (e instanceof Expr.Exists x) {
      sb.append(luceneWord(x.field())).append(":*");
    } else if (e instanceof Expr.Compare c && c.operand().fold() == Expr.Fold.NONE) {
      sb.append(luceneWord(c.operand().field())).append(':');
      if (c.op() != Expr.CompareOp.EQ) {
        sb.append(c.op().symbol());
      }
      sb.append(luceneQuoted(c.value()));
    } else if (e instanceof Expr.Range r && r.operand().fold() == Expr.Fold.NONE) {
      sb.append(luceneWord(r.operand().field()))
          .append(':')
          .append(r.lowerInclusive() ? '[' : '{')
          .append(luceneQuoted(r.lower()))
          .append(" TO ")
          .append(luceneQuoted(r.upper()))
          .append(r.upperInclusive() ? ']' : '}');
    } else if (e instanceof Expr.Like l
        && l.caseInsensitive()
        && l.operand().fold() == Expr.Fold.NONE
        && hasWildcard(l.pattern())
        && !l.pattern().equals("%")
        && !endsWithLoneEscape(l.pattern())) {
      sb.append(luceneWord(l.operand().field())).append(':').append(luceneWildcard(l.pattern(), e));
    } else {
      throw unsupported(e, WhereLanguage.LUCENE);
    }
  }

  private static void sql(Expr e, StringBuilder sb, boolean tight) {
    if (e instanceof Expr.Or o) {
      junction(o.operands(), " OR ", sb, tight, (x, b) -> sql(x, b, true));
    } else if (e instanceof Expr.And a) {
      junction(a.operands(), " AND ", sb, tight, (x, b) -> sql(x, b, true));
    } else if (e instanceof Expr.Not n) {
      sb.append("NOT ");
      sql(n.operand(), sb, true);
    } else if (e instanceof Expr.Compare c) {
      sqlOperand(c.operand(), sb);
      sb.append(' ').append(c.op().symbol()).append(' ').append(sqlLiteral(c.value()));
    } else if (e instanceof Expr.Range r && r.lowerInclusive() && r.upperInclusive()) {
      sqlOperand(r.operand(), sb);
      sb.append(" BETWEEN ")
          .append(sqlLiteral(r.lower()))
          .append(" AND ")
          .append(sqlLiteral(r.upper()));
    } else if (e instanceof Expr.In in) {
      sqlOperand(in.operand(), sb);
      sb.append(" IN (");
      for (int i = 0; i < in.values().size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(sqlLiteral(in.values().get(i)));
      }
      sb.append(')');
    } else if (e instanceof Expr.Like l) {
      sqlOperand(l.operand(), sb);
      sb.append(l.caseInsensitive() ? " ILIKE " : " LIKE ").append(sqlString(l.pattern()));
    } else if (e instanceof Expr.IsNull n) {
      sb.append(sqlColumn(n.field())).append(" IS NULL");
    } else if (e instanceof Expr.HasToken h) {
      sb.append("hasToken(")
          .append(sqlColumn(h.field()))
          .append(", ")
          .append(sqlString(h.token()))
          .append(')');
    } else if (e instanceof Expr.Contains c) {
      sb.append(c.caseInsensitive() ? "positionCaseInsensitive(" : "position(")
          .append(sqlColumn(c.field()))
          .append(", ")
          .append(sqlString(c.text()))
          .append(") > 0");
    } else {
      throw unsupported(e, WhereLanguage.SQL);
    }
  }

  private interface Writer {
    void write(Expr e, StringBuilder sb);
  }

  private static void junction(
      List<Expr> operands, String op, StringBuilder sb, boolean tight, Writer writer) {
    if (tight) {
      sb.append('(');
    }
    for (int i = 0; i < operands.size(); i++) {
      if (i > 0) {
        sb.append(op);
      }
      writer.write(operands.get(i), sb);
    }
    if (tight) {
      sb.append(')');
    }
  }

  private static String luceneQuoted(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** Escapes every character the Lucene lexer treats specially, and keywords. */
  private static String luceneWord(String text) {
    StringBuilder sb = new StringBuilder(text.length() + 4);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (LUCENE_SPECIAL.indexOf(c) >= 0 || (i == 0 && LUCENE_KEYWORDS.contains(text))) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** A {@code LIKE} pattern as a Lucene wildcard word: {@code %} becomes {@code *}. */
  private static String luceneWildcard(String pattern, Expr e) {
    StringBuilder sb = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        literal.append(pattern.charAt(++i));
      } else if (c == '%') {
        sb.append(luceneWord(literal.toString())).append('*');
        literal.setLength(0);
      } else if (c == '_') {
        throw unsupported(e, WhereLanguage.LUCENE);
      } else {
        literal.append(c);
      }
    }
    return sb.append(luceneWord(literal.toString())).toString();
  }

  /** Whether a {@code LIKE} pattern has an unescaped {@code %}: Lucene needs one to say it. */
  private static boolean hasWildcard(String pattern) {
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '%') {
        return true;
      }
    }
    return false;
  }

  /** A trailing unpaired backslash is a literal one in LIKE; Lucene can only spell it paired. */
  private static boolean endsWithLoneEscape(String pattern) {
    int backslashes = 0;
    for (int i = pattern.length() - 1; i >= 0 && pattern.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  private static void sqlOperand(Expr.Operand o, StringBuilder sb) {
    switch (o.fold()) {
      case NONE -> sb.append(sqlColumn(o.field()));
      case LOWER -> sb.append("lower(").append(sqlColumn(o.field())).append(')');
      case UPPER -> sb.append("upper(").append(sqlColumn(o.field())).append(')');
    }
  }

  private static String sqlColumn(String field) {
    if (SQL_IDENTIFIER.matcher(field).matches()) {
      boolean keyword = false;
      for (String part : field.split("\\.")) {
        keyword |= SQL_KEYWORDS.contains(part.toLowerCase(Locale.ROOT));
      }
      if (!keyword) {
        return field;
      }
    }
    return '`' + field.replace("`", "``") + '`';
  }

  private static String sqlLiteral(String value) {
    return SQL_NUMBER.matcher(value).matches() ? value : sqlString(value);
  }

  private static String sqlString(String value) {
    return '\'' + value.replace("\\", "\\\\").replace("'", "\\'") + '\'';
  }

  private static IllegalArgumentException unsupported(Expr e, WhereLanguage language) {
    return new IllegalArgumentException(
        language.wireName() + " cannot express " + e.getClass().getSimpleName() + ": " + e);
  }
}
