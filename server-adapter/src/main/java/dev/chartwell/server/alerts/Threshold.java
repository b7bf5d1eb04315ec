package dev.chartwell.server.alerts;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * When a value breaks an alert's threshold, and how notifications say so, as HyperDX does: {@code
 * above} is {@code >=}, {@code above_exclusive} {@code >}, {@code below} {@code <}, {@code
 * below_or_equal} {@code <=}, {@code equal} and {@code not_equal} exact, {@code between} and {@code
 * not_between} inclusive of both bounds ({@code max} is the upper one).
 *
 * @param type the threshold type, as the API names it
 * @param threshold the threshold (the lower bound of a range)
 * @param max the upper bound of {@code between} and {@code not_between}, else ignored
 */
public record Threshold(String type, double threshold, double max) {
  /** Checks the type. */
  public Threshold {
    if (!switch (type) {
      case "above",
          "above_exclusive",
          "below",
          "below_or_equal",
          "equal",
          "not_equal",
          "between",
          "not_between" ->
          true;
      default -> false;
    }) {
      throw new IllegalArgumentException("unknown threshold type " + type);
    }
  }

  /**
   * @param value a window's value
   * @return whether it breaks the threshold
   */
  public boolean exceeds(double value) {
    return switch (type) {
      case "above" -> value >= threshold;
      case "above_exclusive" -> value > threshold;
      case "below" -> value < threshold;
      case "below_or_equal" -> value <= threshold;
      case "equal" -> value == threshold;
      case "not_equal" -> value != threshold;
      case "between" -> value >= threshold && value <= max;
      default -> value < threshold || value > max; // not_between
    };
  }

  /**
   * @return what a breaking value does, as in "10 meets or exceeds 5"
   */
  public String violation() {
    return switch (type) {
      case "above" -> "meets or exceeds";
      case "above_exclusive" -> "exceeds";
      case "below" -> "falls below";
      case "below_or_equal" -> "falls to or below";
      case "equal" -> "equals";
      case "not_equal" -> "does not equal";
      case "between" -> "falls between";
      default -> "falls outside";
    };
  }

  /**
   * @return what a value within the threshold does, as in "3 falls below 5"
   */
  public String resolution() {
    return switch (type) {
      case "above" -> "falls below";
      case "above_exclusive" -> "falls to or below";
      case "below" -> "meets or exceeds";
      case "below_or_equal" -> "exceeds";
      case "equal" -> "does not equal";
      case "not_equal" -> "equals";
      case "between" -> "falls outside";
      default -> "falls between";
    };
  }

  /**
   * @return the threshold as text: {@code 5}, or {@code 5 and 7} for a range
   */
  public String describe() {
    boolean range = type.equals("between") || type.equals("not_between");
    return range ? number(threshold) + " and " + number(max) : number(threshold);
  }

  /**
   * @param value a value
   * @return the value with as many decimals as the threshold has ({@code 10.1} against {@code 1.5},
   *     {@code 11} against {@code 5} for 10.6)
   */
  public String format(double value) {
    if (!Double.isFinite(value)) {
      return Double.toString(value);
    }
    int decimals = Math.max(0, BigDecimal.valueOf(threshold).stripTrailingZeros().scale());
    return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
  }

  /**
   * @param v a number
   * @return it without a fraction when it is whole ({@code 5}, {@code 1.5})
   */
  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString().toLowerCase(Locale.ROOT);
  }
}
