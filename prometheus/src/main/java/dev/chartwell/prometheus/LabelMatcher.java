package dev.chartwell.prometheus;

import com.google.re2j.Pattern;
import java.util.Objects;

/**
 * One label matcher of a series selector: {@code name="v"}, {@code name!="v"}, {@code name=~"re"}
 * or {@code name!~"re"}. Regular expressions are fully anchored and use RE2 syntax (as Prometheus'
 * Go regexp), matched in linear time without backtracking. A missing label matches as the empty
 * string, as in Prometheus.
 *
 * @param name the label name
 * @param type how the value is compared
 * @param value the literal or the regular expression
 */
public record LabelMatcher(String name, Type type, String value) {

  /** The four PromQL matcher operators. */
  public enum Type {
    /** {@code =} */
    EQUAL("="),
    /** {@code !=} */
    NOT_EQUAL("!="),
    /** {@code =~} */
    REGEX("=~"),
    /** {@code !~} */
    NOT_REGEX("!~");

    private final String symbol;

    Type(String symbol) {
      this.symbol = symbol;
    }

    /**
     * The operator as written in PromQL.
     *
     * @return {@code =}, {@code !=}, {@code =~} or {@code !~}
     */
    public String symbol() {
      return symbol;
    }
  }

  /**
   * A matcher, its regular expression (if any) checked.
   *
   * @throws IllegalArgumentException naming the label when the regular expression does not compile
   */
  public LabelMatcher {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    if (type == Type.REGEX || type == Type.NOT_REGEX) {
      compile(name, value);
    }
  }

  /**
   * Whether a label value (the empty string when the series lacks the label) satisfies this
   * matcher.
   *
   * @param labelValue the series' value of {@link #name()}, or {@code ""}
   * @return true when it matches
   */
  public boolean matches(String labelValue) {
    String v = labelValue == null ? "" : labelValue;
    return switch (type) {
      case EQUAL -> v.equals(value);
      case NOT_EQUAL -> !v.equals(value);
      case REGEX -> pattern().matches(v);
      case NOT_REGEX -> !pattern().matches(v);
    };
  }

  /**
   * Whether this matcher matches the empty string (such a matcher alone cannot select series:
   * Prometheus requires at least one matcher that does not).
   *
   * @return true when {@code matches("")}
   */
  public boolean matchesEmpty() {
    return matches("");
  }

  private Pattern pattern() {
    return PatternCache.get(value);
  }

  private static void compile(String name, String re) {
    try {
      PatternCache.get(re);
    } catch (com.google.re2j.PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "the regular expression of label " + name + " is not valid: " + e.getDescription(), e);
    }
  }

  @Override
  public String toString() {
    return name + type.symbol + '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
