package dev.chartwell.engine;

/**
 * The engine was closed: every method that needs an open engine (creating, finding and dropping
 * sources, appending, querying, searching, statistics) throws this after {@link Engine#close()}. A
 * {@link Source} obtained before the close throws it too.
 */
public final class EngineClosedException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was refused
   */
  public EngineClosedException(String message) {
    super(message, null, true);
  }
}
