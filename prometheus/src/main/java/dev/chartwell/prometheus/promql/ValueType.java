package dev.chartwell.prometheus.promql;

/** The four PromQL value types, as Prometheus names them in its API ({@code resultType}). */
public enum ValueType {
  /** One number per evaluation time. */
  SCALAR("scalar"),
  /** A set of series, one value each per evaluation time. */
  VECTOR("vector"),
  /** A set of series with a range of samples each. */
  MATRIX("matrix"),
  /** A string literal. */
  STRING("string");

  private final String apiName;

  ValueType(String apiName) {
    this.apiName = apiName;
  }

  /**
   * The type's name in Prometheus' HTTP API and error messages.
   *
   * @return e.g. {@code "vector"}
   */
  public String apiName() {
    return apiName;
  }
}
