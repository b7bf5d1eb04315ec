package dev.chartwell.engine;

/** A series names a source that does not exist. */
public final class UnknownSourceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param path the field path, for example {@code series[0].sourceId}
   * @param sourceId the unknown id
   */
  public UnknownSourceException(String path, String sourceId) {
    super(path + ": source " + sourceId + " not found", null, false, false);
  }
}
