package dev.chartwell.engine.internal.segment;

import java.util.Arrays;

/** A numeric buffer: one 64-bit word per row (a long as it is, a double as its bits). */
abstract class HeadWords extends HeadColumn {
  long[] values;

  HeadWords(int capacity) {
    values = new long[capacity];
    growPresence(capacity);
  }

  /** An empty buffer of the same kind. */
  abstract HeadWords empty();

  @Override
  void grow(int capacity) {
    values = Arrays.copyOf(values, capacity);
    growPresence(capacity);
  }

  @Override
  HeadColumn copy(int from, int to) {
    HeadWords c = empty();
    c.values = Arrays.copyOfRange(values, from, to);
    c.present = bitRange(present, from, to);
    return c;
  }

  @Override
  long bytes() {
    return 32 + 8L * values.length + 8L * present.length;
  }
}
