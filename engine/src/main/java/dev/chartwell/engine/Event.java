package dev.chartwell.engine;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One event to append: its time and its fields.
 *
 * <pre>{@code
 * Event e = Event.now(Map.of("Body", "GET /users 200", "ServiceName", "api", "status", 200));
 * }</pre>
 *
 * @param timestamp epoch milliseconds, from {@link Source#MIN_TIMESTAMP} (2001-09-09) to {@link
 *     Source#MAX_TIMESTAMP} (the end of 9999)
 * @param fields flattened field names to values: {@link String}, {@link Boolean}, {@link Long},
 *     {@link Integer}, {@link Short}, {@link Byte}, {@link Double}, {@link Float}, {@link
 *     java.math.BigInteger} or {@link java.math.BigDecimal}; a {@code null} value means absent
 */
public record Event(long timestamp, Map<String, Object> fields) {
  /** Validates the parts. */
  public Event {
    Objects.requireNonNull(fields, "fields");
  }

  /**
   * @param time when it happened
   * @param fields the fields
   * @return the event
   */
  public static Event at(Instant time, Map<String, Object> fields) {
    Objects.requireNonNull(time, "time");
    return new Event(time.toEpochMilli(), fields);
  }

  /**
   * @param fields the fields
   * @return an event timestamped now (the system clock)
   */
  public static Event now(Map<String, Object> fields) {
    return new Event(System.currentTimeMillis(), fields);
  }
}
