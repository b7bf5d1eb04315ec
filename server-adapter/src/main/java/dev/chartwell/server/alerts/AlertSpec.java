package dev.chartwell.server.alerts;

import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.internal.query.Backend;
import java.util.List;

/**
 * An alert resolved into what evaluating it takes: the engine series of its tile or saved search,
 * its windows, its rules, where its notifications go and what they are called.
 *
 * @param alertId the alert
 * @param serviceId its service
 * @param schedule its windows
 * @param rules threshold, consecutive windows and renotification
 * @param silencedUntil no notifications before this time, epoch ms (0 when not silenced)
 * @param webhookIds the webhooks notified
 * @param target what a window's value is
 * @param name the alert's name (the notification title when given), or {@code null}
 * @param message the alert's message (in the notification body), or {@code null}
 * @param savedSearchId the saved search of a saved-search alert, or {@code null}
 * @param savedSearchName its name, or {@code null}
 * @param dashboardId the dashboard of a tile alert, or {@code null}
 * @param dashboardName its name, or {@code null}
 * @param tileId the tile of a tile alert, or {@code null}
 * @param tileName its name, or {@code null}
 */
public record AlertSpec(
    String alertId,
    String serviceId,
    Schedule schedule,
    Transition.Rules rules,
    long silencedUntil,
    List<String> webhookIds,
    Target target,
    String name,
    String message,
    String savedSearchId,
    String savedSearchName,
    String dashboardId,
    String dashboardName,
    String tileId,
    String tileName) {

  /** Copies the list. */
  public AlertSpec {
    webhookIds = List.copyOf(webhookIds);
  }

  /**
   * What a window's value is: the value of the last series (of the ratio of two, with {@link
   * SeriesReturnType#RATIO}) over the window, per group of {@code groupBy}.
   *
   * @param series one series, or two for a ratio; every one with the same {@code groupBy}
   * @param returnType column or ratio
   * @param backend where the series' sources are read ({@code null}: the embedded engine)
   */
  public record Target(List<Series> series, SeriesReturnType returnType, Backend backend) {
    /** Copies the list. */
    public Target {
      series = List.copyOf(series);
    }

    /**
     * A target the engine answers.
     *
     * @param series the series
     * @param returnType column or ratio
     */
    public Target(List<Series> series, SeriesReturnType returnType) {
      this(series, returnType, null);
    }

    /**
     * @return the fields the series group by
     */
    public List<String> groupBy() {
      return series.get(0).groupBy();
    }
  }

  /**
   * @return the threshold
   */
  public Threshold threshold() {
    return rules.threshold();
  }

  /**
   * @param now a time, epoch ms
   * @return whether notifications are silenced then
   */
  public boolean silencedAt(long now) {
    return now < silencedUntil;
  }
}
