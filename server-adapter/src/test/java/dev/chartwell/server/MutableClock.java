package dev.chartwell.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that tests move by hand. */
public final class MutableClock extends Clock {
  private volatile Instant now;

  /**
   * @param start the time it shows until moved
   */
  public MutableClock(Instant start) {
    this.now = start;
  }

  /**
   * @param t the time it shows from now on
   */
  public void set(Instant t) {
    now = t;
  }

  /**
   * @param d how far to move it on
   */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("UTC only");
  }

  @Override
  public Instant instant() {
    return now;
  }
}
