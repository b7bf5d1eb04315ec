package dev.chartwell.engine.query;

import java.util.List;

/**
 * A chart query that cannot run as asked. The message names each problem's field path, for example
 * {@code series[1].aggFn: ...}, several joined with {@code "; "}.
 */
public final class QueryValidationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  /**
   * @param problems each problem, starting with its field path
   */
  public QueryValidationException(List<String> problems) {
    super(String.join("; ", problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  /**
   * @param problem one problem, starting with its field path
   */
  public QueryValidationException(String problem) {
    this(List.of(problem));
  }

  /**
   * @return each problem
   */
  public List<String> problems() {
    return problems;
  }
}
