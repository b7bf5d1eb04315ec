package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.Expr.Aggregate;
import dev.chartwell.prometheus.promql.Expr.At;
import dev.chartwell.prometheus.promql.Expr.AtKind;
import dev.chartwell.prometheus.promql.Expr.Binary;
import dev.chartwell.prometheus.promql.Expr.Call;
import dev.chartwell.prometheus.promql.Expr.Card;
import dev.chartwell.prometheus.promql.Expr.MatrixSelector;
import dev.chartwell.prometheus.promql.Expr.NumberLiteral;
import dev.chartwell.prometheus.promql.Expr.Paren;
import dev.chartwell.prometheus.promql.Expr.StringLiteral;
import dev.chartwell.prometheus.promql.Expr.Unary;
import dev.chartwell.prometheus.promql.Expr.VectorMatching;
import dev.chartwell.prometheus.promql.Expr.VectorSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/** Turns the parse tree into the immutable {@link Expr} tree, checking types as Prometheus does. */
final class AstBuilder extends PromQLBaseVisitor<Expr> {

  private static PromQlException error(ParserRuleContext ctx, String message) {
    return PromQlException.badData(ctx.getStart().getStartIndex(), message);
  }

  private static PromQlException error(Token t, String message) {
    return PromQlException.badData(t.getStartIndex(), message);
  }

  @Override
  public Expr visitQuery(PromQLParser.QueryContext ctx) {
    return visit(ctx.expr());
  }

  @Override
  public Expr visitParen(PromQLParser.ParenContext ctx) {
    return new Paren(visit(ctx.expr()));
  }

  @Override
  public Expr visitNumber(PromQLParser.NumberContext ctx) {
    return new NumberLiteral(Literals.number(ctx.NUMBER().getText()));
  }

  @Override
  public Expr visitDurationNumber(PromQLParser.DurationNumberContext ctx) {
    throw error(ctx, "unexpected duration \"" + ctx.getText() + "\"");
  }

  @Override
  public Expr visitString(PromQLParser.StringContext ctx) {
    Token t = ctx.STRING().getSymbol();
    return new StringLiteral(Literals.string(t.getText(), t.getStartIndex()));
  }

  @Override
  public Expr visitVectorSelector(PromQLParser.VectorSelectorContext ctx) {
    PromQLParser.SelectorContext s = ctx.selector();
    String name = s.metricName() == null ? null : s.metricName().getText();
    List<LabelMatcher> matchers = new ArrayList<>();
    if (name != null) {
      matchers.add(new LabelMatcher(Labels.NAME, LabelMatcher.Type.EQUAL, name));
    }
    if (s.matchers() != null) {
      for (PromQLParser.MatcherContext m : s.matchers().matcher()) {
        String label = m.labelName().getText();
        if (name != null && label.equals(Labels.NAME)) {
          throw error(m, "metric name must not be set twice: \"" + name + "\"");
        }
        Token str = m.STRING().getSymbol();
        String value = Literals.string(str.getText(), str.getStartIndex());
        LabelMatcher.Type type =
            switch (m.op.getType()) {
              case PromQLParser.EQ -> LabelMatcher.Type.EQUAL;
              case PromQLParser.NEQ -> LabelMatcher.Type.NOT_EQUAL;
              case PromQLParser.EQL_REGEX -> LabelMatcher.Type.REGEX;
              default -> LabelMatcher.Type.NOT_REGEX;
            };
        try {
          matchers.add(new LabelMatcher(label, type, value));
        } catch (IllegalArgumentException e) {
          throw error(str, e.getMessage());
        }
      }
    }
    if (matchers.stream().allMatch(LabelMatcher::matchesEmpty)) {
      throw error(ctx, "vector selector must contain at least one non-empty matcher");
    }
    return new VectorSelector(name, matchers, 0, null);
  }

  @Override
  public Expr visitMatrix(PromQLParser.MatrixContext ctx) {
    Expr e = visit(ctx.expr());
    if (!(e instanceof VectorSelector vs)) {
      throw error(ctx.LBRACKET().getSymbol(), "ranges only allowed for vector selectors");
    }
    if (vs.offsetMs() != 0 || vs.at() != null) {
      throw error(ctx.LBRACKET().getSymbol(), "no offset or @ modifiers allowed before range");
    }
    Token d = ctx.DURATION().getSymbol();
    long range = Literals.durationMs(d.getText(), d.getStartIndex());
    if (range <= 0) {
      throw error(d, "range must be greater than 0");
    }
    return new MatrixSelector(vs, range);
  }

  @Override
  public Expr visitSubquery(PromQLParser.SubqueryContext ctx) {
    throw error(ctx.LBRACKET().getSymbol(), "unsupported subquery");
  }

  @Override
  public Expr visitOffset(PromQLParser.OffsetContext ctx) {
    Expr e = visit(ctx.expr());
    Token d = ctx.DURATION().getSymbol();
    long off = Literals.durationMs(d.getText(), d.getStartIndex());
    if (ctx.SUB() != null) {
      off = -off;
    }
    Token at = ctx.OFFSET().getSymbol();
    VectorSelector vs = selectorOf(e, at, "offset");
    if (vs.offsetMs() != 0) {
      throw error(at, "offset may not be set multiple times");
    }
    VectorSelector withOffset = new VectorSelector(vs.name(), vs.matchers(), off, vs.at());
    return e instanceof MatrixSelector ms
        ? new MatrixSelector(withOffset, ms.rangeMs())
        : withOffset;
  }

  @Override
  public Expr visitAt(PromQLParser.AtContext ctx) {
    Expr e = visit(ctx.expr());
    Token t = ctx.AT().getSymbol();
    VectorSelector vs = selectorOf(e, t, "@");
    if (vs.at() != null) {
      throw error(t, "@ <timestamp> may not be set multiple times");
    }
    PromQLParser.AtTimeContext a = ctx.atTime();
    At at;
    if (a.START() != null) {
      at = new At(AtKind.START, 0);
    } else if (a.END() != null) {
      at = new At(AtKind.END, 0);
    } else if (a.NUMBER() != null) {
      double sec = Literals.number(a.NUMBER().getText());
      if (a.SUB() != null) {
        sec = -sec;
      }
      if (Double.isNaN(sec) || Double.isInfinite(sec)) {
        throw error(a, "timestamp out of bounds for @ modifier: " + sec);
      }
      at = new At(AtKind.TIME, Math.round(sec * 1000));
    } else {
      throw error(a, "unexpected duration in @ modifier");
    }
    VectorSelector withAt = new VectorSelector(vs.name(), vs.matchers(), vs.offsetMs(), at);
    return e instanceof MatrixSelector ms ? new MatrixSelector(withAt, ms.rangeMs()) : withAt;
  }

  private static VectorSelector selectorOf(Expr e, Token t, String what) {
    if (e instanceof VectorSelector vs) {
      return vs;
    }
    if (e instanceof MatrixSelector ms) {
      return ms.selector();
    }
    throw error(
        t,
        what + " modifier must be preceded by an instant vector selector or range vector selector");
  }

  @Override
  public Expr visitUnary(PromQLParser.UnaryContext ctx) {
    Expr e = visit(ctx.expr());
    if (e.type() != ValueType.SCALAR && e.type() != ValueType.VECTOR) {
      throw error(
          ctx,
          "unary expression only allowed on expressions of type scalar or instant vector, got "
              + e.type().apiName());
    }
    boolean negate = ctx.op.getType() == PromQLParser.SUB;
    if (!negate) {
      return e;
    }
    if (e instanceof NumberLiteral n) {
      return new NumberLiteral(-n.value());
    }
    return new Unary(true, e);
  }

  @Override
  public Expr visitBinary(PromQLParser.BinaryContext ctx) {
    Expr lhs = visit(ctx.expr(0));
    Expr rhs = visit(ctx.expr(1));
    BinaryOp op = binaryOp(ctx.op);
    PromQLParser.BinModifierContext mod = ctx.binModifier();
    for (Expr side : List.of(lhs, rhs)) {
      if (side.type() != ValueType.SCALAR && side.type() != ValueType.VECTOR) {
        throw error(ctx.op, "binary expression must contain only scalar and instant vector types");
      }
    }
    boolean bool = mod.BOOL() != null;
    if (bool && !op.isComparison()) {
      throw error(ctx.op, "bool modifier can only be used on comparison operators");
    }
    boolean bothScalar = lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR;
    if (op.isComparison() && bothScalar && !bool) {
      throw error(ctx.op, "comparisons between scalars must use BOOL modifier");
    }
    if (op.isSetOperator() && (lhs.type() == ValueType.SCALAR || rhs.type() == ValueType.SCALAR)) {
      throw error(
          ctx.op, "set operator \"" + op.symbol() + "\" not allowed in binary scalar expression");
    }
    boolean bothVectors = lhs.type() == ValueType.VECTOR && rhs.type() == ValueType.VECTOR;
    if (mod.matchKind != null && !bothVectors) {
      throw error(ctx.op, "vector matching only allowed between instant vectors");
    }
    VectorMatching matching = null;
    if (bothVectors) {
      boolean on = mod.matchKind != null && mod.matchKind.getType() == PromQLParser.ON;
      List<String> labels = mod.matchKind == null ? List.of() : labelList(mod.labelList(0));
      Card card = op.isSetOperator() ? Card.MANY_TO_MANY : Card.ONE_TO_ONE;
      List<String> include = List.of();
      if (mod.groupKind != null) {
        if (op.isSetOperator()) {
          throw error(ctx.op, "no grouping allowed for \"" + op.symbol() + "\" operation");
        }
        card =
            mod.groupKind.getType() == PromQLParser.GROUP_LEFT
                ? Card.MANY_TO_ONE
                : Card.ONE_TO_MANY;
        include = mod.labelList().size() > 1 ? labelList(mod.labelList(1)) : List.of();
        if (on) {
          for (String l : include) {
            if (labels.contains(l)) {
              throw error(
                  mod.groupKind,
                  "label \"" + l + "\" must not occur in ON and GROUP clause at once");
            }
          }
        }
      }
      matching = new VectorMatching(card, on, labels, include);
    }
    return new Binary(op, lhs, rhs, bool, matching);
  }

  private static BinaryOp binaryOp(Token t) {
    return switch (t.getType()) {
      case PromQLParser.POW -> BinaryOp.POW;
      case PromQLParser.MUL -> BinaryOp.MUL;
      case PromQLParser.DIV -> BinaryOp.DIV;
      case PromQLParser.MOD -> BinaryOp.MOD;
      case PromQLParser.ATAN2 -> BinaryOp.ATAN2;
      case PromQLParser.ADD -> BinaryOp.ADD;
      case PromQLParser.SUB -> BinaryOp.SUB;
      case PromQLParser.EQLC -> BinaryOp.EQL;
      case PromQLParser.NEQ -> BinaryOp.NEQ;
      case PromQLParser.LTE -> BinaryOp.LTE;
      case PromQLParser.LSS -> BinaryOp.LSS;
      case PromQLParser.GTE -> BinaryOp.GTE;
      case PromQLParser.GTR -> BinaryOp.GTR;
      case PromQLParser.AND -> BinaryOp.AND;
      case PromQLParser.UNLESS -> BinaryOp.UNLESS;
      default -> BinaryOp.OR;
    };
  }

  private static List<String> labelList(PromQLParser.LabelListContext ctx) {
    List<String> out = new ArrayList<>();
    for (PromQLParser.LabelNameContext l : ctx.labelName()) {
      out.add(l.getText());
    }
    return out;
  }

  @Override
  public Expr visitAggregate(PromQLParser.AggregateContext ctx) {
    String name = ctx.aggregateOp().getText().toLowerCase(Locale.ROOT);
    AggregateOp op = AggregateOp.valueOf(name.toUpperCase(Locale.ROOT));
    if (ctx.grouping().size() > 1) {
      throw error(ctx.grouping(1), "aggregation " + name + " has two by/without clauses");
    }
    List<Expr> args = args(ctx.argList());
    int expected = op.hasParam() ? 2 : 1;
    if (args.size() != expected) {
      throw error(
          ctx,
          "wrong number of arguments for aggregate expression provided, expected "
              + expected
              + ", got "
              + args.size());
    }
    Expr param = op.hasParam() ? args.get(0) : null;
    Expr expr = args.get(expected - 1);
    if (expr.type() != ValueType.VECTOR) {
      throw error(
          ctx,
          "expected type instant vector in aggregation expression, got " + typeName(expr.type()));
    }
    if (param != null) {
      ValueType want = op == AggregateOp.COUNT_VALUES ? ValueType.STRING : ValueType.SCALAR;
      if (param.type() != want) {
        throw error(
            ctx,
            "expected type "
                + typeName(want)
                + " in aggregation parameter, got "
                + typeName(param.type()));
      }
    }
    List<String> grouping = List.of();
    boolean without = false;
    if (!ctx.grouping().isEmpty()) {
      PromQLParser.GroupingContext g = ctx.grouping(0);
      grouping = labelList(g.labelList());
      without = g.kind.getType() == PromQLParser.WITHOUT;
    }
    return new Aggregate(op, param, expr, grouping, without);
  }

  @Override
  public Expr visitCall(PromQLParser.CallContext ctx) {
    String name = ctx.IDENTIFIER().getText();
    Function f = Function.byName(name);
    if (f == null) {
      if (Function.UNSUPPORTED.contains(name)) {
        throw error(ctx, "unsupported function " + name);
      }
      throw error(ctx, "unknown function with name \"" + name + "\"");
    }
    List<Expr> args = args(ctx.argList());
    List<ValueType> types = f.argTypes();
    int min = f.optionalOrVariadic() > 0 ? types.size() - f.optionalOrVariadic() : types.size();
    boolean variadic = f.optionalOrVariadic() < 0;
    if (args.size() < min || (!variadic && args.size() > types.size())) {
      throw error(
          ctx,
          "expected "
              + (min == types.size() ? "" : "at most ")
              + types.size()
              + " argument(s) in call to \""
              + name
              + "\", got "
              + args.size());
    }
    for (int i = 0; i < args.size(); i++) {
      ValueType want = types.get(Math.min(i, types.size() - 1));
      Expr a = args.get(i);
      if (a.type() != want) {
        throw error(
            ctx.argList().expr(i),
            "expected type "
                + typeName(want)
                + " in call to function \""
                + name
                + "\", got "
                + typeName(a.type()));
      }
      if (want == ValueType.MATRIX && !(unwrap(a) instanceof MatrixSelector)) {
        throw error(ctx.argList().expr(i), "unsupported subquery");
      }
    }
    return new Call(f, args);
  }

  static Expr unwrap(Expr e) {
    while (e instanceof Paren p) {
      e = p.expr();
    }
    return e;
  }

  private List<Expr> args(PromQLParser.ArgListContext ctx) {
    List<Expr> out = new ArrayList<>();
    if (ctx != null) {
      for (PromQLParser.ExprContext e : ctx.expr()) {
        out.add(visit(e));
      }
    }
    return out;
  }

  private static String typeName(ValueType t) {
    return switch (t) {
      case VECTOR -> "instant vector";
      case MATRIX -> "range vector";
      default -> t.apiName();
    };
  }
}
