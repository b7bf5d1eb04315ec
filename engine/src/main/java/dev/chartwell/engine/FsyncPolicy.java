package dev.chartwell.engine;

import java.util.Objects;

/**
 * When a source's write-ahead log forces written records to the disk, and so what an acknowledged
 * append survives.
 *
 * <ul>
 *   <li>{@code request} (the default): an append returns only after an fsync that covers its
 *       records; concurrent appends share one fsync (group commit). Survives power loss.
 *   <li>{@code interval:<ms>}: an append returns once its records are written to the file; a
 *       background thread fsyncs every {@code ms} milliseconds. Survives a crash of the process;
 *       power loss may lose the last interval.
 *   <li>{@code never}: records are written and the operating system decides when they reach the
 *       disk. Survives a crash of the process only.
 * </ul>
 *
 * @param mode the kind of policy
 * @param intervalMillis the fsync period for {@link Mode#INTERVAL}, else 0
 */
public record FsyncPolicy(Mode mode, long intervalMillis) {
  /** Longest accepted interval: one hour. */
  public static final long MAX_INTERVAL_MILLIS = 3_600_000;

  /** Fsync before each append returns. */
  public static final FsyncPolicy REQUEST = new FsyncPolicy(Mode.REQUEST, 0);

  /** Never fsync; the operating system writes back. */
  public static final FsyncPolicy NEVER = new FsyncPolicy(Mode.NEVER, 0);

  /** The kinds of policy. */
  public enum Mode {
    /** Fsync before each append returns. */
    REQUEST,
    /** Fsync periodically in the background. */
    INTERVAL,
    /** Never fsync. */
    NEVER
  }

  /** Validates the parts. */
  public FsyncPolicy {
    Objects.requireNonNull(mode, "mode");
    if (mode == Mode.INTERVAL) {
      if (intervalMillis < 1 || intervalMillis > MAX_INTERVAL_MILLIS) {
        throw new IllegalArgumentException(
            "the fsync interval must be 1 to "
                + MAX_INTERVAL_MILLIS
                + " ms, got "
                + intervalMillis);
      }
    } else if (intervalMillis != 0) {
      throw new IllegalArgumentException(mode + " takes no interval");
    }
  }

  /**
   * @param millis the fsync period, 1 to {@link #MAX_INTERVAL_MILLIS}
   * @return the periodic policy
   */
  public static FsyncPolicy interval(long millis) {
    return new FsyncPolicy(Mode.INTERVAL, millis);
  }

  /**
   * Reads a policy as given on a command line.
   *
   * @param text {@code request}, {@code interval:<ms>} or {@code never}
   * @return the policy
   * @throws IllegalArgumentException naming the accepted forms and the text given
   */
  public static FsyncPolicy parse(String text) {
    if ("request".equals(text)) {
      return REQUEST;
    }
    if ("never".equals(text)) {
      return NEVER;
    }
    if (text != null && text.startsWith("interval:")) {
      String digits = text.substring("interval:".length());
      long millis = -1;
      if (!digits.isEmpty()
          && digits.length() <= 10
          && digits.chars().allMatch(Character::isDigit)) {
        millis = Long.parseLong(digits);
      }
      if (millis >= 1 && millis <= MAX_INTERVAL_MILLIS) {
        return interval(millis);
      }
      throw new IllegalArgumentException(
          "--fsync must be request, interval:<ms> or never, got '"
              + text
              + "' (<ms> is a whole number of milliseconds from 1 to "
              + MAX_INTERVAL_MILLIS
              + ")");
    }
    throw new IllegalArgumentException(
        "--fsync must be request, interval:<ms> or never, got "
            + (text == null ? "nothing" : "'" + text + "'"));
  }

  /**
   * @return the form {@link #parse} reads: {@code request}, {@code interval:<ms>} or {@code never}
   */
  @Override
  public String toString() {
    return switch (mode) {
      case REQUEST -> "request";
      case INTERVAL -> "interval:" + intervalMillis;
      case NEVER -> "never";
    };
  }
}
