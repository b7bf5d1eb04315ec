package dev.chartwell.engine;

import java.util.List;

/**
 * A chart query that cannot run as asked. The message names each problem's field path, for example
 * {@code series[1].aggFn: ...}, several joined with {@code "; "}.
 */
public final class InvalidQueryException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  /**
   * @param problems each problem, starting with its field path
   */
  public InvalidQueryException(List<String> problems) {
    super(summary(problems), null, false);
    this.problems = List.copyOf(problems);
  }

  /**
   * @param problem one problem, starting with its field path
   */
  public InvalidQueryException(String problem) {
    this(List.of(problem));
  }

  /**
   * The problem of a bare term (or other search of the implicit column) on a source without one;
   * every backend says it in these words.
   *
   * @param path the where's field path
   * @param term the bare term
   * @return the exception
   */
  public static InvalidQueryException noImplicitColumn(String path, String term) {
    return new InvalidQueryException(
        path
            + ": the bare term '"
            + term
            + "' searches the implicit column, and this source has none; name a field"
            + " (field:value)");
  }

  /** At most this many problems are spelled out in the message; the rest are counted. */
  public static final int MAX_LISTED = 20;

  /** A problem's text is cut after this many characters (it may quote what it found). */
  public static final int MAX_PROBLEM_LENGTH = 512;

  /**
   * Joins problems for a message that stays short whatever the input: the first {@link
   * #MAX_LISTED}, each cut at {@link #MAX_PROBLEM_LENGTH} characters, then "and N more".
   *
   * @param problems the problems
   * @return the message
   */
  public static String summary(List<String> problems) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(MAX_LISTED, problems.size()); i++) {
      if (i > 0) {
        sb.append("; ");
      }
      String p = problems.get(i);
      if (p.length() > MAX_PROBLEM_LENGTH) {
        int cut = MAX_PROBLEM_LENGTH;
        if (Character.isHighSurrogate(p.charAt(cut - 1))) {
          cut--;
        }
        p = p.substring(0, cut) + "...";
      }
      sb.append(p);
    }
    if (problems.size() > MAX_LISTED) {
      sb.append("; and ").append(problems.size() - MAX_LISTED).append(" more");
    }
    return sb.toString();
  }

  /**
   * @return each problem
   */
  public List<String> problems() {
    return problems;
  }
}
