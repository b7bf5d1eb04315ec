package dev.chartwell.prometheus.promql;

/**
 * A query PromQL cannot parse or evaluate. {@link Kind#BAD_DATA} errors (syntax, types, unsupported
 * constructs) carry the 0-based character offset of the construct; evaluation errors do not.
 */
public final class PromQlException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, as Prometheus' API classifies errors ({@code errorType}). */
  public enum Kind {
    /** The query is malformed or uses something outside the supported subset. */
    BAD_DATA("bad_data"),
    /** The query is well-formed but its evaluation failed (e.g. many-to-many matching). */
    EXECUTION("execution"),
    /** The cancellation check stopped the evaluation (deadline passed or cancelled). */
    TIMEOUT("timeout");

    private final String apiName;

    Kind(String apiName) {
      this.apiName = apiName;
    }

    /**
     * The {@code errorType} of Prometheus' JSON error envelope.
     *
     * @return e.g. {@code "bad_data"}
     */
    public String apiName() {
      return apiName;
    }
  }

  private final Kind kind;
  private final int position;

  private PromQlException(Kind kind, int position, String message) {
    super(message);
    this.kind = kind;
    this.position = position;
  }

  /**
   * A parse or type error at a position; the message gets " at position N" appended.
   *
   * @param position 0-based character offset in the query
   * @param message what is wrong, naming the construct
   * @return the exception
   */
  public static PromQlException badData(int position, String message) {
    return new PromQlException(Kind.BAD_DATA, position, message + " at position " + position);
  }

  /**
   * An evaluation error.
   *
   * @param message what went wrong
   * @return the exception
   */
  public static PromQlException execution(String message) {
    return new PromQlException(Kind.EXECUTION, -1, message);
  }

  /**
   * The evaluation was stopped by the cancellation check.
   *
   * @param message why
   * @return the exception
   */
  public static PromQlException timeout(String message) {
    return new PromQlException(Kind.TIMEOUT, -1, message);
  }

  /**
   * The error's class.
   *
   * @return bad data, execution or timeout
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Where in the query the problem is.
   *
   * @return a 0-based character offset, or -1 for evaluation errors
   */
  public int position() {
    return position;
  }
}
