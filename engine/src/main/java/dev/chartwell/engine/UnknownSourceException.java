package dev.chartwell.engine;

/**
 * A query, search or append names a source that does not exist: never created, or dropped with
 * {@link Engine#dropSource}.
 */
public final class UnknownSourceException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  private final String sourceId;

  /**
   * @param path the field path, for example {@code series[0].sourceId}
   * @param sourceId the unknown id
   */
  public UnknownSourceException(String path, String sourceId) {
    this(sourceId, path + ": source " + sourceId + " not found", false);
  }

  private UnknownSourceException(String sourceId, String message, boolean unused) {
    super(message, null, false);
    this.sourceId = sourceId;
  }

  /**
   * @param sourceId the id of a source that was dropped
   * @return the exception an append to it throws
   */
  public static UnknownSourceException dropped(String sourceId) {
    return new UnknownSourceException(sourceId, "source " + sourceId + " was dropped", false);
  }

  /**
   * @return the id that named no source
   */
  public String sourceId() {
    return sourceId;
  }
}
