package dev.chartwell.prometheus.promql;

/** PromQL's binary operators. */
public enum BinaryOp {
  /** {@code +} */
  ADD("+"),
  /** {@code -} */
  SUB("-"),
  /** {@code *} */
  MUL("*"),
  /** {@code /} */
  DIV("/"),
  /** {@code %} */
  MOD("%"),
  /** {@code ^} */
  POW("^"),
  /** {@code atan2} */
  ATAN2("atan2"),
  /** {@code ==} */
  EQL("=="),
  /** {@code !=} */
  NEQ("!="),
  /** {@code >} */
  GTR(">"),
  /** {@code <} */
  LSS("<"),
  /** {@code >=} */
  GTE(">="),
  /** {@code <=} */
  LTE("<="),
  /** {@code and} */
  AND("and"),
  /** {@code or} */
  OR("or"),
  /** {@code unless} */
  UNLESS("unless");

  private final String symbol;

  BinaryOp(String symbol) {
    this.symbol = symbol;
  }

  /**
   * The operator as written.
   *
   * @return e.g. {@code "+"} or {@code "and"}
   */
  public String symbol() {
    return symbol;
  }

  /**
   * Whether this is a comparison ({@code == != > < >= <=}).
   *
   * @return true for comparisons
   */
  public boolean isComparison() {
    return ordinal() >= EQL.ordinal() && ordinal() <= LTE.ordinal();
  }

  /**
   * Whether this is a set operator ({@code and or unless}).
   *
   * @return true for set operators
   */
  public boolean isSetOperator() {
    return this == AND || this == OR || this == UNLESS;
  }
}
