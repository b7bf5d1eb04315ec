package dev.chartwell.integrations;

/**
 * OpenTelemetry's severity numbers of the usual levels ({@code SeverityNumber} in the log data
 * model): each range of four holds one level, its first number the plain one.
 */
public final class Severity {
  /** No level. */
  public static final int UNDEFINED = 0;

  /** TRACE. */
  public static final int TRACE = 1;

  /** DEBUG. */
  public static final int DEBUG = 5;

  /** INFO. */
  public static final int INFO = 9;

  /** WARN. */
  public static final int WARN = 13;

  /** ERROR. */
  public static final int ERROR = 17;

  /** FATAL. */
  public static final int FATAL = 21;

  private Severity() {}
}
