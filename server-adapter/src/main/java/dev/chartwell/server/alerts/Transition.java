package dev.chartwell.server.alerts;

/**
 * One instance's step through one window: its next state and the notification it calls for.
 *
 * <ul>
 *   <li>A window that breaks the threshold moves the instance to PENDING until {@code
 *       numConsecutiveWindows} windows in a row did, then to ALERT.
 *   <li>Entering ALERT calls for an {@link Kind#ALERT} notification; staying in ALERT for a {@link
 *       Kind#REPEAT} at most every {@code renotifyIntervalMinutes} (never by default).
 *   <li>A window within the threshold moves it to OK, and calls for a {@link Kind#RESOLVE} when an
 *       ALERT notification was sent for it.
 *   <li>Silencing suppresses the notification, not the state: an ALERT suppressed is sent at the
 *       first window after the silence ends (if the instance still fires), a RESOLVE suppressed is
 *       dropped.
 * </ul>
 *
 * @param next the instance after the window
 * @param kind the notification called for, or {@code null}
 * @param suppressed whether it is suppressed by a silence
 */
public record Transition(Instance next, Kind kind, boolean suppressed) {
  /** The notifications an instance's window may call for. */
  public enum Kind {
    /** the instance entered ALERT (or is told of it for the first time after a silence). */
    ALERT,
    /** it is still in ALERT, {@code renotifyIntervalMinutes} after the last notification. */
    REPEAT,
    /** it left ALERT. */
    RESOLVE;

    /**
     * @return the {@code state} the notification carries
     */
    public String state() {
      return this == RESOLVE ? Instance.OK : Instance.ALERT;
    }
  }

  /**
   * The rules of an alert that steps use.
   *
   * @param threshold when a value breaks the threshold
   * @param windows {@code numConsecutiveWindows}, at least 1
   * @param renotifyMillis how long after the last ALERT notification a repeat is due, or 0 for
   *     never
   */
  public record Rules(Threshold threshold, int windows, long renotifyMillis) {}

  /**
   * @param prev the instance before the window
   * @param value the window's value (0 when it had no rows)
   * @param window the window
   * @param rules the alert's rules
   * @param silenced whether notifications are silenced now
   * @return the step
   */
  public static Transition step(
      Instance prev, double value, Window window, Rules rules, boolean silenced) {
    if (!rules.threshold().exceeds(value)) {
      Kind kind = prev.notifiedAt() != 0 ? Kind.RESOLVE : null;
      return new Transition(
          new Instance(prev.group(), Instance.OK, 0, 0), kind, kind != null && silenced);
    }
    int consecutive =
        prev.consecutive() == Integer.MAX_VALUE ? prev.consecutive() : prev.consecutive() + 1;
    if (consecutive < rules.windows()) {
      return new Transition(
          new Instance(prev.group(), Instance.PENDING, consecutive, prev.notifiedAt()),
          null,
          false);
    }
    Kind kind = null;
    if (prev.notifiedAt() == 0) {
      kind = Kind.ALERT;
    } else if (rules.renotifyMillis() > 0
        && window.end() - prev.notifiedAt() >= rules.renotifyMillis()) {
      kind = Kind.REPEAT;
    }
    boolean suppressed = kind != null && silenced;
    long notifiedAt = kind != null && !suppressed ? window.end() : prev.notifiedAt();
    return new Transition(
        new Instance(prev.group(), Instance.ALERT, consecutive, notifiedAt), kind, suppressed);
  }
}
