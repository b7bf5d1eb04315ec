package dev.chartwell.engine.internal.filter;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * What counts as a number in text: an optional sign, digits with an optional fraction, an optional
 * exponent. No hexadecimal, no {@code NaN}, no surrounding spaces.
 */
public final class Numbers {
  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  private Numbers() {}

  /**
   * @param s text
   * @return its value as a double, or {@code NaN} when it is not a number (or not finite)
   */
  public static double parseDouble(String s) {
    if (s.isEmpty() || s.length() > 400 || !NUMBER.matcher(s).matches()) {
      return Double.NaN;
    }
    double d = Double.parseDouble(s);
    return Double.isFinite(d) ? d : Double.NaN;
  }

  /**
   * @param s text
   * @return its exact value, or {@code null} when it is not a number
   */
  public static BigDecimal parseExact(String s) {
    if (s.isEmpty() || s.length() > 400 || !NUMBER.matcher(s).matches()) {
      return null;
    }
    return new BigDecimal(s);
  }

  /**
   * The text of a number or boolean in string operations ({@code LIKE}, {@code lower}, contains).
   *
   * @param v a long
   * @return its decimal text
   */
  public static String text(long v) {
    return Long.toString(v);
  }

  /**
   * @param v a double
   * @return its text, as {@link Double#toString(double)}
   */
  public static String text(double v) {
    return Double.toString(v);
  }
}
