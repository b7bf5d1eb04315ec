package dev.chartwell.parser;

import static dev.chartwell.parser.LuceneAstBuilder.error;

import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Expr.Operand;
import dev.chartwell.parser.SqlWhereParser.CallContext;
import dev.chartwell.parser.SqlWhereParser.ColumnContext;
import dev.chartwell.parser.SqlWhereParser.IdentifierContext;
import dev.chartwell.parser.SqlWhereParser.LiteralContext;
import dev.chartwell.parser.SqlWhereParser.PredicateContext;
import dev.chartwell.parser.SqlWhereParser.ValueContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns a SQL parse tree into an {@link Expr}, checking shapes the grammar leaves open. */
final class SqlAstBuilder {
  private SqlAstBuilder() {}

  static Expr build(SqlWhereParser.WhereContext where) {
    return where.orExpr() == null ? new Expr.MatchAll() : or(where.orExpr());
  }

  private static Expr or(SqlWhereParser.OrExprContext ctx) {
    List<Expr> operands = new ArrayList<>(ctx.andExpr().size());
    for (SqlWhereParser.AndExprContext a : ctx.andExpr()) {
      operands.add(and(a));
    }
    return operands.size() == 1 ? operands.get(0) : Expr.or(operands);
  }

  private static Expr and(SqlWhereParser.AndExprContext ctx) {
    List<Expr> operands = new ArrayList<>(ctx.notExpr().size());
    for (SqlWhereParser.NotExprContext n : ctx.notExpr()) {
      operands.add(not(n));
    }
    return operands.size() == 1 ? operands.get(0) : Expr.and(operands);
  }

  private static Expr not(SqlWhereParser.NotExprContext ctx) {
    if (ctx instanceof SqlWhereParser.NegationContext n) {
      return new Expr.Not(not(n.notExpr()));
    }
    return predicate(((SqlWhereParser.PredicateExprContext) ctx).predicate());
  }

  private static Expr predicate(PredicateContext ctx) {
    if (ctx instanceof SqlWhereParser.ParenthesizedContext p) {
      return or(p.orExpr());
    }
    if (ctx instanceof SqlWhereParser.InListContext in) {
      Operand operand = operand(in.value(0), "IN");
      List<String> values = new ArrayList<>();
      for (ValueContext v : in.value().subList(1, in.value().size())) {
        values.add(literal(v, "IN list"));
      }
      return negateIf(in.NOT() != null, new Expr.In(operand, values));
    }
    if (ctx instanceof SqlWhereParser.BetweenContext b) {
      Expr range =
          new Expr.Range(
              operand(b.value(0), "BETWEEN"),
              literal(b.lo, "BETWEEN"),
              true,
              literal(b.hi, "BETWEEN"),
              true);
      return negateIf(b.NOT() != null, range);
    }
    if (ctx instanceof SqlWhereParser.LikeContext l) {
      ValueContext pattern = l.value(1);
      if (!(pattern instanceof SqlWhereParser.LiteralValueContext lv)
          || lv.literal().STRING() == null) {
        throw error(pattern, l.op.getText().toUpperCase(Locale.ROOT) + " needs a quoted pattern");
      }
      Expr like =
          new Expr.Like(
              operand(l.value(0), l.op.getText().toUpperCase(Locale.ROOT)),
              unquoteString(lv.literal().STRING().getText()),
              l.op.getType() == SqlWhereParser.ILIKE);
      return negateIf(l.NOT() != null, like);
    }
    if (ctx instanceof SqlWhereParser.IsNullContext n) {
      return negateIf(n.NOT() != null, new Expr.IsNull(operand(n.value(), "IS NULL").field()));
    }
    if (ctx instanceof SqlWhereParser.CompareContext c) {
      return compare(c);
    }
    ValueContext bare = ((SqlWhereParser.BareValueContext) ctx).value();
    if (bare instanceof SqlWhereParser.CallValueContext call
        && name(call.call()).equals("hastoken")) {
      return hasToken(call.call());
    }
    if (bare instanceof SqlWhereParser.LiteralValueContext) {
      throw error(bare, "a constant alone is not a condition");
    }
    throw error(bare, "'" + bare.getText() + "' alone is not a condition; compare it with a value");
  }

  private static Expr compare(SqlWhereParser.CompareContext c) {
    int opType = c.comparison().getStart().getType();
    ValueContext left = c.left;
    ValueContext right = c.right;
    boolean leftConstant = left instanceof SqlWhereParser.LiteralValueContext;
    boolean rightConstant = right instanceof SqlWhereParser.LiteralValueContext;
    if (leftConstant == rightConstant) {
      throw error(c, "a comparison needs a column on one side and a constant on the other");
    }
    if (leftConstant) {
      ValueContext t = left;
      left = right;
      right = t;
      opType = flip(opType);
    }
    String value = literal(right, "comparison");
    if (left instanceof SqlWhereParser.CallValueContext call
        && name(call.call()).startsWith("position")) {
      return position(call.call(), opType, value);
    }
    Operand operand = operand(left, "comparison");
    return switch (opType) {
      case SqlWhereParser.EQ -> new Expr.Compare(operand, CompareOp.EQ, value);
      case SqlWhereParser.NEQ -> new Expr.Not(new Expr.Compare(operand, CompareOp.EQ, value));
      case SqlWhereParser.LT -> new Expr.Compare(operand, CompareOp.LT, value);
      case SqlWhereParser.LTE -> new Expr.Compare(operand, CompareOp.LE, value);
      case SqlWhereParser.GT -> new Expr.Compare(operand, CompareOp.GT, value);
      default -> new Expr.Compare(operand, CompareOp.GE, value);
    };
  }

  private static int flip(int opType) {
    return switch (opType) {
      case SqlWhereParser.LT -> SqlWhereParser.GT;
      case SqlWhereParser.LTE -> SqlWhereParser.GTE;
      case SqlWhereParser.GT -> SqlWhereParser.LT;
      case SqlWhereParser.GTE -> SqlWhereParser.LTE;
      default -> opType;
    };
  }

  /** {@code position(col, 'x') > 0} means "contains"; {@code = 0} means "does not contain". */
  private static Expr position(CallContext call, int opType, String value) {
    String name = name(call);
    boolean ci = name.equals("positioncaseinsensitive");
    if (!ci && !name.equals("position")) {
      throw unknownFunction(call);
    }
    arity(call, 2);
    String field = column(call.value(0), call.IDENT().getText());
    String text = stringArgument(call.value(1), call.IDENT().getText());
    Expr contains = new Expr.Contains(field, text, ci);
    boolean positive =
        (opType == SqlWhereParser.GT && value.equals("0"))
            || (opType == SqlWhereParser.GTE && value.equals("1"))
            || (opType == SqlWhereParser.NEQ && value.equals("0"));
    boolean negative =
        (opType == SqlWhereParser.EQ && value.equals("0"))
            || (opType == SqlWhereParser.LT && value.equals("1"))
            || (opType == SqlWhereParser.LTE && value.equals("0"));
    if (positive) {
      return contains;
    }
    if (negative) {
      return new Expr.Not(contains);
    }
    throw error(
        call,
        call.IDENT().getText()
            + "(...) can only be tested for a match: use > 0 (contains) or = 0 (does not contain)");
  }

  private static Expr hasToken(CallContext call) {
    arity(call, 2);
    String field = column(call.value(0), "hasToken");
    String token = stringArgument(call.value(1), "hasToken");
    if (!Tokens.isSingleToken(token)) {
      throw error(call.value(1), "hasToken needs one token of ASCII letters and digits");
    }
    return new Expr.HasToken(field, token);
  }

  private static Operand operand(ValueContext ctx, String where) {
    if (ctx instanceof SqlWhereParser.ColumnValueContext c) {
      return Operand.of(columnName(c.column()));
    }
    if (ctx instanceof SqlWhereParser.CallValueContext call) {
      String name = name(call.call());
      if (name.equals("lower") || name.equals("upper")) {
        arity(call.call(), 1);
        String field = column(call.call().value(0), call.call().IDENT().getText());
        return new Operand(field, name.equals("lower") ? Fold.LOWER : Fold.UPPER);
      }
      if (name.equals("hastoken") || name.startsWith("position")) {
        throw error(ctx, call.call().IDENT().getText() + "(...) cannot be used in " + where);
      }
      throw unknownFunction(call.call());
    }
    throw error(ctx, where + " needs a column here, not the constant " + ctx.getText());
  }

  private static String column(ValueContext ctx, String function) {
    if (ctx instanceof SqlWhereParser.ColumnValueContext c) {
      return columnName(c.column());
    }
    throw error(ctx, function + "(...) needs a column as its first argument");
  }

  private static String stringArgument(ValueContext ctx, String function) {
    if (ctx instanceof SqlWhereParser.LiteralValueContext l && l.literal().STRING() != null) {
      return unquoteString(l.literal().STRING().getText());
    }
    throw error(ctx, function + "(...) needs a quoted string as its second argument");
  }

  private static String literal(ValueContext ctx, String where) {
    if (!(ctx instanceof SqlWhereParser.LiteralValueContext l)) {
      throw error(ctx, where + " needs a constant here, not " + ctx.getText());
    }
    LiteralContext lit = l.literal();
    if (lit.STRING() != null) {
      return unquoteString(lit.STRING().getText());
    }
    if (lit.NUMBER() != null) {
      return (lit.MINUS() == null ? "" : "-") + lit.NUMBER().getText();
    }
    return lit.getText().toLowerCase(Locale.ROOT);
  }

  private static void arity(CallContext call, int n) {
    if (call.value().size() != n) {
      throw error(
          call, call.IDENT().getText() + "(...) takes " + n + " argument" + (n == 1 ? "" : "s"));
    }
  }

  private static WhereSyntaxException unknownFunction(CallContext call) {
    return error(
        call,
        "unknown function '"
            + call.IDENT().getText()
            + "'; supported: lower, upper, hasToken, position, positionCaseInsensitive");
  }

  private static String name(CallContext call) {
    return call.IDENT().getText().toLowerCase(Locale.ROOT);
  }

  private static Expr negateIf(boolean not, Expr e) {
    return not ? new Expr.Not(e) : e;
  }

  /** {@code a.b['c']} names the flattened column {@code a.b.c}. */
  static String columnName(ColumnContext ctx) {
    StringBuilder sb = new StringBuilder();
    for (IdentifierContext id : ctx.identifier()) {
      if (sb.length() > 0) {
        sb.append('.');
      }
      sb.append(identifier(id));
    }
    for (var key : ctx.STRING()) {
      sb.append('.').append(unquoteString(key.getText()));
    }
    return sb.toString();
  }

  private static String identifier(IdentifierContext id) {
    String t = id.getText();
    if (id.BACKQUOTED() != null) {
      return t.substring(1, t.length() - 1).replace("``", "`");
    }
    if (id.DQUOTED() != null) {
      return t.substring(1, t.length() - 1).replace("\"\"", "\"");
    }
    return t;
  }

  /**
   * Resolves a single-quoted SQL string: {@code ''} and {@code \'} are a quote, {@code \\} a
   * backslash, {@code \n \t \r \0} control characters; any other backslash is kept, so that {@code
   * LIKE} patterns keep their escapes.
   */
  static String unquoteString(String quoted) {
    StringBuilder sb = new StringBuilder(quoted.length());
    int end = quoted.length() - 1;
    for (int i = 1; i < end; i++) {
      char c = quoted.charAt(i);
      if (c == '\'' && i + 1 < end && quoted.charAt(i + 1) == '\'') {
        sb.append('\'');
        i++;
      } else if (c == '\\' && i + 1 < end) {
        char n = quoted.charAt(++i);
        switch (n) {
          case '\'', '\\' -> sb.append(n);
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case '0' -> sb.append('\0');
          default -> sb.append('\\').append(n);
        }
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
