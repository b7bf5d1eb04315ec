package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import java.util.List;
import java.util.Objects;

/**
 * An immutable PromQL expression tree, as {@link PromQl#parse(String)} builds it. Every node prints
 * itself ({@link Object#toString()}) as valid PromQL that parses back to an equal tree.
 */
public sealed interface Expr
    permits Expr.NumberLiteral,
        Expr.StringLiteral,
        Expr.VectorSelector,
        Expr.MatrixSelector,
        Expr.Call,
        Expr.Aggregate,
        Expr.Binary,
        Expr.Unary,
        Expr.Paren {

  /**
   * The type of value the expression evaluates to.
   *
   * @return scalar, vector, matrix or string
   */
  ValueType type();

  /**
   * A number: {@code 1}, {@code 1.5e3}, {@code 0x1f}, {@code Inf}, {@code NaN}.
   *
   * @param value the number
   */
  record NumberLiteral(double value) implements Expr {
    @Override
    public ValueType type() {
      return ValueType.SCALAR;
    }

    @Override
    public String toString() {
      return Format.number(value);
    }
  }

  /**
   * A string literal (an argument of e.g. {@code label_replace}).
   *
   * @param value the unescaped string
   */
  record StringLiteral(String value) implements Expr {
    /** Checks the value. */
    public StringLiteral {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public ValueType type() {
      return ValueType.STRING;
    }

    @Override
    public String toString() {
      return Format.string(value);
    }
  }

  /**
   * The {@code @} modifier of a selector.
   *
   * @param kind a fixed time, {@code start()} or {@code end()}
   * @param timeMs the fixed time in milliseconds since the epoch (for {@link AtKind#TIME})
   */
  record At(AtKind kind, long timeMs) {
    /** Checks the kind. */
    public At {
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String toString() {
      return switch (kind) {
        case TIME -> "@ " + Format.number(timeMs / 1000.0);
        case START -> "@ start()";
        case END -> "@ end()";
      };
    }
  }

  /** What an {@code @} modifier refers to. */
  enum AtKind {
    /** A fixed Unix time. */
    TIME,
    /** The start of the range query (the time of an instant query). */
    START,
    /** The end of the range query (the time of an instant query). */
    END
  }

  /**
   * An instant vector selector: {@code name{matchers} offset d @ t}.
   *
   * @param name the metric name written before the braces, or null
   * @param matchers every matcher, the {@code __name__="name"} one of {@code name} included
   * @param offsetMs the offset in milliseconds (may be negative), 0 when absent
   * @param at the {@code @} modifier, or null
   */
  record VectorSelector(String name, List<LabelMatcher> matchers, long offsetMs, At at)
      implements Expr {
    /** Copies the matchers. */
    public VectorSelector {
      matchers = List.copyOf(matchers);
    }

    @Override
    public ValueType type() {
      return ValueType.VECTOR;
    }

    @Override
    public String toString() {
      return selectorText() + Format.modifiers(offsetMs, at);
    }

    String selectorText() {
      StringBuilder b = new StringBuilder(name == null ? "" : name);
      StringBuilder m = new StringBuilder();
      boolean skippedName = false;
      for (LabelMatcher lm : matchers) {
        if (!skippedName
            && name != null
            && lm.name().equals(Labels.NAME)
            && lm.type() == LabelMatcher.Type.EQUAL
            && lm.value().equals(name)) {
          skippedName = true;
          continue;
        }
        if (m.length() > 0) {
          m.append(", ");
        }
        m.append(lm.name()).append(lm.type().symbol()).append(Format.string(lm.value()));
      }
      if (m.length() > 0 || name == null) {
        b.append('{').append(m).append('}');
      }
      return b.toString();
    }
  }

  /**
   * A range vector selector: {@code name{matchers}[range] offset d @ t}.
   *
   * @param selector the series (with the offset and {@code @} of the whole expression)
   * @param rangeMs the range in milliseconds
   */
  record MatrixSelector(VectorSelector selector, long rangeMs) implements Expr {
    /** Checks the selector. */
    public MatrixSelector {
      Objects.requireNonNull(selector, "selector");
    }

    @Override
    public ValueType type() {
      return ValueType.MATRIX;
    }

    @Override
    public String toString() {
      return selector.selectorText()
          + '['
          + Format.duration(rangeMs)
          + ']'
          + Format.modifiers(selector.offsetMs(), selector.at());
    }
  }

  /**
   * A function call such as {@code rate(x[5m])}.
   *
   * @param function the function
   * @param args its arguments
   */
  record Call(Function function, List<Expr> args) implements Expr {
    /** Copies the arguments. */
    public Call {
      Objects.requireNonNull(function, "function");
      args = List.copyOf(args);
    }

    @Override
    public ValueType type() {
      return function.returnType();
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder(function.promName()).append('(');
      for (int i = 0; i < args.size(); i++) {
        b.append(i > 0 ? ", " : "").append(args.get(i));
      }
      return b.append(')').toString();
    }
  }

  /**
   * An aggregation such as {@code sum by (job) (x)} or {@code topk(3, x)}.
   *
   * @param op the aggregation
   * @param param the parameter of topk, bottomk, quantile and count_values, else null
   * @param expr the aggregated vector
   * @param grouping the labels of {@code by} or {@code without}
   * @param without true for {@code without}, false for {@code by} (or no clause)
   */
  record Aggregate(AggregateOp op, Expr param, Expr expr, List<String> grouping, boolean without)
      implements Expr {
    /** Copies the grouping labels. */
    public Aggregate {
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(expr, "expr");
      grouping = List.copyOf(grouping);
    }

    @Override
    public ValueType type() {
      return ValueType.VECTOR;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder(op.promName());
      if (without || !grouping.isEmpty()) {
        b.append(without ? " without " : " by ").append(Format.labelList(grouping)).append(' ');
      }
      b.append('(');
      if (param != null) {
        b.append(param).append(", ");
      }
      return b.append(expr).append(')').toString();
    }
  }

  /**
   * How the series of the two sides of a binary operation are matched.
   *
   * @param card one-to-one, many-to-one ({@code group_left}), one-to-many ({@code group_right}) or
   *     many-to-many (the set operators)
   * @param on true for {@code on(labels)}, false for {@code ignoring(labels)} (or none)
   * @param labels the labels of {@code on} or {@code ignoring}
   * @param include the labels of {@code group_left}/{@code group_right} copied from the "one" side
   */
  record VectorMatching(Card card, boolean on, List<String> labels, List<String> include) {
    /** Copies the lists. */
    public VectorMatching {
      Objects.requireNonNull(card, "card");
      labels = List.copyOf(labels);
      include = List.copyOf(include);
    }

    String text() {
      boolean group = card == Card.MANY_TO_ONE || card == Card.ONE_TO_MANY;
      StringBuilder b = new StringBuilder();
      if (on) {
        b.append(" on").append(Format.labelList(labels));
      } else if (!labels.isEmpty() || group) {
        b.append(" ignoring").append(Format.labelList(labels));
      }
      if (group) {
        b.append(card == Card.MANY_TO_ONE ? " group_left" : " group_right");
        if (!include.isEmpty()) {
          b.append(Format.labelList(include));
        }
      }
      return b.toString();
    }
  }

  /** The cardinality of a vector matching. */
  enum Card {
    /** Each series matches at most one on the other side. */
    ONE_TO_ONE,
    /** {@code group_left}: many on the left to one on the right. */
    MANY_TO_ONE,
    /** {@code group_right}: one on the left to many on the right. */
    ONE_TO_MANY,
    /** The set operators {@code and}, {@code or}, {@code unless}. */
    MANY_TO_MANY
  }

  /**
   * A binary operation.
   *
   * @param op the operator
   * @param lhs the left operand
   * @param rhs the right operand
   * @param returnBool true for a comparison with {@code bool}
   * @param matching the vector matching (when both sides are vectors), else null
   */
  record Binary(BinaryOp op, Expr lhs, Expr rhs, boolean returnBool, VectorMatching matching)
      implements Expr {
    /** Checks the operands. */
    public Binary {
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(lhs, "lhs");
      Objects.requireNonNull(rhs, "rhs");
    }

    @Override
    public ValueType type() {
      return lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR
          ? ValueType.SCALAR
          : ValueType.VECTOR;
    }

    @Override
    public String toString() {
      return lhs
          + " "
          + op.symbol()
          + (returnBool ? " bool" : "")
          + (matching == null ? "" : matching.text())
          + " "
          + rhs;
    }
  }

  /**
   * Unary minus (or plus) of a vector or a non-literal scalar ({@code -1} is a number literal).
   *
   * @param negate true for {@code -}, false for {@code +}
   * @param expr the operand
   */
  record Unary(boolean negate, Expr expr) implements Expr {
    /** Checks the operand. */
    public Unary {
      Objects.requireNonNull(expr, "expr");
    }

    @Override
    public ValueType type() {
      return expr.type();
    }

    @Override
    public String toString() {
      return (negate ? "-" : "+") + expr;
    }
  }

  /**
   * Parentheses, kept so that the tree prints as written.
   *
   * @param expr the enclosed expression
   */
  record Paren(Expr expr) implements Expr {
    /** Checks the operand. */
    public Paren {
      Objects.requireNonNull(expr, "expr");
    }

    @Override
    public ValueType type() {
      return expr.type();
    }

    @Override
    public String toString() {
      return "(" + expr + ")";
    }
  }
}
