package dev.chartwell.prometheus.promql;

import static dev.chartwell.prometheus.promql.ValueType.MATRIX;
import static dev.chartwell.prometheus.promql.ValueType.SCALAR;
import static dev.chartwell.prometheus.promql.ValueType.STRING;
import static dev.chartwell.prometheus.promql.ValueType.VECTOR;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The PromQL functions Chartwell evaluates, with their argument and result types as Prometheus 2.42
 * declares them.
 */
public enum Function {
  /** {@code rate(v range-vector)} */
  RATE(VECTOR, 0, MATRIX),
  /** {@code irate(v range-vector)} */
  IRATE(VECTOR, 0, MATRIX),
  /** {@code increase(v range-vector)} */
  INCREASE(VECTOR, 0, MATRIX),
  /** {@code delta(v range-vector)} */
  DELTA(VECTOR, 0, MATRIX),
  /** {@code idelta(v range-vector)} */
  IDELTA(VECTOR, 0, MATRIX),
  /** {@code deriv(v range-vector)} */
  DERIV(VECTOR, 0, MATRIX),
  /** {@code resets(v range-vector)} */
  RESETS(VECTOR, 0, MATRIX),
  /** {@code changes(v range-vector)} */
  CHANGES(VECTOR, 0, MATRIX),
  /** {@code avg_over_time(v range-vector)} */
  AVG_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code min_over_time(v range-vector)} */
  MIN_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code max_over_time(v range-vector)} */
  MAX_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code sum_over_time(v range-vector)} */
  SUM_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code count_over_time(v range-vector)} */
  COUNT_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code last_over_time(v range-vector)} */
  LAST_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code present_over_time(v range-vector)} */
  PRESENT_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code quantile_over_time(q scalar, v range-vector)} */
  QUANTILE_OVER_TIME(VECTOR, 0, SCALAR, MATRIX),
  /** {@code stddev_over_time(v range-vector)} */
  STDDEV_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code stdvar_over_time(v range-vector)} */
  STDVAR_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code absent_over_time(v range-vector)} */
  ABSENT_OVER_TIME(VECTOR, 0, MATRIX),
  /** {@code histogram_quantile(q scalar, b instant-vector)} */
  HISTOGRAM_QUANTILE(VECTOR, 0, SCALAR, VECTOR),
  /** {@code abs(v instant-vector)} */
  ABS(VECTOR, 0, VECTOR),
  /** {@code ceil(v instant-vector)} */
  CEIL(VECTOR, 0, VECTOR),
  /** {@code floor(v instant-vector)} */
  FLOOR(VECTOR, 0, VECTOR),
  /** {@code round(v instant-vector, to_nearest=1 scalar)} */
  ROUND(VECTOR, 1, VECTOR, SCALAR),
  /** {@code clamp(v instant-vector, min scalar, max scalar)} */
  CLAMP(VECTOR, 0, VECTOR, SCALAR, SCALAR),
  /** {@code clamp_min(v instant-vector, min scalar)} */
  CLAMP_MIN(VECTOR, 0, VECTOR, SCALAR),
  /** {@code clamp_max(v instant-vector, max scalar)} */
  CLAMP_MAX(VECTOR, 0, VECTOR, SCALAR),
  /** {@code exp(v instant-vector)} */
  EXP(VECTOR, 0, VECTOR),
  /** {@code ln(v instant-vector)} */
  LN(VECTOR, 0, VECTOR),
  /** {@code log2(v instant-vector)} */
  LOG2(VECTOR, 0, VECTOR),
  /** {@code log10(v instant-vector)} */
  LOG10(VECTOR, 0, VECTOR),
  /** {@code sqrt(v instant-vector)} */
  SQRT(VECTOR, 0, VECTOR),
  /** {@code sgn(v instant-vector)} */
  SGN(VECTOR, 0, VECTOR),
  /** {@code timestamp(v instant-vector)} */
  TIMESTAMP(VECTOR, 0, VECTOR),
  /** {@code vector(s scalar)} */
  VECTOR_FN(VECTOR, 0, SCALAR),
  /** {@code scalar(v instant-vector)} */
  SCALAR_FN(SCALAR, 0, VECTOR),
  /** {@code time()} */
  TIME(SCALAR, 0),
  /** {@code label_replace(v, dst, replacement, src, regex)} */
  LABEL_REPLACE(VECTOR, 0, VECTOR, STRING, STRING, STRING, STRING),
  /** {@code label_join(v, dst, separator, src...)} (variadic) */
  LABEL_JOIN(VECTOR, -1, VECTOR, STRING, STRING, STRING),
  /** {@code sort(v instant-vector)} */
  SORT(VECTOR, 0, VECTOR),
  /** {@code sort_desc(v instant-vector)} */
  SORT_DESC(VECTOR, 0, VECTOR),
  /** {@code absent(v instant-vector)} */
  ABSENT(VECTOR, 0, VECTOR);

  /** Functions of Prometheus 2.42 that Chartwell does not evaluate (named in the error). */
  static final Set<String> UNSUPPORTED =
      Set.of(
          "holt_winters",
          "predict_linear",
          "acos",
          "acosh",
          "asin",
          "asinh",
          "atan",
          "atanh",
          "cos",
          "cosh",
          "sin",
          "sinh",
          "tan",
          "tanh",
          "deg",
          "rad",
          "pi",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "days_in_month",
          "hour",
          "minute",
          "month",
          "year",
          "histogram_count",
          "histogram_sum",
          "histogram_fraction",
          "mad_over_time");

  private static final Map<String, Function> BY_NAME = new HashMap<>();

  static {
    for (Function f : values()) {
      BY_NAME.put(f.promName(), f);
    }
  }

  private final ValueType returnType;
  private final int optionalOrVariadic;
  private final List<ValueType> argTypes;

  Function(ValueType returnType, int optionalOrVariadic, ValueType... argTypes) {
    this.returnType = returnType;
    this.optionalOrVariadic = optionalOrVariadic;
    this.argTypes = List.of(argTypes);
  }

  /**
   * The function's name in PromQL.
   *
   * @return e.g. {@code "rate"}
   */
  public String promName() {
    return switch (this) {
      case VECTOR_FN -> "vector";
      case SCALAR_FN -> "scalar";
      default -> name().toLowerCase(Locale.ROOT);
    };
  }

  /**
   * The type of the function's result.
   *
   * @return scalar or vector
   */
  public ValueType returnType() {
    return returnType;
  }

  /**
   * The declared argument types (for a variadic function, the last one repeats).
   *
   * @return the types
   */
  public List<ValueType> argTypes() {
    return argTypes;
  }

  /**
   * How many trailing arguments may be left out, or -1 when the last one may repeat.
   *
   * @return 0, 1 or -1
   */
  int optionalOrVariadic() {
    return optionalOrVariadic;
  }

  /**
   * The supported function of a name.
   *
   * @param name the name as written
   * @return the function, or null when Chartwell does not know it
   */
  static Function byName(String name) {
    return BY_NAME.get(name);
  }
}
