package dev.chartwell.engine;

/** An event that cannot be stored, with the reason (naming the field). Nothing of it is kept. */
public final class RejectedEventException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  /**
   * @param reason why, naming the field
   */
  public RejectedEventException(String reason) {
    super(reason, null, false);
  }
}
