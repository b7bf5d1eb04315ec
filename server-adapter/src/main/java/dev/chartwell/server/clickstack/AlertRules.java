package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.dateTime;
import static dev.chartwell.server.validation.FieldType.expression;
import static dev.chartwell.server.validation.FieldType.integer;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.number;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The rules of an alert ({@code ClickStackCreateAlertRequest}): its source, a tile of a line,
 * stacked-bar or number chart ({@code source: "tile"}, {@code dashboardId}, {@code tileId}) or a
 * saved search ({@code source: "saved_search"}, {@code savedSearchId}, {@code groupBy}); its
 * threshold and interval; its schedule ({@code numConsecutiveWindows}, {@code
 * scheduleOffsetMinutes}, {@code scheduleStartAt}); its webhook channel; and two fields of
 * Chartwell's own that both APIs accept: {@code renotifyIntervalMinutes} (repeat a notification
 * while an instance stays in ALERT, at most this often; none by default) and {@code silenced:
 * {until, at?, by?}} (no notifications before {@code until}; {@code at} defaults to the time of
 * saving). Alerts are stored and validated here and evaluated by {@code
 * dev.chartwell.server.alerts}.
 */
final class AlertRules {
  static final List<String> INTERVALS = List.of("1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d");
  static final Map<String, Integer> INTERVAL_MINUTES =
      Map.of("1m", 1, "5m", 5, "15m", 15, "30m", 30, "1h", 60, "6h", 360, "12h", 720, "1d", 1440);
  static final List<String> THRESHOLD_TYPES =
      List.of(
          "above",
          "below",
          "above_exclusive",
          "below_or_equal",
          "equal",
          "not_equal",
          "between",
          "not_between");

  /** The display types a tile alert can watch. */
  static final List<String> ALERTABLE_TILES = List.of("line", "stacked_bar", "number");

  /** The most channels one alert notifies. */
  static final int MAX_CHANNELS = 10;

  private static final ObjectShape CHANNEL =
      ObjectShape.of(
          required("type", oneOf("webhook", "email")),
          optional("webhookId", string()),
          optional("webhookService", nullable(string())),
          optional("slackChannelId", nullable(string())),
          optional("severity", nullable(oneOf("critical", "error", "warning", "info"))),
          optional("emailRecipients", arrayOf(string())));

  /** The longest {@code renotifyIntervalMinutes}: a week. */
  static final int MAX_RENOTIFY_MINUTES = 10_080;

  private static final ObjectShape SILENCED =
      ObjectShape.of(
          required("until", dateTime()),
          optional("at", dateTime()),
          optional("by", nullable(string())));
  private static final ObjectShape ALERT =
      ObjectShape.of(
          optional("dashboardId", nullable(string())),
          optional("tileId", nullable(string())),
          optional("savedSearchId", nullable(string())),
          optional("groupBy", nullable(expression())),
          required("threshold", number()),
          optional("thresholdMax", nullable(number())),
          required("interval", oneOf(INTERVALS)),
          optional("scheduleOffsetMinutes", nullable(integer(0, 1439))),
          optional("scheduleStartAt", nullable(dateTime())),
          optional("source", oneOf("saved_search", "tile")),
          required("thresholdType", oneOf(THRESHOLD_TYPES)),
          optional("channel", object(CHANNEL)),
          optional("channels", arrayOf(object(CHANNEL), MAX_CHANNELS)),
          optional("name", nullable(name())),
          optional("message", nullable(string())),
          optional("note", nullable(string())),
          optional("numConsecutiveWindows", nullable(integer(1, 1000))),
          optional("renotifyIntervalMinutes", nullable(integer(1, MAX_RENOTIFY_MINUTES))),
          optional("silenced", nullable(object(SILENCED))));

  private AlertRules() {}

  /**
   * @param a the alert (changed in place: {@code source} defaults to {@code tile}, {@code
   *     silenced.at} to {@code now}; {@code channels} and {@code channel}, its first, both written)
   * @param old the alert it replaces, or {@code null}
   * @param find a resource of the alert's service by kind and id, or {@code null}
   * @param now the time of saving ({@code silenced.at} when not given)
   * @param p where problems go
   */
  static void check(
      ObjectNode a,
      ObjectNode old,
      BiFunction<Kind, String, ObjectNode> find,
      Instant now,
      Problems p) {
    ALERT.checkBody(a, p);
    if (a.path("silenced").isObject() && !a.get("silenced").has("at")) {
      ((ObjectNode) a.get("silenced")).put("at", now.toString());
    }
    if (!a.has("source")) {
      a.put("source", "tile");
    }
    Function<String, String> text = f -> a.path(f).isTextual() ? a.get(f).textValue() : null;
    if (a.get("source").asText().equals("tile")) {
      tileSource(a, text.apply("dashboardId"), text.apply("tileId"), find, p);
      for (String f : List.of("savedSearchId", "groupBy")) {
        if (text.apply(f) != null) {
          p.add(f, "only for alerts with source saved_search");
        }
      }
    } else {
      String search = text.apply("savedSearchId");
      if (search == null) {
        p.add("savedSearchId", "is required for source saved_search");
      } else if (find.apply(Kind.SAVED_SEARCH, search) == null) {
        p.add("savedSearchId", "saved search " + search + " does not exist in this service");
      }
      for (String f : List.of("dashboardId", "tileId")) {
        if (text.apply(f) != null) {
          p.add(f, "only for alerts with source tile");
        }
      }
    }
    String type = a.path("thresholdType").asText();
    if (type.equals("between") || type.equals("not_between")) {
      if (!a.path("thresholdMax").isNumber()) {
        p.add("thresholdMax", "is required for " + type);
      } else if (a.path("threshold").isNumber()
          && a.get("thresholdMax").doubleValue() < a.get("threshold").doubleValue()) {
        p.add("thresholdMax", "must be at least threshold");
      }
    }
    Integer minutes = INTERVAL_MINUTES.get(a.path("interval").asText());
    if (minutes != null
        && a.path("scheduleOffsetMinutes").isIntegralNumber()
        && a.get("scheduleOffsetMinutes").intValue() >= minutes) {
      p.add("scheduleOffsetMinutes", "must be less than the interval (" + minutes + " minutes)");
    }
    channels(a, old, find, p);
  }

  /**
   * Every alert keeps its {@code channels} (HyperDX's list, 1 to 10, no duplicates) and {@code
   * channel}, the first of them (all the Cloud document shows). A body with only {@code channel}
   * (the Cloud API, or an older HyperDX client) replaces the first channel and keeps the others; a
   * body with both must agree on the first. The Cloud-only fields of the first channel stay while
   * it names the same webhook.
   */
  private static void channels(
      ObjectNode a, ObjectNode old, BiFunction<Kind, String, ObjectNode> find, Problems p) {
    JsonNode channel = a.get("channel");
    JsonNode given = a.get("channels");
    if (channel == null && given == null) {
      p.add("channel", "is required (or channels)");
      return;
    }
    if ((channel != null && !channel.isObject()) || (given != null && !given.isArray())) {
      return; // the shape said what is wrong
    }
    ArrayNode list;
    String path;
    if (given == null) {
      list = a.arrayNode().add(channel);
      if (old != null) {
        old.path("channels")
            .forEach(
                c -> {
                  if (list.size() < MAX_CHANNELS && !containsChannel(list, c)) {
                    list.add(c);
                  }
                });
      }
      path = "channel";
    } else {
      list = (ArrayNode) given;
      if (list.isEmpty()) {
        p.add("channels", "must hold 1 to " + MAX_CHANNELS + " channels");
        return;
      }
      if (channel != null && !sameChannel(channel, list.get(0))) {
        p.add("channel", "must be the first of channels when both are given");
      }
      path = "channels[0]";
    }
    for (int i = 0; i < list.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (sameChannel(list.get(i), list.get(j))) {
          p.add("channels[" + i + "]", "is the same channel as channels[" + j + "]");
        }
      }
      channel(list.get(i), i == 0 ? path : "channels[" + i + "]", find, p);
    }
    ObjectNode first = (ObjectNode) list.get(0);
    JsonNode oldFirst = old == null ? null : old.get("channel");
    if (oldFirst != null && sameChannel(first, oldFirst)) {
      for (String f : Api.CLOUD_CHANNEL_FIELDS) {
        if (!first.has(f) && oldFirst.has(f)) {
          first.set(f, oldFirst.get(f));
        }
      }
    }
    a.set("channels", list);
    a.set("channel", first.deepCopy());
  }

  private static boolean sameChannel(JsonNode x, JsonNode y) {
    return x.path("type").equals(y.path("type")) && x.path("webhookId").equals(y.path("webhookId"));
  }

  private static boolean containsChannel(ArrayNode list, JsonNode c) {
    for (JsonNode e : list) {
      if (sameChannel(e, c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param alert a stored alert
   * @param webhookId a webhook
   * @return whether one of the alert's channels notifies that webhook
   */
  static boolean notifies(JsonNode alert, String webhookId) {
    for (JsonNode c : alert.path("channels")) {
      if (c.path("webhookId").asText().equals(webhookId)) {
        return true;
      }
    }
    return alert.path("channel").path("webhookId").asText().equals(webhookId);
  }

  private static void tileSource(
      ObjectNode a,
      String dashboardId,
      String tileId,
      BiFunction<Kind, String, ObjectNode> find,
      Problems p) {
    if (dashboardId == null) {
      p.add("dashboardId", "is required for source tile");
    }
    if (tileId == null) {
      p.add("tileId", "is required for source tile");
    }
    if (dashboardId == null || tileId == null) {
      return;
    }
    ObjectNode dashboard = find.apply(Kind.DASHBOARD, dashboardId);
    if (dashboard == null) {
      p.add("dashboardId", "dashboard " + dashboardId + " does not exist in this service");
      return;
    }
    for (JsonNode t : dashboard.path("tiles")) {
      if (t.path("id").asText().equals(tileId)) {
        String display = t.path("config").path("displayType").asText();
        if (!ALERTABLE_TILES.contains(display)) {
          p.add(
              "tileId",
              "tile "
                  + tileId
                  + " is a "
                  + display
                  + " tile; alerts watch line, stacked_bar or number tiles");
        }
        return;
      }
    }
    p.add("tileId", "tile " + tileId + " does not exist on dashboard " + dashboardId);
  }

  private static void channel(
      JsonNode channel, String path, BiFunction<Kind, String, ObjectNode> find, Problems p) {
    if (channel.path("type").asText().equals("email")) {
      p.add(path + ".type", "email: Chartwell sends no email; use a webhook");
      return;
    }
    if (!channel.path("type").asText().equals("webhook")) {
      return;
    }
    if (channel.has("emailRecipients")) {
      p.add(path + ".emailRecipients", "only for email channels");
    }
    String webhookId =
        channel.path("webhookId").isTextual() ? channel.get("webhookId").textValue() : null;
    if (webhookId == null) {
      p.add(path + ".webhookId", "is required");
    } else if (find.apply(Kind.WEBHOOK, webhookId) == null) {
      p.add(path + ".webhookId", "webhook " + webhookId + " does not exist in this service");
    }
  }
}
