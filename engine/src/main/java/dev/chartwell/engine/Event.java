package dev.chartwell.engine;

import java.util.Map;
import java.util.Objects;

/**
 * One event to append: its time and its fields.
 *
 * @param timestamp epoch milliseconds
 * @param fields flattened field names to values: {@link String}, {@link Boolean}, {@link Long},
 *     {@link Integer}, {@link Short}, {@link Byte}, {@link Double}, {@link Float}, {@link
 *     java.math.BigInteger} or {@link java.math.BigDecimal}; a {@code null} value means absent
 */
public record Event(long timestamp, Map<String, Object> fields) {
  /** Validates the parts. */
  public Event {
    Objects.requireNonNull(fields, "fields");
  }
}
