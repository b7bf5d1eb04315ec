package dev.chartwell.engine.source;

/**
 * An accepted event as the storage logs it: its fields already converted to their columns' types
 * ({@link String}, {@link Long}, {@link Double} or {@link Boolean}), in the order the event gave
 * them, so that replaying the log defines new columns in the order the first append did.
 *
 * @param timestamp epoch milliseconds
 * @param names field names (only the first {@code count} are used)
 * @param values converted values, parallel to {@code names}
 * @param count the number of fields
 */
public record LoggedEvent(long timestamp, String[] names, Object[] values, int count) {}
