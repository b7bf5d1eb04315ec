package dev.chartwell.parser;

/**
 * A {@code where} clause that cannot be parsed, with what is wrong and where: {@code getMessage()}
 * reads {@code "line 1, column 12: unexpected ')'"}.
 */
public final class WhereSyntaxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String reason;
  private final int line;
  private final int column;

  /**
   * @param reason what is wrong, for a human
   * @param line 1-based line
   * @param column 1-based column (in characters)
   */
  public WhereSyntaxException(String reason, int line, int column) {
    super("line " + line + ", column " + column + ": " + reason, null, false, false);
    this.reason = reason;
    this.line = line;
    this.column = column;
  }

  /**
   * @return what is wrong, without the position
   */
  public String reason() {
    return reason;
  }

  /**
   * @return the 1-based line of the problem
   */
  public int line() {
    return line;
  }

  /**
   * @return the 1-based column of the problem
   */
  public int column() {
    return column;
  }
}
