package dev.chartwell.server.alerts;

/**
 * The state of one alert instance (the alert, or one group of a grouped alert) after a window.
 *
 * @param group the group ({@code ServiceName:checkout}, several joined with {@code ", "}), or
 *     {@code ""} for an alert without groups
 * @param state {@code OK}, {@code PENDING} or {@code ALERT}
 * @param consecutive how many windows in a row broke the threshold (0 when OK)
 * @param notifiedAt the end of the window whose ALERT notification was last sent while the instance
 *     is out of OK, or 0 when none was (never, or silenced)
 */
public record Instance(String group, String state, int consecutive, long notifiedAt) {
  /** The state of an instance that broke no threshold. */
  public static final String OK = "OK";

  /** The state while fewer windows than {@code numConsecutiveWindows} broke it. */
  public static final String PENDING = "PENDING";

  /** The state of an instance that fires. */
  public static final String ALERT = "ALERT";

  /**
   * @param group the group
   * @return an instance seen for the first time
   */
  public static Instance fresh(String group) {
    return new Instance(group, OK, 0, 0);
  }
}
