package dev.chartwell.server;

/** A command-line flag or environment variable has a value the server cannot use. */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * @param message one line naming the flag and what is wrong with its value
   */
  public ConfigException(String message) {
    super(message);
  }
}
