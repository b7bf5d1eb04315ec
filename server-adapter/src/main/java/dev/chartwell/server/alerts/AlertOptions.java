package dev.chartwell.server.alerts;

import java.time.Duration;
import java.util.Optional;

/**
 * How alert notifications are delivered ({@code --webhook-*} and {@code --frontend-url} flags).
 *
 * @param webhookTimeout how long one attempt may take, from connecting to the answer's headers
 * @param webhookAttempts attempts per notification, at least 1
 * @param retryDelay the wait before the second attempt; each later one waits three times longer
 *     (jittered by ±50%)
 * @param frontendUrl the HyperDX (ClickStack) user interface notifications link to, if any
 */
public record AlertOptions(
    Duration webhookTimeout,
    int webhookAttempts,
    Duration retryDelay,
    Optional<String> frontendUrl) {

  /** The defaults: a 10 s timeout, 3 attempts 10 s and about 30 s apart. */
  public static final AlertOptions DEFAULTS =
      new AlertOptions(Duration.ofSeconds(10), 3, Duration.ofSeconds(10), Optional.empty());

  /** Checks the values. */
  public AlertOptions {
    if (webhookAttempts < 1) {
      throw new IllegalArgumentException("at least one attempt: " + webhookAttempts);
    }
  }
}
