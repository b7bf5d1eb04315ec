package dev.chartwell.server.charts;

/**
 * Thrown (without a stack) where {@link LineParser} and its readers of numbers and strings must
 * leave a line to the general reader ({@link EventReader}), which decides what it holds.
 */
public final class GiveUp extends Exception {
  /** The one instance: it carries nothing. */
  public static final GiveUp INSTANCE = new GiveUp();

  private GiveUp() {
    super(null, null, false, false);
  }
}
