package dev.chartwell.prometheus.promql;

/** PromQL's aggregation operators. */
public enum AggregateOp {
  /** {@code sum} */
  SUM,
  /** {@code avg} */
  AVG,
  /** {@code min} */
  MIN,
  /** {@code max} */
  MAX,
  /** {@code count} */
  COUNT,
  /** {@code stddev} */
  STDDEV,
  /** {@code stdvar} */
  STDVAR,
  /** {@code group} */
  GROUP,
  /** {@code topk(k, v)} */
  TOPK,
  /** {@code bottomk(k, v)} */
  BOTTOMK,
  /** {@code quantile(q, v)} */
  QUANTILE,
  /** {@code count_values("label", v)} */
  COUNT_VALUES;

  /**
   * The operator as written.
   *
   * @return e.g. {@code "sum"}
   */
  public String promName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Whether the operator takes a parameter before the vector.
   *
   * @return true for topk, bottomk, quantile and count_values
   */
  public boolean hasParam() {
    return this == TOPK || this == BOTTOMK || this == QUANTILE || this == COUNT_VALUES;
  }
}
