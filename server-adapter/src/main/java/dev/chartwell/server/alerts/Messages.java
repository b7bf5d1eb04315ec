package dev.chartwell.server.alerts;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The title and body of a notification, worded as HyperDX words them: the value against the
 * threshold, the window in UTC, the group, and the alert's {@code message} (as written: it is not a
 * template). A resolve says that the alert has been resolved.
 */
final class Messages {
  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("MMM d h:mm:ss a", Locale.ENGLISH).withZone(ZoneOffset.UTC);

  private Messages() {}

  /**
   * @param spec the alert
   * @param state {@code ALERT} or {@code OK}
   * @param value the window's value
   * @return the title: the alert's name, or HyperDX's, with 🚨 (ALERT) or ✅ (OK) before it
   */
  static String title(AlertSpec spec, String state, double value) {
    String emoji = state.equals(Instance.OK) ? "✅ " : "🚨 ";
    if (spec.name() != null && !spec.name().isBlank()) {
      return emoji + spec.name();
    }
    Threshold t = spec.threshold();
    if (spec.savedSearchName() != null) {
      return emoji
          + "Alert for \""
          + spec.savedSearchName()
          + "\" - "
          + Threshold.number(value)
          + " lines found";
    }
    return emoji
        + "Alert for \""
        + spec.tileName()
        + "\" in \""
        + spec.dashboardName()
        + "\" - "
        + t.format(value)
        + " "
        + (t.exceeds(value) ? t.violation() : t.resolution())
        + " "
        + t.describe();
  }

  /**
   * @param spec the alert
   * @param state {@code ALERT} or {@code OK}
   * @param group the group, or {@code ""}
   * @param value the window's value
   * @param window the window
   * @return the body
   */
  static String body(AlertSpec spec, String state, String group, double value, Window window) {
    Threshold t = spec.threshold();
    StringBuilder sb = new StringBuilder();
    if (state.equals(Instance.OK)) {
      if (!group.isEmpty()) {
        sb.append("Group: \"").append(group).append("\" - ");
      }
      sb.append("The alert has been resolved.");
    } else {
      if (!group.isEmpty()) {
        sb.append("Group: \"").append(group).append("\"\n");
      }
      if (spec.savedSearchName() != null) {
        sb.append(Threshold.number(value))
            .append(" lines found, which ")
            .append(t.violation())
            .append(" the threshold of ")
            .append(t.describe())
            .append(" lines");
      } else {
        sb.append(t.format(value))
            .append(' ')
            .append(t.exceeds(value) ? t.violation() : t.resolution())
            .append(' ')
            .append(t.describe());
      }
    }
    sb.append("\nTime Range (UTC): [")
        .append(UTC.format(Instant.ofEpochMilli(window.start())))
        .append(" - ")
        .append(UTC.format(Instant.ofEpochMilli(window.end())))
        .append(")");
    if (spec.message() != null && !spec.message().isBlank()) {
      sb.append('\n').append(spec.message());
    }
    return sb.toString();
  }

  /**
   * @param frontendUrl the HyperDX (ClickStack) user interface, or {@code null}
   * @param spec the alert
   * @param w the window
   * @return a link to the saved search over the window, or to the dashboard around it with the tile
   *     highlighted (as HyperDX links them); {@code ""} without a frontend
   */
  static String link(String frontendUrl, AlertSpec spec, Window w) {
    if (frontendUrl == null) {
      return "";
    }
    String base =
        frontendUrl.endsWith("/")
            ? frontendUrl.substring(0, frontendUrl.length() - 1)
            : frontendUrl;
    if (spec.savedSearchId() != null) {
      return base
          + "/search/"
          + enc(spec.savedSearchId())
          + "?from="
          + w.start()
          + "&to="
          + w.end()
          + "&isLive=false";
    }
    long around = 7 * spec.schedule().intervalMillis();
    return base
        + "/dashboards/"
        + enc(spec.dashboardId())
        + "?from="
        + (w.start() - around)
        + "&granularity="
        + enc(spec.schedule().intervalMillis() / 60_000 + " minute")
        + "&to="
        + (w.end() + around)
        + "&highlightedTileId="
        + enc(spec.tileId());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
